// Package quadrant is the engine of Quadrant, a word-placement guessing game: each player
// secretly holds one of the round's numbered words and places a token on a two-criteria
// plane so that the others can tell which word it is. See docs/games/quadrant.md.
package quadrant

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"parlor/rules"
)

// The playable grid of the plane; the reference word sits at (0, 0).
const (
	MinX, MaxX = -20, 20
	MinY, MaxY = -10, 10
)

// Phases of a round, the Header.Phase values.
const (
	PhasePlacement = "placement" // the active players move and lock their tokens
	PhaseVoting    = "voting"    // the active players cast their hidden votes
	PhaseTeamVote  = "team_vote" // team mode: the inactive team agrees on one ballot
	PhaseScoring   = "scoring"   // numbers and votes are revealed
	PhaseOver      = "over"      // the game has ended
)

// NoSeat stands for nobody, e.g. on a ballot line nobody has written.
const NoSeat = -1

// Point is a cell of the plane.
type Point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// OnBoard reports whether p lies on the playable grid.
func (p Point) OnBoard() bool { return p.X >= MinX && p.X <= MaxX && p.Y >= MinY && p.Y <= MaxY }

// Game is one game of Quadrant. Per-seat slices are indexed by seat.
type Game struct {
	team       bool
	names      []string
	rng        *rand.Rand
	decks      Decks // shuffled; cards are drawn from the front
	nextWord   int
	nextCrit   int
	placeLimit time.Duration
	voteLimit  time.Duration

	rounds   int
	round    int
	phase    string
	deadline time.Time   // the scoring pause's end; the timed phases' are clock's
	clock    rules.Timer // the placing or voting time; each seat's own deadline is its Pace's
	over     bool

	teamOf  []int    // team mode: 0 or 1 per seat
	active  int      // team mode: the active team this round
	players []int    // the active seats this round, in seat order
	words   []string // the round's words; words[k-1] has number k
	ref     string
	horiz   string
	vert    string
	number  []int   // secret number per seat; 0 when not playing this round
	pos     []Point // token per seat
	locked  []bool  // token locked, per seat
	votes   [][]int // votes[voter][owner] = number, 0 = none; nil row = has not voted
	ballot  []int   // team ballot: number per seat (active seats only), 0 = empty
	// ballotBy is who wrote each ballot line last (NoSeat: nobody); edited marks lines a
	// person edited (suggestions may not touch them), suggested lines holding a suggestion.
	ballotBy  []int
	edited    []bool
	suggested []bool
	rev       int       // team ballot revision, bumped on every change
	changedAt time.Time // when the team ballot last changed or opened
	approve   []bool    // team ballot approvals per seat
	cast      bool      // the team ballot was cast
	done      []bool    // continued past the scoring screen, per seat

	scores     []int // competitive: per seat
	teamScores [2]int
	sheet      rules.Sheet
	reveal     *Reveal
	log        []entry
	standIn    rules.StandInFlag // the action being applied is a bot's for the seat's absent player (ApplyStandIn)
	rules.Pace
}

// entry is one log line: public when seat and team are both -1, otherwise seen only by
// that seat or by the members of that team.
type entry struct {
	seat int
	team int
	text string
}

// New starts a game from its setup.
func New(s rules.Setup) (*Game, error) {
	n := len(s.Names)
	team := s.Options[OptMode] == ModeTeam
	if mode := s.Options[OptMode]; mode != "" && mode != ModeTeam && mode != ModeCompetitive {
		return nil, fmt.Errorf("%w: quadrant has no mode %q", rules.ErrBadOption, mode)
	}
	min, max := players(s.Options)
	if n < min || n > max {
		mode := ModeCompetitive
		if team {
			mode = ModeTeam
		}
		return nil, fmt.Errorf("quadrant: %s mode needs %d to %d players, not %d", mode, min, max, n)
	}
	decks, err := ParseDecks(s.Content)
	if err != nil {
		return nil, err
	}
	g := &Game{
		team: team,
		rng:  rand.New(rand.NewPCG(s.Seed, s.Seed^0x9e3779b97f4a7c15)),
		decks: Decks{Words: append([]string(nil), decks.Words...), Criteria: append([]string(nil), decks.Criteria...),
			OwnWords: decks.OwnWords, OwnCriteria: decks.OwnCriteria},
		placeLimit: rules.OptionDuration(s.Options[OptPlacement]),
		voteLimit:  rules.OptionDuration(s.Options[OptVoting]),
		rounds:     CompetitiveRounds,
		teamOf:     make([]int, n),
		scores:     make([]int, n),
		sheet:      rules.NewSheet(n, 0),
	}
	maxN := n
	if team {
		g.rounds = TeamRounds
		maxN = (n + 1) / 2
		for seat := range g.teamOf {
			g.teamOf[seat] = teamOfSeat(seat)
		}
	}
	if need := g.rounds * (maxN + 1); len(g.decks.Words) < need {
		return nil, fmt.Errorf("%w: %w", ErrContent, rules.SmallDeck("%d words, and this game of %d players needs %d", len(g.decks.Words), n, need))
	}
	if need := g.rounds * 2; len(g.decks.Criteria) < need {
		return nil, fmt.Errorf("%w: %w", ErrContent, rules.SmallDeck("%d criteria, and this game needs %d", len(g.decks.Criteria), need))
	}
	g.names = append(g.names, s.Names...) // sanitised by the lobby, like every player text
	// A mixed pack's cards come first.
	rules.Shuffle(g.rng, g.decks.Words, g.decks.OwnWords)
	rules.Shuffle(g.rng, g.decks.Criteria, g.decks.OwnCriteria)
	g.startRound(s.Now)
	return g, nil
}

// ApplyStandIn implements rules.StandIns: the seat's own log lines speak of the bot.
func (g *Game) ApplyStandIn(seat int, raw json.RawMessage, now time.Time) error {
	return g.standIn.During(func() error { return g.Apply(seat, raw, now) })
}

// Apply performs one action of seat, after the deadlines up to now. On error the game is
// otherwise unchanged.
func (g *Game) Apply(seat int, raw json.RawMessage, now time.Time) error {
	typ, err := rules.Preamble(g, seat, len(g.names), raw, now)
	if err != nil {
		return err
	}
	switch typ {
	case TypeMove:
		return g.move(seat, raw, now)
	case TypeLock:
		return g.lock(seat, raw, now)
	case TypeUnlock:
		return g.unlock(seat, raw, now)
	case TypeVote:
		return g.vote(seat, raw, now)
	case TypeBallotSet:
		return g.ballotSet(seat, raw, now)
	case TypeApprove:
		return g.approveBallot(seat, raw, now)
	case TypeUnapprove:
		return g.unapproveBallot(seat, raw)
	case TypeContinue:
		return g.continueRound(seat, raw, now)
	}
	return rules.UnknownAction(typ, TypeMove, TypeLock, TypeUnlock, TypeVote, TypeBallotSet, TypeApprove, TypeUnapprove, TypeContinue)
}

// Outcome reports the result once the game is over.
func (g *Game) Outcome() (rules.Result, bool) {
	if !g.over {
		return rules.Result{}, false
	}
	scores := g.seatScores()
	best := 0
	for _, s := range scores {
		best = max(best, s)
	}
	var winners []int
	for seat, s := range scores {
		if s == best {
			winners = append(winners, seat)
		}
	}
	return rules.Result{Scores: scores, Winners: winners, Summary: g.summary(winners, best)}, true
}

// summary is the one-line result.
func (g *Game) summary(winners []int, best int) string {
	if g.team {
		switch {
		case g.teamScores[0] == g.teamScores[1]:
			return fmt.Sprintf("The teams tie with %s each", rules.Count(best, "point"))
		default:
			return fmt.Sprintf("Team %s wins %d to %d", teamName(g.teamOf[winners[0]]), best, min(g.teamScores[0], g.teamScores[1]))
		}
	}
	names := make([]string, len(winners))
	for i, w := range winners {
		names[i] = g.names[w]
	}
	if len(names) == 1 {
		return fmt.Sprintf("%s wins with %s", names[0], rules.Count(best, "point"))
	}
	return fmt.Sprintf("%s share the win with %s", rules.List(names), rules.Count(best, "point"))
}

// teamName names a team for players.
// teamOfSeat is a seat's team: teams sit alternately, even seats (A) and odd seats (B).
func teamOfSeat(seat int) int { return seat % 2 }

func teamName(t int) string {
	if t == 0 {
		return "A"
	}
	return "B"
}

// seatScores is the total score per seat; in team mode each member carries the team's.
func (g *Game) seatScores() []int {
	out := make([]int, len(g.names))
	for seat := range out {
		if g.team {
			out[seat] = g.teamScores[g.teamOf[seat]]
		} else {
			out[seat] = g.scores[seat]
		}
	}
	return out
}

// addLog adds a public line (seat -1) or a line only seat sees, keeping the last 60.
func (g *Game) addLog(seat int, format string, args ...any) {
	text := g.standIn.Own(seat, fmt.Sprintf(format, args...))
	g.appendLog(entry{seat: seat, team: -1, text: text})
}

// teamLog adds a line only the members of team see.
func (g *Game) teamLog(team int, format string, args ...any) {
	g.appendLog(entry{seat: -1, team: team, text: fmt.Sprintf(format, args...)})
}

// appendLog keeps the last 60 lines.
func (g *Game) appendLog(e entry) {
	g.log = append(g.log, e)
	if len(g.log) > 60 {
		g.log = append([]entry(nil), g.log[len(g.log)-60:]...)
	}
}

// playing reports whether seat has a token this round.
func (g *Game) playing(seat int) bool { return g.number[seat] != 0 }
