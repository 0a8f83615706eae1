package topfive

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	tf "parlor/rules/topfive"
	"parlor/session/gameui"
)

// Symbols carry every meaning on their own, so nothing depends on colour.
const (
	tick      = "✓"
	cross     = "✗"
	markerSym = "!"
	cursorSym = "▸"
)

var (
	dim   = lipgloss.NewStyle().Faint(true)
	bold  = lipgloss.NewStyle().Bold(true)
	good  = lipgloss.NewStyle().Foreground(gameui.OK.Color()).Bold(true)
	bad   = lipgloss.NewStyle().Foreground(gameui.Error.Color())
	warn  = lipgloss.NewStyle().Foreground(gameui.Accent.Color())
	inv   = lipgloss.NewStyle().Reverse(true)
	panel = 28 // width of the players column beside the topics (a var only to sit with the styles)
)

// Render draws the game area, exactly f.Width wide and at most f.Height tall.
func (s *Screen) Render(f gameui.Frame) string {
	if !s.have {
		return gameui.Fit("Waiting for the table…", f.Width)
	}
	var lines []string
	switch {
	case s.v.Over:
		lines = s.final(f)
	case s.v.Phase == tf.PhaseRanking:
		lines = s.ranking(f)
	default:
		lines = s.reveal(f)
	}
	if f.Large() && !s.v.Over {
		// A large area has room for the score history under the round. Once the round is
		// tallied its lines above say what the sheet's breakdown would.
		sheet := s.v.Sheet
		if s.v.Tally != nil {
			sheet.Last = nil
		}
		lines = append(lines, gameui.ScorePanel(sheet, s.v.Names, f.Width, f.Height-len(lines), f.Plain)...)
	}
	if len(lines) > f.Height {
		lines = lines[:f.Height]
	}
	for i := range lines {
		lines[i] = gameui.Fit(lines[i], f.Width)
	}
	return strings.Join(lines, "\n")
}

// nameOf is a seat's display name, from the view (or the frame when the view has none).
func (s *Screen) nameOf(f gameui.Frame, seat int) string {
	switch {
	case seat >= 0 && seat < len(s.v.Names):
		return s.v.Names[seat]
	case seat >= 0 && seat < len(f.Names):
		return f.Names[seat]
	}
	return "?"
}

// seatName is a seat's name in its colour.
func (s *Screen) seatName(f gameui.Frame, seat int, w int) string {
	n := s.nameOf(f, seat)
	if w > 0 {
		n = strings.TrimRight(gameui.Fit(n, w), " ")
	}
	return gameui.Painter{Plain: f.Plain}.Paint(gameui.SeatStyle(seat), n)
}

// status is the first line: who is the Player of Honour (the title bar above shows the
// round and the time left, so they are not repeated here).
func (s *Screen) status(f gameui.Frame) string {
	v := s.v
	if v.Variant == tf.VariantDuo {
		line := "Duo: a point together per topic you both rank the same"
		if len(v.Scores) > 0 {
			line += fmt.Sprintf(" · joint score %d", v.Scores[0])
		}
		return line
	}
	if v.Honour >= 0 {
		return "Player of Honour: " + s.seatName(f, v.Honour, 20)
	}
	return ""
}

// ranking draws the ranking phase: the topics (with the draft or the submitted ranking)
// on the left and who has submitted on the right.
func (s *Screen) ranking(f gameui.Frame) []string {
	p := gameui.Painter{Plain: f.Plain}
	v := s.v
	leftW := f.Width - panel - 2
	scale := "1 = most liked … 5 = least liked"
	if s.needsMarker() {
		scale += " · (" + markerSym + ") marker"
	}
	left := []string{s.roleLine(f), p.Paint(dim, scale), ""}
	var foot []string
	switch {
	case s.editing():
		d := s.draft
		for i, t := range v.Topics {
			cur, box := "  ", "[ ]"
			if d.ranks[i] > 0 {
				box = fmt.Sprintf("[%d]", d.ranks[i])
			}
			mark := ""
			if d.marker == i {
				mark = " " + p.Paint(warn, "("+markerSym+")")
			}
			row := box + " " + t
			if i == d.cursor {
				cur = cursorSym + " "
				row = p.Paint(inv, row)
			}
			left = append(left, cur+row+mark)
		}
		foot = append(foot, "")
		miss := s.missing()
		if s.note != "" {
			st, prefix := bad, "Not yet: "
			if s.noteOK {
				st = good
			}
			if len(miss) == 0 || !strings.HasPrefix(s.note, prefix) {
				foot = append(foot, p.Paint(st, s.note))
			} else {
				for i, m := range miss {
					foot = append(foot, p.Paint(st, prefix+m+"."))
					if i == 0 {
						prefix = "         "
					}
				}
			}
		} else if len(miss) > 0 {
			for _, m := range miss {
				foot = append(foot, p.Paint(dim, "To submit: "+m+"."))
			}
		} else {
			foot = append(foot, p.Paint(good, "Ready: press enter to submit."))
		}
	case v.Mine != nil:
		for i, t := range v.Topics {
			row := fmt.Sprintf("  [%d] %s", v.Mine.Ranks[i], t)
			if v.Mine.Marker != nil && *v.Mine.Marker == i {
				row += " " + p.Paint(warn, "("+markerSym+")")
			}
			left = append(left, row)
		}
		foot = append(foot, "", p.Paint(good, "Your ranking is in.")) // the prompt says whom the table waits for
	default:
		for _, t := range v.Topics {
			left = append(left, "  • "+t)
		}
		if s.sent {
			foot = append(foot, "", p.Paint(good, "Ranking sent."))
		}
	}
	if f.Large() {
		left = spaced(left, 3)
	}
	// The notes below the topics use the whole width: they can be long.
	return append(append([]string{s.status(f)}, beside(left, s.players(f), leftW)...), foot...)
}

// roleLine says what this seat does in the round.
func (s *Screen) roleLine(f gameui.Frame) string {
	v := s.v
	switch v.Role {
	case tf.RoleHonour:
		return "You are the Player of Honour: rank by your taste."
	case tf.RoleGuesser:
		return "Guess how " + s.seatName(f, v.Honour, 16) + " ranked these topics."
	case tf.RoleDuo:
		return "Rank these topics by your own taste."
	}
	return "You are watching; the players are ranking."
}

// players is the right-hand column: each seat, whether they have submitted, their total.
func (s *Screen) players(f gameui.Frame) []string {
	p := gameui.Painter{Plain: f.Plain}
	v := s.v
	// The last round's points stay here through the next round, long after the results.
	var last []int
	if rows := v.Sheet.Rows; len(rows) > 0 && v.Phase == tf.PhaseRanking {
		last = rows[len(rows)-1].Points
	}
	nameW := panel - 8
	head := gameui.Fit("Players", panel-6) + "score"
	if last != nil {
		nameW -= 5
		head = gameui.Fit("Players", panel-11) + "score last"
	}
	out := []string{p.Paint(bold, head)}
	for seat := range v.Names {
		mark := p.Paint(dim, "…")
		if seat < len(v.Submitted) && v.Submitted[seat] {
			mark = p.Paint(good, tick)
		}
		if v.Phase == tf.PhaseResults || v.Over {
			mark = " "
			if seat < len(v.Ready) && v.Ready[seat] {
				mark = p.Paint(good, tick)
			}
		}
		tag := ""
		if seat == v.Honour {
			tag = " PoH"
		}
		if seat == s.seat {
			tag += " (you)"
		}
		tag += gameui.AwayMark(f, seat)
		score := 0
		if seat < len(v.Scores) {
			score = v.Scores[seat]
		}
		name := s.seatName(f, seat, nameW-len(tag))
		line := fmt.Sprintf("%s %s %4d", mark, gameui.Fit(name+tag, nameW), score)
		if seat < len(last) {
			line += fmt.Sprintf(" %+4d", last[seat])
		}
		out = append(out, line)
	}
	if v.Phase == tf.PhaseRanking {
		out = append(out, "", p.Paint(dim, tick+" ranked  … ranking"))
	}
	return out
}

// spaced puts a blank line after each of lines[from:], so that in a large area the topics
// stand apart like the rows of a list on paper.
func spaced(lines []string, from int) []string {
	out := append([]string(nil), lines[:from]...)
	for _, l := range lines[from:] {
		out = append(out, l, "")
	}
	return out
}

// beside puts two columns side by side, the left one leftW wide.
func beside(left, right []string, leftW int) []string {
	n := max(len(left), len(right))
	out := make([]string, n)
	for i := range n {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = gameui.Fit(l, leftW) + "  " + r
	}
	return out
}
