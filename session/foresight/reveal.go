package foresight

import (
	"fmt"
	"strings"

	fs "parlor/rules/foresight"
	"parlor/session/gameui"
)

// signed shows a wager's result with + when it was won and − when lost, even for 0.
func signed(w int, won bool) string {
	if won {
		return fmt.Sprintf("+%d", w)
	}
	return fmt.Sprintf("-%d", w)
}

// revealTable draws the last scored round: per player their answer, then under each
// opponent the prediction of them with the column A result, and on a second line the
// column B result; then the round result and the new total.
func (s *Screen) revealTable(f gameui.Frame) []string {
	r := s.v.Reveal
	if r == nil {
		return []string{"No results yet."}
	}
	n := len(r.Players)
	const leftW, resW, totW = 12, 6, 5
	cw := min(max((f.Width-leftW-resW-totW)/max(n, 1), 7), 12)

	title := fmt.Sprintf("Round %d results: %s", r.Round, r.Question)
	lines := []string{paint(f, bold, gameui.Fit(title, f.Width))}
	head := gameui.Fit("Player  Ans", leftW)
	for _, p := range r.Players {
		head += s.seatName(f, p.Seat, cw-1) + " "
	}
	head += fmt.Sprintf("%*s%*s", resW, "Round", totW, "Pts")
	lines = append(lines, head)

	for _, p := range r.Players {
		mark := "  "
		if p.Seat == s.seat {
			mark = "▸ "
		}
		ans := "—"
		if p.Answer > 0 {
			ans = fmt.Sprint(p.Answer)
		}
		one := mark + s.seatName(f, p.Seat, leftW-6) + gameui.Fit(" "+ans, 4)
		two := strings.Repeat(" ", leftW)
		for _, o := range r.Players {
			if o.Seat == p.Seat {
				one += gameui.Fit("  ·", cw)
				two += gameui.Fit("  ·", cw)
				continue
			}
			pr, ok := predictionOf(p, o.Seat)
			switch {
			case p.TimedOut || !ok:
				one += gameui.Fit(" —", cw)
				two += gameui.Fit("", cw)
			default:
				one += gameui.Fit(fmt.Sprintf("%d %s", pr.Choice, signed(pr.A, pr.Right)), cw)
				two += gameui.Fit("B "+signed(pr.B, pr.Foreseen), cw)
			}
		}
		one += fmt.Sprintf("%*s%*d", resW, fmt.Sprintf("%+d", p.Change), totW, p.Total)
		lines = append(lines, one, two)
	}
	extra := []string{
		paint(f, faint, "Each cell: the guess and its column A wager; below, column B (+ won, - lost)."),
		s.answerKey(r, f.Width),
	}
	if s.v.Over {
		extra = append([]string{paint(f, bold, s.overLine())}, extra...)
	}
	for _, e := range extra {
		if len(lines) < f.Height {
			lines = append(lines, e)
		}
	}
	return lines
}

// answerKey lists the round's answers by number on one line.
func (s *Screen) answerKey(r *fs.Reveal, w int) string {
	parts := make([]string, len(r.Choices))
	for i, c := range r.Choices {
		parts[i] = fmt.Sprintf("%d %s", i+1, c)
	}
	return gameui.Fit(strings.Join(parts, " · "), w)
}

func predictionOf(p fs.RevealedPlayer, seat int) (fs.RevealedPrediction, bool) {
	for _, pr := range p.Predictions {
		if pr.Seat == seat {
			return pr, true
		}
	}
	return fs.RevealedPrediction{}, false
}

// overLine names the winner(s).
func (s *Screen) overLine() string {
	var names []string
	for _, w := range s.v.Winners {
		names = append(names, name(s.v.Names, w))
	}
	best := 0
	if len(s.v.Winners) > 0 && s.v.Winners[0] < len(s.v.Scores) {
		best = s.v.Scores[s.v.Winners[0]]
	}
	switch len(names) {
	case 0:
		return "Game over."
	case 1:
		return fmt.Sprintf("Game over: %s wins with %d points!", names[0], best)
	}
	return fmt.Sprintf("Game over: %s share the victory with %d points!", strings.Join(names, " and "), best)
}

// results are the end of the game: the winner(s), then the score sheet with the last
// round's breakdown.
func (s *Screen) results(f gameui.Frame) []string {
	lines := []string{paint(f, bold, s.overLine()), ""}
	var hint []string
	if s.v.Reveal != nil {
		hint = []string{"", paint(f, faint, fmt.Sprintf("Press tab to see round %d's answers, predictions and wagers.", s.v.Reveal.Round))}
	}
	lines = append(lines, gameui.Sheet(s.v.Sheet, s.v.Names, f.Width, f.Height-len(lines)-len(hint), f.Plain)...)
	return append(lines, hint...)
}
