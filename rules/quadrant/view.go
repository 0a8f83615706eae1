package quadrant

import (
	"fmt"
	"time"

	"parlor/rules"
)

// View is what one seat may see. Before scoring it holds no other seat's secret number
// and no other seat's votes; the team ballot only reaches the inactive team.
type View struct {
	rules.Header
	Mode       string      `json:"mode"`                  // "competitive" or "team"
	Names      []string    `json:"names"`                 // display name per seat
	Teams      []int       `json:"teams,omitempty"`       // team mode: team per seat, 0 = A, 1 = B
	ActiveTeam int         `json:"active_team"`           // team mode: the team placing this round
	TeamScores []int       `json:"team_scores,omitempty"` // team mode: total of team A and team B
	Words      []string    `json:"words"`                 // the round's words; Words[k-1] has number k
	Reference  string      `json:"reference"`             // the word at the centre (0, 0)
	Horizontal string      `json:"horizontal"`            // criterion of the x axis: right = more
	Vertical   string      `json:"vertical"`              // criterion of the y axis: up = more
	Tokens     []Token     `json:"tokens"`                // one per active player, in seat order
	MyNumber   int         `json:"my_number,omitempty"`   // the viewer's secret number; 0 if none
	MyVotes    []Vote      `json:"my_votes,omitempty"`    // the viewer's own votes, once cast
	Ballot     *TeamBallot `json:"ballot,omitempty"`      // team mode: the shared ballot, inactive team only (all after scoring)
	Reveal     *Reveal     `json:"reveal,omitempty"`      // the round's scoring, once revealed
}

// Token is a player's token on the plane.
type Token struct {
	Seat   int  `json:"seat"`
	X      int  `json:"x"`
	Y      int  `json:"y"`
	Locked bool `json:"locked"`
	Voted  bool `json:"voted"` // the owner has cast their votes
}

// BallotLine is one line of the team ballot: the number on one active token.
type BallotLine struct {
	Seat      int  `json:"seat"`      // the token's owner
	Number    int  `json:"number"`    // 0 = empty
	By        int  `json:"by"`        // who wrote the line last; NoSeat (-1) = nobody
	Suggested bool `json:"suggested"` // the number is a bot's suggestion, not a teammate's edit
}

// TeamBallot is the inactive team's shared ballot.
type TeamBallot struct {
	Votes    []BallotLine `json:"votes"`    // one per active token, in seat order
	Approved []int        `json:"approved"` // seats that approved this revision
	Rev      int          `json:"rev"`      // revision, bumped on every change; send it with approve
	Cast     bool         `json:"cast"`     // every member approved and the ballot counts
	// ChangedAt is when the ballot last changed (or the team ballot opened), by the game's
	// clock: bots wait for a pause after it before they approve on their own.
	ChangedAt time.Time `json:"changed_at"`
}

// View returns what seat may see (rules.Spectator: the public view).
func (g *Game) View(seat int) rules.View {
	if seat < rules.Spectator || seat >= len(g.names) {
		seat = rules.Spectator
	}
	v := View{
		Header: rules.Header{
			Game: ID, Seat: seat, Round: g.round, Rounds: g.rounds, Phase: g.phase,
			Deadline: g.shown(seat), Scores: g.seatScores(), Over: g.over,
			Waiting: []int{}, Sheet: g.sheet.Clone(),
		},
		Mode:       ModeCompetitive,
		Names:      append([]string(nil), g.names...),
		Words:      append([]string(nil), g.words...),
		Reference:  g.ref,
		Horizontal: g.horiz,
		Vertical:   g.vert,
		Tokens:     make([]Token, 0, len(g.players)), // one allocation, not one per doubling: every seat's view of every move
	}
	if g.team {
		v.Mode = ModeTeam
		v.Teams = append([]int(nil), g.teamOf...)
		v.ActiveTeam = g.active
		v.TeamScores = []int{g.teamScores[0], g.teamScores[1]}
	}
	for _, p := range g.players {
		v.Tokens = append(v.Tokens, Token{Seat: p, X: g.pos[p].X, Y: g.pos[p].Y, Locked: g.locked[p], Voted: g.votes[p] != nil})
	}
	revealed := g.reveal != nil
	if seat >= 0 {
		v.MyNumber = g.number[seat]
		for owner, n := range g.votes[seat] {
			if n != 0 {
				v.MyVotes = append(v.MyVotes, Vote{Seat: owner, Number: n})
			}
		}
	}
	if g.team && (revealed || (seat >= 0 && g.teamOf[seat] != g.active && g.phase == PhaseTeamVote)) {
		v.Ballot = g.teamBallot()
	}
	if revealed {
		v.Reveal = g.copyReveal()
	}
	v.Waiting = g.waiting()
	v.Prompt = g.prompt(seat)
	v.Log = g.visibleLog(seat, 8)
	return v
}

// teamBallot copies the shared ballot.
func (g *Game) teamBallot() *TeamBallot {
	b := &TeamBallot{Votes: []BallotLine{}, Approved: []int{}, Rev: g.rev, Cast: g.cast, ChangedAt: g.changedAt}
	for _, p := range g.players {
		b.Votes = append(b.Votes, BallotLine{Seat: p, Number: g.ballot[p], By: g.ballotBy[p], Suggested: g.suggested[p]})
	}
	for s, ok := range g.approve {
		if ok {
			b.Approved = append(b.Approved, s)
		}
	}
	return b
}

// copyReveal copies the round's scoring.
func (g *Game) copyReveal() *Reveal {
	r := *g.reveal
	r.Numbers = append([]int(nil), r.Numbers...)
	r.Votes = append([]Verdict(nil), r.Votes...)
	r.TeamVotes = append([]Verdict(nil), r.TeamVotes...)
	r.Points = append([]int(nil), r.Points...)
	r.TeamPoints = append([]int(nil), r.TeamPoints...)
	return &r
}

// waiting lists the seats the current phase waits for.
func (g *Game) waiting() []int {
	out := []int{}
	switch g.phase {
	case PhasePlacement:
		for _, p := range g.players {
			if !g.locked[p] {
				out = append(out, p)
			}
		}
	case PhaseVoting:
		for _, p := range g.players {
			if g.votes[p] == nil {
				out = append(out, p)
			}
		}
	case PhaseTeamVote:
		for s, t := range g.teamOf {
			if t != g.active && !g.approve[s] {
				out = append(out, s)
			}
		}
	case PhaseScoring:
		for s, d := range g.done {
			if !d {
				out = append(out, s)
			}
		}
	}
	return out
}

// History implements rules.Historian.
func (g *Game) History(seat int) []string { return g.visibleLog(seat, len(g.log)) }

// visibleLog is the last n lines seat may see.
func (g *Game) visibleLog(seat, n int) []string {
	out := []string{}
	for _, e := range g.log {
		if (e.seat == -1 && e.team == -1) || (seat >= 0 && e.seat == seat) || (seat >= 0 && g.team && e.team == g.teamOf[seat]) {
			out = append(out, e.text)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

// prompt says what seat may do now, in plain words.
func (g *Game) prompt(seat int) string {
	if g.over {
		res, _ := g.Outcome()
		return fmt.Sprintf("Game over after %s: %s.", rules.Count(g.rounds, "round"), res.Summary)
	}
	active := seat >= 0 && g.playing(seat)
	other := teamName(1 - g.active)
	switch g.phase {
	case PhasePlacement:
		switch {
		case active && g.locked[seat]:
			return "Your token is locked; unlock it to move again, or wait for the others"
		case active:
			return fmt.Sprintf("Place your token for word %d, %q, then lock it", g.number[seat], g.words[g.number[seat]-1])
		case seat >= 0:
			return fmt.Sprintf("Team %s is placing its tokens: watch them move", teamName(g.active))
		}
		return "The players are placing their tokens"
	case PhaseVoting:
		switch {
		case active && g.votes[seat] != nil:
			return "You have voted; waiting for the others"
		case active:
			return "Vote on every other token, each number once: only the votes you send count"
		case seat >= 0:
			return fmt.Sprintf("Team %s is voting; your team's ballot comes next", teamName(g.active))
		}
		return "The players are voting"
	case PhaseTeamVote:
		switch {
		case seat >= 0 && g.teamOf[seat] != g.active && g.approve[seat]:
			return "You approved the team ballot; waiting for your team"
		case seat >= 0 && g.teamOf[seat] != g.active:
			return "Agree on one number per token; the ballot counts when all of you approve it"
		}
		return fmt.Sprintf("Team %s is agreeing on its ballot", other)
	case PhaseScoring:
		if seat >= 0 && !g.done[seat] {
			return "Round scores: continue when you are ready"
		}
		return "Waiting for the others to continue"
	}
	return ""
}
