package quadrant

import (
	"fmt"
	"strings"
	"time"

	"parlor/rules"
)

// TeamVoter is the Voter of a team ballot's verdicts.
const TeamVoter = -1

// Verdict is one revealed vote.
type Verdict struct {
	Voter  int  `json:"voter"`  // the voter's seat; TeamVoter for the team ballot
	Seat   int  `json:"seat"`   // the token's owner
	Number int  `json:"number"` // the number named
	Right  bool `json:"right"`  // it is the owner's secret number
}

// Reveal is the scoring of one round: every secret number and every vote.
type Reveal struct {
	Numbers    []int     `json:"numbers"`               // secret number per seat; 0 = no token this round
	Votes      []Verdict `json:"votes"`                 // every vote cast by the active players
	TeamVotes  []Verdict `json:"team_votes,omitempty"`  // team mode: the team ballot, when it was cast
	BallotCast bool      `json:"ballot_cast,omitempty"` // team mode: the inactive team cast its ballot
	Points     []int     `json:"points"`                // this round's points per seat (team mode: the team's)
	TeamPoints []int     `json:"team_points,omitempty"` // team mode: this round's points of team A and team B
}

// ScoreVotes scores a competitive round: for every vote that names the owner's secret
// number, the voter and the owner score 1 each. votes[voter][owner] is the number named
// (0 = no vote). It returns the points per seat and every vote cast, in seat order.
func ScoreVotes(numbers []int, votes [][]int) ([]int, []Verdict) {
	points := make([]int, len(numbers))
	var verdicts []Verdict
	for voter, row := range votes {
		for owner, n := range row {
			if n == 0 || owner == voter || owner >= len(numbers) {
				continue
			}
			right := numbers[owner] != 0 && n == numbers[owner]
			verdicts = append(verdicts, Verdict{Voter: voter, Seat: owner, Number: n, Right: right})
			if right {
				points[voter]++
				points[owner]++
			}
		}
	}
	return points, verdicts
}

// score reveals the round and adds its points, then pauses on the scores or ends the game.
func (g *Game) score(now time.Time) {
	points, verdicts := ScoreVotes(g.number, g.votes)
	r := &Reveal{Numbers: append([]int(nil), g.number...), Votes: verdicts, Points: make([]int, len(g.names))}
	if g.team {
		// The active team scores 1 per right vote of its members (not 2 as owner + voter).
		var active, inactive int
		for _, v := range verdicts {
			if v.Right {
				active++
			}
		}
		if g.cast {
			r.BallotCast = true
			for _, p := range g.players {
				right := g.ballot[p] == g.number[p]
				r.TeamVotes = append(r.TeamVotes, Verdict{Voter: TeamVoter, Seat: p, Number: g.ballot[p], Right: right})
				if right {
					inactive += 2
				}
			}
		}
		r.TeamPoints = make([]int, 2)
		r.TeamPoints[g.active], r.TeamPoints[1-g.active] = active, inactive
		g.teamScores[0] += r.TeamPoints[0]
		g.teamScores[1] += r.TeamPoints[1]
		for seat := range r.Points {
			r.Points[seat] = r.TeamPoints[g.teamOf[seat]]
		}
		g.addLog(-1, "Round %d: team %s +%d, team %s +%d", g.round, teamName(g.active), active, teamName(1-g.active), inactive)
	} else {
		copy(r.Points, points)
		for seat, p := range points {
			g.scores[seat] += p
		}
		s := ""
		for seat, p := range points {
			if seat > 0 {
				s += ", "
			}
			s += fmt.Sprintf("%s +%d", g.names[seat], p)
		}
		g.addLog(-1, "Round %d scores: %s", g.round, s)
	}
	g.reveal = r
	g.sheet.Add(g.round, g.sheetLabel(), r.Points, g.seatScores(), g.breakdown(r))
	if g.round >= g.rounds {
		g.over = true
		g.phase = PhaseOver
		g.deadline = time.Time{}
		// No log line with the result: the lobby announces it in the table's feed
		// ("Game over: …") and the prompt says it, so a line here would say it twice.
		return
	}
	g.setPhase(PhaseScoring, now, ScoringPause)
}

// sheetLabel names the round on the score sheet: the active team in team mode.
func (g *Game) sheetLabel() string {
	if g.team {
		return "team " + teamName(g.active) + " plays"
	}
	return ""
}

// breakdown says in words how every seat (team mode: each team) scored round r.
func (g *Game) breakdown(r *Reveal) []string {
	if g.team {
		right := 0
		for _, v := range r.Votes {
			if v.Right {
				right++
			}
		}
		out := []string{fmt.Sprintf("Team %s (active): %s, 1 point each = %d.", teamName(g.active), rules.Count(right, "right vote"), r.TeamPoints[g.active])}
		if !r.BallotCast {
			return append(out, fmt.Sprintf("Team %s cast no ballot in time: 0.", teamName(1-g.active)))
		}
		ballot := 0
		for _, v := range r.TeamVotes {
			if v.Right {
				ballot++
			}
		}
		return append(out, fmt.Sprintf("Team %s: %d right on its ballot, 2 points each = %d.", teamName(1-g.active), ballot, r.TeamPoints[1-g.active]))
	}
	var out []string
	for seat, name := range g.names {
		var guessedBy []string
		voted := 0
		for _, v := range r.Votes {
			if !v.Right {
				continue
			}
			if v.Seat == seat {
				guessedBy = append(guessedBy, g.names[v.Voter])
			}
			if v.Voter == seat {
				voted++
			}
		}
		owner := "nobody guessed their word"
		if len(guessedBy) > 0 {
			owner = fmt.Sprintf("%s guessed their word (+%d)", strings.Join(guessedBy, ", "), len(guessedBy))
		}
		out = append(out, fmt.Sprintf("%s: %s; %s (+%d) = %d.", name, owner, rules.Count(voted, "right vote"), voted, r.Points[seat]))
	}
	return out
}
