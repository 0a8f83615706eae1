package gameui

import (
	"cmp"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
)

// sheetLabelWidth is the width of the round column of a drawn score sheet.
const sheetLabelWidth = 18

var sheetTotal = lipgloss.NewStyle().Bold(true)

// Sheet draws a game's score sheet for a game-over screen: a row per round, a column per
// seat, the totals, then the last round's breakdown, in at most width × height cells.
// When the rounds do not all fit, the oldest are left out (a line says so); the JSON
// view always has them all.
func Sheet(s rules.Sheet, names []string, width, height int, plain bool) []string {
	p := Painter{Plain: plain}
	n := len(s.Totals)
	if n == 0 || width <= sheetLabelWidth || height < 4 {
		return nil
	}
	cw := min(max((width-sheetLabelWidth)/n, 3), 9)
	// The round column takes what the seats' columns leave, up to its longest label
	// ("14 Bartholomew Jone narrates").
	labelW := sheetLabelWidth
	for _, r := range s.Rows {
		labelW = max(labelW, rules.Width(fmt.Sprintf("%2d %s", r.Round, r.Label))+1)
	}
	labelW = max(sheetLabelWidth, min(labelW, width-n*cw))
	cell := func(text string) string { return fmt.Sprintf("%*s", cw, ansi.Truncate(text, cw-1, "…")) }
	row := func(label string, cells []string) string {
		return Fit(Fit(label, labelW)+strings.Join(cells, ""), width)
	}
	heads := make([]string, n)
	for seat := range heads {
		name := "?"
		if seat < len(names) {
			name = names[seat]
		}
		heads[seat] = p.Paint(SeatStyle(seat), cell(name))
	}
	word := cmp.Or(s.Word, "round")
	var last []string
	if len(s.Last) > 0 {
		last = append(last, "Last "+word+":")
		for _, l := range s.Last {
			for i, part := range Wrap(l, width-4) {
				indent := "  "
				if i > 0 {
					indent = "    "
				}
				last = append(last, indent+part)
			}
		}
	}
	// Rounds get what the breakdown leaves, but at least two lines; the breakdown is cut
	// to what remains.
	room := height - 2
	rows := min(len(s.Rows), max(room-len(last), min(2, len(s.Rows))))
	skipped := len(s.Rows) - rows
	if skipped > 0 && rows > 1 {
		skipped++ // the line saying so takes a round's place
	}
	out := []string{row("Score sheet", heads)}
	if skipped > 0 {
		out = append(out, Fit(fmt.Sprintf("  (%ss 1–%d not shown: v shows the log)", word, s.Rows[skipped-1].Round), width))
	}
	for _, r := range s.Rows[skipped:] {
		cells := make([]string, n)
		for seat := range cells {
			if seat < len(r.Points) {
				cells[seat] = cell(fmt.Sprintf("%+d", r.Points[seat]))
			}
		}
		label := fmt.Sprintf("%2d", r.Round)
		if r.Label != "" {
			label += " " + r.Label
		}
		out = append(out, row(label, cells))
	}
	totals := make([]string, n)
	for seat, t := range s.Totals {
		totals[seat] = cell(fmt.Sprint(t))
	}
	out = append(out, p.Paint(sheetTotal, row("Total", totals)))
	if left := height - len(out); left > 0 {
		out = append(out, last[:min(len(last), left)]...)
	}
	return out
}
