package foresight

import (
	"fmt"
	"strings"
)

// Reveal is a scored round, public to everyone once all submissions are in (or time ran out).
type Reveal struct {
	Round    int              `json:"round"`
	Question string           `json:"question"`
	Choices  []string         `json:"choices"`
	Players  []RevealedPlayer `json:"players"` // by seat
}

// RevealedPlayer is one player's revealed submission and its result.
type RevealedPlayer struct {
	Seat        int                  `json:"seat"`
	Answer      int                  `json:"answer"`    // 0 when the player gave no answer in time
	TimedOut    bool                 `json:"timed_out"` // gave no answer: every prediction of them is wrong
	Predictions []RevealedPrediction `json:"predictions"`
	Change      int                  `json:"change"` // the round result, before the floor at 0
	Total       int                  `json:"total"`  // points after the round
}

// RevealedPrediction is one prediction of the player about an opponent and how its wagers went.
type RevealedPrediction struct {
	Seat     int  `json:"seat"`     // the opponent
	Choice   int  `json:"choice"`   // the predicted choice; 0 if the player timed out
	A        int  `json:"a"`        // column A wager
	B        int  `json:"b"`        // column B wager
	AResult  int  `json:"a_result"` // +A when the prediction matched the opponent's answer, else −A
	BResult  int  `json:"b_result"` // +B when the opponent predicted the player's answer, else −B
	Right    bool `json:"right"`    // this prediction matched the opponent's answer
	Foreseen bool `json:"foreseen"` // the opponent's prediction of the player matched the player's answer
}

// Score works out a round: subs holds each seat's submission, nil for a player who gave
// none in time (no answer, no wagers). It returns every player's revealed row with their
// new total, points never going below 0.
func Score(subs []*Submit, points []int) []RevealedPlayer {
	n := len(subs)
	rows := make([]RevealedPlayer, n)
	for p := range n {
		row := RevealedPlayer{Seat: p, TimedOut: subs[p] == nil}
		if subs[p] != nil {
			row.Answer = subs[p].Answer
		}
		for o := range n {
			if o == p {
				continue
			}
			rp := RevealedPrediction{Seat: o}
			mine, ok := subs[p].prediction(o)
			if ok {
				rp.Choice, rp.A, rp.B = mine.Choice, mine.A, mine.B
				// An opponent who gave no answer makes every prediction of them wrong.
				rp.Right = subs[o] != nil && mine.Choice == subs[o].Answer
				theirs, ok := subs[o].prediction(p)
				rp.Foreseen = ok && theirs.Choice == subs[p].Answer
				rp.AResult = signed(rp.A, rp.Right)
				rp.BResult = signed(rp.B, rp.Foreseen)
			}
			row.Change += rp.AResult + rp.BResult
			row.Predictions = append(row.Predictions, rp)
		}
		row.Total = max(points[p]+row.Change, 0)
		rows[p] = row
	}
	return rows
}

func signed(w int, won bool) int {
	if won {
		return w
	}
	return -w
}

// breakdown says in words how every player's wagers went in a scored round.
func (g *Game) breakdown(rows []RevealedPlayer) []string {
	out := make([]string, 0, len(rows))
	for _, row := range rows {
		if row.TimedOut {
			out = append(out, fmt.Sprintf("%s gave no answer in time: no wagers, %d.", g.names[row.Seat], row.Total))
			continue
		}
		var a, b []string
		for _, rp := range row.Predictions {
			if rp.A > 0 {
				a = append(a, fmt.Sprintf("%s %+d", g.names[rp.Seat], rp.AResult))
			}
			if rp.B > 0 {
				b = append(b, fmt.Sprintf("%s %+d", g.names[rp.Seat], rp.BResult))
			}
		}
		line := g.names[row.Seat] + ":"
		if len(a) > 0 {
			line += " A (own predictions) " + strings.Join(a, ", ") + ";"
		}
		if len(b) > 0 {
			line += " B (foreseen by) " + strings.Join(b, ", ") + ";"
		}
		if len(a)+len(b) == 0 {
			line += " no wagers;"
		}
		out = append(out, fmt.Sprintf("%s %+d → %d.", line, row.Change, row.Total))
	}
	return out
}
