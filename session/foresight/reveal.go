package foresight

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
	fs "parlor/rules/foresight"
	"parlor/session/gameui"
)

// signed shows a wager's result with + when it was won and − when lost; a wager of 0
// neither wins nor loses, and shows as 0 ("-0" read like a loss).
func signed(w int, won bool) string {
	if !won {
		w = -w
	}
	return points(w)
}

// points shows a change of points with its sign, and 0 without one.
func points(n int) string {
	if n == 0 {
		return "0"
	}
	return fmt.Sprintf("%+d", n)
}

// revealTable draws the last scored round: per player their answer, then under each
// opponent the prediction of them with the column A result, and on a second line the
// column B result; then the round result and the new total.
func (s *Screen) revealTable(f gameui.Frame) []string {
	r := s.v.Reveal
	if r == nil {
		return []string{"No results yet."}
	}
	nameW, cw := s.revealWidths(f)
	leftW := markW + nameW + ansW

	title := fmt.Sprintf("Round %d results: %s", r.Round, r.Question)
	lines := []string{paint(f, bold, gameui.Fit(title, f.Width))}
	head := gameui.Fit("Player", markW+nameW) + gameui.Fit("Ans", ansW)
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
		one := mark + s.seatName(f, p.Seat, nameW) + gameui.Fit(" "+ans, ansW)
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
		one += fmt.Sprintf("%*s%*d", resW, points(p.Change), totW, p.Total)
		lines = append(lines, one, two)
	}
	// Under the table, as room allows, in this order of need: the answers by number (the
	// cells cannot be read without them), how to read a cell, the winner (the prompt says
	// the game is over, and tab shows the standings), a second line for long answers.
	room := f.Height - len(lines)
	over, explain, keyLines := s.v.Over && room >= 3, room >= 2, 1
	if over && room >= 4 || !s.v.Over && room >= 3 {
		keyLines = 2
	}
	if over {
		lines = append(lines, paint(f, bold, s.overLine()))
	}
	if explain {
		how := "Each cell: the guess and its column A wager; below, column B (+ won, - lost)."
		if slices.ContainsFunc(r.Players, func(p fs.RevealedPlayer) bool { return p.TimedOut }) {
			how = "Cells: guess, A wager; below, B wager (+ won, - lost). — : no answer in time."
		}
		lines = append(lines, paint(f, faint, gameui.Fit(how, f.Width)))
	}
	if room >= 1 {
		lines = append(lines, s.answerKey(r, f.Width, keyLines)...)
	}
	return lines
}

// Widths of the round's table: the viewer's mark, the answer, the round result and the
// total; the names (NameMax in session/name.go) and the cells vary with the room.
const markW, ansW, resW, totW, nameMax = 2, 4, 6, 5, 16

// revealWidths shares the width of the round's table between the names of its rows and
// its cells (a prediction and a wager, 6 wide at most, under an opponent's name): the
// cells first at 7 to 12 wide, as the players allow; then the names as wide as the widest
// (with its away mark) but at least 6, the cells giving up room for them down to 9; what
// is left widens the cells, whose headers are names too, to a whole name.
func (s *Screen) revealWidths(f gameui.Frame) (nameW, cw int) {
	players := s.v.Reveal.Players
	n := max(len(players), 1)
	fixed := markW + ansW + resW + totW
	want := 6
	for _, p := range players {
		want = max(want, rules.Width(name(s.v.Names, p.Seat)+gameui.AwayMark(f, p.Seat)))
	}
	cells := min(max((f.Width-fixed-6)/n, 7), 12)
	cw = min(max((f.Width-fixed-want)/n, min(cells, 9)), nameMax+1)
	nameW = min(max(f.Width-fixed-n*cw, 6), want)
	return nameW, cw
}

// answerKey lists the round's answers by number in at most maxLines lines of w cells:
// whole if they fit, else each cut to an equal share of the lines, so that every number
// shows with the start of its answer.
func (s *Screen) answerKey(r *fs.Reveal, w, maxLines int) []string {
	parts := make([]string, len(r.Choices))
	for i, c := range r.Choices {
		parts[i] = fmt.Sprintf("%d %s", i+1, c)
	}
	const sep = " · "
	var out []string
	line := ""
	for _, p := range parts {
		switch {
		case line == "":
			line = p
		case rules.Width(line+sep+p) <= w:
			line += sep + p
		default:
			out, line = append(out, line), p
		}
	}
	out = append(out, line)
	if len(out) <= maxLines && fits(out, w) {
		return out
	}
	per := (len(parts) + maxLines - 1) / maxLines // answers a line
	share := max((w-(per-1)*rules.Width(sep))/per, 2)
	out = nil
	for i := 0; i < len(parts); i += per {
		cut := make([]string, 0, per)
		for _, p := range parts[i:min(i+per, len(parts))] {
			cut = append(cut, ansi.Truncate(p, share, "…"))
		}
		out = append(out, gameui.Fit(strings.Join(cut, sep), w))
	}
	return out
}

// fits reports whether every line is at most w cells wide.
func fits(lines []string, w int) bool {
	for _, l := range lines {
		if rules.Width(l) > w {
			return false
		}
	}
	return true
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
	return fmt.Sprintf("Game over: %s share the victory with %d points!", rules.List(names), best)
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
