package topfive

import (
	"fmt"

	"parlor/rules"
)

// Tally is a round's scores, shown once the reveal is done.
type Tally struct {
	Forfeit bool   `json:"forfeit"`         // the Player of Honour (in duo: a player) was late; no one scored
	Joint   int    `json:"joint,omitempty"` // duo: topics both players ranked the same
	Lines   []Line `json:"lines"`           // one per seat, in seat order
}

// Line is one seat's score for a round.
type Line struct {
	Seat      int    `json:"seat"`
	Role      string `json:"role"`      // RoleHonour, RoleGuesser or RoleDuo
	Submitted bool   `json:"submitted"` // false: ran out of time
	Right     int    `json:"right"`     // Guesser: right guesses; duo: matches
	Marker    int    `json:"marker"`    // Guesser: 1 if the marker was on a right guess
	Perfect   int    `json:"perfect"`   // Guesser: 1 if all five were right
	Points    int    `json:"points"`    // what this seat scored this round
}

// Roles a seat can have in a round.
const (
	RoleHonour    = "honour"    // the Player of Honour
	RoleGuesser   = "guesser"   // guesses the Player of Honour's ranking
	RoleDuo       = "duo"       // duo: ranks by their own taste
	RoleSpectator = "spectator" // watches
)

// scoreGuess scores one Guesser's ranking against the Player of Honour's: 1 per right rank,
// 1 more if the marker is on a right one, 1 more if all are right.
func scoreGuess(honour, guess ranking) Line {
	l := Line{Role: RoleGuesser, Submitted: true}
	for i := range honour.ranks {
		if guess.ranks[i] == honour.ranks[i] {
			l.Right++
			if guess.marker == i {
				l.Marker = 1
			}
		}
	}
	if l.Right == Hand {
		l.Perfect = 1
	}
	l.Points = l.Right + l.Marker + l.Perfect
	return l
}

// ScoreGuess scores a Guesser's ranking against the Player of Honour's, as a round's
// tally does: ranks are indexed by topic, marker is the topic carrying the Guesser's
// marker. The Line has no seat; it is for anyone checking a revealed round.
func ScoreGuess(honour, guess [Hand]int, marker int) Line {
	return scoreGuess(ranking{ranks: honour}, ranking{ranks: guess, marker: marker})
}

// matches counts the topics two rankings gave the same rank.
func matches(a, b ranking) int {
	n := 0
	for i := range a.ranks {
		if a.ranks[i] == b.ranks[i] {
			n++
		}
	}
	return n
}

// score tallies the round just revealed. The Player of Honour scores as the best Guesser.
func (g *Game) score() Tally {
	t := Tally{Lines: g.emptyLines()}
	if g.duo {
		t.Joint = matches(*g.secret[0], *g.secret[1])
		for i := range t.Lines {
			t.Lines[i].Submitted, t.Lines[i].Right, t.Lines[i].Points = true, t.Joint, t.Joint
		}
		return t
	}
	best := 0
	for s, r := range g.secret {
		if s == g.honour || r == nil {
			continue
		}
		l := scoreGuess(*g.secret[g.honour], *r)
		l.Seat = s
		t.Lines[s] = l
		best = max(best, l.Points)
	}
	t.Lines[g.honour].Submitted = true
	t.Lines[g.honour].Points = best
	return t
}

// emptyLines is a zero score for every seat, with roles filled in.
func (g *Game) emptyLines() []Line {
	out := make([]Line, len(g.names))
	for s := range out {
		out[s] = Line{Seat: s, Role: g.role(s), Submitted: g.secret[s] != nil}
	}
	return out
}

// role is what seat does this round.
func (g *Game) role(seat int) string {
	switch {
	case seat < 0 || seat >= len(g.names):
		return RoleSpectator
	case g.duo:
		return RoleDuo
	case seat == g.honour:
		return RoleHonour
	}
	return RoleGuesser
}

// winners are the seats with the highest total; ties share the victory.
func (g *Game) winners() []int {
	best := 0
	for _, t := range g.totals {
		best = max(best, t)
	}
	var out []int
	for s, t := range g.totals {
		if t == best {
			out = append(out, s)
		}
	}
	return out
}

func (g *Game) result() rules.Result {
	r := rules.Result{Scores: append([]int(nil), g.totals...), Winners: g.winners()}
	if g.duo {
		// A duo scores together: nobody wins, so stats count the game as played, not won.
		r.Winners = []int{}
		// Everyone reads the summary, spectators and the lobby's log too: name the pair.
		r.Summary = fmt.Sprintf("Together %s scored %d of %d", rules.List(g.names), g.totals[0], DuoRounds*Hand)
		return r
	}
	var names []string
	for _, s := range r.Winners {
		names = append(names, g.names[s])
	}
	best := g.totals[r.Winners[0]]
	if len(names) == 1 {
		r.Summary = fmt.Sprintf("%s wins with %d points", names[0], best)
	} else {
		r.Summary = fmt.Sprintf("%s share the win with %d points", rules.List(names), best)
	}
	return r
}

// addSheetRow records the round just tallied on the score sheet, with its breakdown.
func (g *Game) addSheetRow() {
	points := make([]int, len(g.names))
	for _, l := range g.tally.Lines {
		points[l.Seat] = l.Points
	}
	label := g.names[max(g.honour, 0)] + " ranks"
	if g.duo {
		label = "duo"
	}
	g.sheet.Add(g.round, label, points, g.totals, g.breakdown())
}

// breakdown says in words how every seat scored the round just tallied.
func (g *Game) breakdown() []string {
	t := g.tally
	if t.Forfeit {
		return []string{fmt.Sprintf("Round %d was forfeited: no ranking came from %s in time, so no one scored.", g.round, g.lateNames())}
	}
	if g.duo {
		return []string{fmt.Sprintf("Together %s and %s gave %d of %d topics the same rank: %s to their joint score.", g.names[0], g.names[1], t.Joint, Hand, rules.Count(t.Joint, "point"))}
	}
	var out []string
	for _, l := range t.Lines {
		name := g.names[l.Seat]
		switch {
		case l.Role == RoleHonour:
			out = append(out, fmt.Sprintf("%s, the Player of Honour, scores as the best Guesser: %d.", name, l.Points))
		case !l.Submitted:
			out = append(out, fmt.Sprintf("%s ran out of time: 0.", name))
		default:
			why := rules.Count(l.Right, "right rank")
			if l.Marker > 0 {
				why += ", +1 for the marker"
			} else {
				why += ", marker on a wrong one"
			}
			if l.Perfect > 0 {
				why += ", +1 perfect bonus"
			}
			out = append(out, fmt.Sprintf("%s: %s = %d.", name, why, l.Points))
		}
	}
	return out
}

// lateNames names the players whose ranking is missing, for a forfeited round.
func (g *Game) lateNames() string {
	var names []string
	for _, s := range g.missing() {
		names = append(names, g.names[s])
	}
	return rules.List(names)
}
