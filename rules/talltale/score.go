package talltale

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"parlor/rules"
)

// Hit is a token on one of the narrator's illustrations and what it scored.
type Hit struct {
	Seat   int `json:"seat"`
	Points int `json:"points"`
}

// Found is one of the narrator's illustrations with the tokens on it in arrival order.
type Found struct {
	Card Illustration `json:"card"`
	Hits []Hit        `json:"hits"`
}

// Reveal is the public end of a round: the narrator's illustrations, every token and
// the points.
type Reveal struct {
	Narrator      int      `json:"narrator"`
	TieBreak      bool     `json:"tie_break"`
	TimedOut      bool     `json:"timed_out"`          // no story in time: the others scored 2 each
	Story         string   `json:"story"`              // the story told, if any
	Kept          []Found  `json:"kept"`               // the narrator's 3 illustrations (none if they never chose)
	Tokens        []Placed `json:"tokens"`             // every token of the round, in arrival order
	Points        []int    `json:"points"`             // points of the round per seat, before the penalty
	FoundAll      []int    `json:"found_all"`          // seats with a token on all three
	NarratorScore int      `json:"narrator_score"`     // the narrator's points before the penalty
	NarratorRule  string   `json:"narrator_rule"`      // which narrator rule applied, in words
	Forbidden     string   `json:"forbidden,omitzero"` // the (first) forbidden word the story used
	// ForbiddenWords are every forbidden word the story used (the penalty is paid once).
	ForbiddenWords []string `json:"forbidden_words,omitempty"`
	Penalty        int      `json:"penalty"` // points taken from the narrator's total
}

// ForbiddenSaid names the forbidden words the story used: `the forbidden word "bus"`,
// `the forbidden words "submarine" and "bus"`.
func (r *Reveal) ForbiddenSaid() string {
	words := r.ForbiddenWords
	if len(words) == 0 && r.Forbidden != "" {
		words = []string{r.Forbidden}
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = strconv.Quote(w)
	}
	if len(quoted) == 1 {
		return "the forbidden word " + quoted[0]
	}
	return "the forbidden words " + rules.List(quoted)
}

// SpeedPoints are the points of the tokens on one illustration, in arrival order: a lone
// token scores 3; of two, the first 3 and the second 1; of three or more, the first 3,
// the last 1 and every other 2.
func SpeedPoints(tokens int) []int {
	out := make([]int, tokens)
	for i := range out {
		switch {
		case i == 0:
			out[i] = 3
		case i == tokens-1:
			out[i] = 1
		default:
			out[i] = 2
		}
	}
	return out
}

// NarratorPoints is the narrator's score from the best other player's points and how
// many players found all three illustrations, with the rule that applied.
func NarratorPoints(best, foundAll int) (int, string) {
	switch {
	case foundAll == 2:
		return (best + 1) / 2, fmt.Sprintf("exactly two found all three, so half of %d, rounded up", best)
	case foundAll > 2:
		return 0, fmt.Sprintf("%d players found all three, so nothing", foundAll)
	}
	return best, fmt.Sprintf("as many as the round's best player (%d)", best)
}

// endRound scores the round (or the narrator's timeout) and starts the reveal.
func (g *Game) endRound(now time.Time, timedOut bool) {
	r := &Reveal{
		Narrator: g.narrator,
		TieBreak: g.tieBreak,
		TimedOut: timedOut,
		Story:    g.story,
		Tokens:   slices.Clone(g.tokens),
		Points:   make([]int, len(g.names)),
		FoundAll: []int{},
	}
	for _, c := range g.kept {
		f := Found{Card: g.deck[c].clone(), Hits: []Hit{}}
		var seats []int
		for _, t := range g.tokens {
			if t.Card == c {
				seats = append(seats, t.Seat)
			}
		}
		for i, p := range SpeedPoints(len(seats)) {
			f.Hits = append(f.Hits, Hit{Seat: seats[i], Points: p})
			r.Points[seats[i]] += p
		}
		r.Kept = append(r.Kept, f)
	}
	narratorScores := !g.tieBreak || slices.Contains(g.tied, g.narrator)
	if timedOut {
		for _, s := range g.racers {
			r.Points[s] = TimeoutScore
		}
		r.NarratorRule = fmt.Sprintf("no story in time: everyone else scores %d", TimeoutScore)
		g.addLog(-1, "Time is up: %s told no story, everyone else scores %d.", g.names[g.narrator], TimeoutScore)
	} else {
		best := 0
		for _, s := range g.racers {
			best = max(best, r.Points[s])
			if g.hitsOf(s) == Kept {
				r.FoundAll = append(r.FoundAll, s)
			}
		}
		r.NarratorScore, r.NarratorRule = NarratorPoints(best, len(r.FoundAll))
		if !narratorScores {
			r.NarratorScore, r.NarratorRule = 0, "a tie-break narrator outside the tie scores nothing"
		}
		r.Points[g.narrator] = r.NarratorScore
		if len(g.forbidden) > 0 && narratorScores {
			r.Forbidden, r.ForbiddenWords = g.forbidden[0], slices.Clone(g.forbidden)
			r.Penalty = Penalty
		}
		g.addLog(-1, "The illustrations were %s.", g.cardList(g.kept))
		g.addLog(-1, "%s", g.pointsLine(r))
	}
	for s, p := range r.Points {
		g.scores[s] += p
	}
	if r.Penalty > 0 {
		// No score goes below 0: the penalty takes at most what the narrator has.
		r.Penalty = min(r.Penalty, g.scores[g.narrator])
		g.scores[g.narrator] -= r.Penalty
		g.addLog(-1, "%s said %s: -%d.", g.names[g.narrator], r.ForbiddenSaid(), r.Penalty)
	}
	g.record(r)
	g.reveal = r
	g.phase = PhaseReveal
	g.deadline = now.Add(RevealTime)
}

// pointsLine says what the round scored, for the log: the reveal that shows it goes after
// a few seconds, and a player who looked away must still learn why their score moved.
func (g *Game) pointsLine(r *Reveal) string {
	var racers []string
	for _, s := range g.racers {
		if r.Points[s] > 0 {
			racers = append(racers, fmt.Sprintf("%s +%d", g.names[s], r.Points[s]))
		}
	}
	line := "Points: no racer scored"
	if len(racers) > 0 {
		line = "Points: " + strings.Join(racers, ", ")
	}
	return fmt.Sprintf("%s; %s, narrating, +%d: %s.", line, g.names[g.narrator], r.NarratorScore, r.NarratorRule)
}

// hitsOf counts a racer's tokens on the narrator's illustrations.
func (g *Game) hitsOf(seat int) int {
	n := 0
	for _, t := range g.tokens {
		if t.Seat == seat && slices.Contains(g.kept, t.Card) {
			n++
		}
	}
	return n
}

// next follows the reveal: the next narrator, a tie-break, or the end.
func (g *Game) next(now time.Time) {
	if !g.tieBreak && g.round < g.rounds {
		n := (g.first + g.round) % len(g.names)
		g.startRound(now, n, g.othersThan(n))
		return
	}
	leaders := g.leaders()
	if len(leaders) == 1 || (g.tieBreak && slices.Equal(leaders, g.tied)) {
		g.finish(leaders)
		return
	}
	g.tieBreak = true
	g.tied = leaders
	var outside []int
	for s := range g.names {
		if !slices.Contains(leaders, s) {
			outside = append(outside, s)
		}
	}
	if len(outside) > 0 {
		g.startRound(now, outside[g.rng.IntN(len(outside))], slices.Clone(leaders))
		return
	}
	n := leaders[g.rng.IntN(len(leaders))]
	g.startRound(now, n, g.othersThan(n))
}

func (g *Game) leaders() []int {
	best := slices.Max(g.scores)
	var out []int
	for s, v := range g.scores {
		if v == best {
			out = append(out, s)
		}
	}
	return out
}

func (g *Game) finish(winners []int) {
	g.over = true
	g.phase = PhaseOver
	g.deadline = time.Time{}
	g.winners = winners
	best := g.scores[winners[0]]
	if len(winners) == 1 {
		g.summary = fmt.Sprintf("%s wins with %d points", g.names[winners[0]], best)
	} else {
		g.summary = fmt.Sprintf("%s share the victory with %d points", g.nameList(winners), best)
	}
	g.addLog(-1, "%s.", g.summary)
}

// record adds the round to the score sheet: the points after the penalty, and how each
// player scored them.
func (g *Game) record(r *Reveal) {
	net := slices.Clone(r.Points)
	net[r.Narrator] -= r.Penalty
	label := g.names[r.Narrator] + " narrates"
	if r.TieBreak {
		label += " (tie-break)"
	}
	var lines []string
	if r.TimedOut {
		lines = append(lines, fmt.Sprintf("%s told no story in time: everyone else scores %d.", g.names[r.Narrator], TimeoutScore))
	} else {
		for _, s := range g.racers {
			var hits []string
			for _, k := range r.Kept {
				for _, h := range k.Hits {
					if h.Seat == s {
						hits = append(hits, fmt.Sprintf("%s +%d", k.Card.Name, h.Points))
					}
				}
			}
			why := "no token on the narrator's illustrations"
			if len(hits) > 0 {
				why = strings.Join(hits, ", ")
			}
			lines = append(lines, fmt.Sprintf("%s: %s = %d.", g.names[s], why, r.Points[s]))
		}
		line := fmt.Sprintf("%s (narrator): %s = %d", g.names[r.Narrator], r.NarratorRule, r.NarratorScore)
		if r.Penalty > 0 {
			line += fmt.Sprintf(", -%d for %s", r.Penalty, r.ForbiddenSaid())
		}
		lines = append(lines, line+".")
	}
	g.sheet.Add(g.round, label, net, g.scores, lines)
}
