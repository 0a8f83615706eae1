package foresight

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
	fs "parlor/rules/foresight"
	"parlor/session/gameui"
)

// Render draws the game area, at most f.Height lines of exactly f.Width cells.
func (s *Screen) Render(f gameui.Frame) string {
	key := f.Key()
	if !s.dirty && key == s.cacheKey {
		return s.cache
	}
	var lines []string
	switch {
	case !s.have:
		lines = []string{"Waiting for the game to start…"}
	case s.v.Over && !s.last:
		lines = s.results(f)
	case s.v.Over || s.v.Phase != fs.PhaseAnswering:
		lines = s.revealTable(f)
	case s.mode() == answering:
		lines = s.formLines(f)
	default:
		lines = s.watchLines(f)
	}
	if s.have && f.Large() && !s.v.Over {
		// A large area has room for the score history under the round.
		lines = append(lines, gameui.ScorePanel(s.v.Sheet, s.v.Names, f.Width, f.Height-len(lines), f.Plain)...)
	}
	h := max(f.Height, 0)
	if len(lines) > h {
		lines = lines[:h]
	}
	s.cache = strings.Join(gameui.Block(lines, f.Width, len(lines)), "\n")
	s.cacheKey, s.dirty = key, false
	return s.cache
}

// paint styles text unless the frame is plain.
func paint(f gameui.Frame, st lipgloss.Style, text string) string {
	if f.Plain {
		return text
	}
	return st.Render(text)
}

var (
	bold   = lipgloss.NewStyle().Bold(true)
	faint  = lipgloss.NewStyle().Faint(true)
	warn   = lipgloss.NewStyle().Foreground(gameui.Error.Color()).Bold(true)
	good   = lipgloss.NewStyle().Foreground(gameui.OK.Color())
	picked = lipgloss.NewStyle().Reverse(true)
)

// seatName is a seat's name in its colour (plain: just the name).
func (s *Screen) seatName(f gameui.Frame, seat int, w int) string {
	n := gameui.Fit(name(s.v.Names, seat)+gameui.AwayMark(f, seat), w)
	return paint(f, gameui.SeatStyle(seat), n)
}

// wrap breaks text into lines of at most w cells, at most max lines (the last cut with …).
// It is gameui.Wrap, which breaks a line in columns: a question in Japanese, which has no
// spaces to break at, takes the lines its width needs, as an English one does.
func wrap(text string, w, maxLines int) []string {
	if w <= 0 || maxLines <= 0 {
		return nil
	}
	lines := gameui.Wrap(text, w)
	if len(lines) > maxLines {
		rest := strings.Join(lines[maxLines-1:], " ")
		lines = append(lines[:maxLines-1], ansi.Truncate(rest, w, "…"))
	}
	for i := range lines {
		if rules.Width(lines[i]) > w {
			lines[i] = ansi.Truncate(lines[i], w, "…")
		}
	}
	return lines
}

// choiceLines lists the answers, one a line, or two a line when space is short.
func (s *Screen) choiceLines(w int, twoColumns bool) []string {
	var out []string
	cw := w
	if twoColumns {
		cw = w / 2
	}
	for i, c := range s.v.Choices {
		cell := gameui.Fit(fmt.Sprintf(" %d  %s", i+1, c), cw)
		if twoColumns && i%2 == 1 {
			out[len(out)-1] += cell
			continue
		}
		out = append(out, cell)
	}
	return out
}

// questionBlock is the question and its answers fitted into at most room lines.
func (s *Screen) questionBlock(f gameui.Frame, room int) []string {
	q := wrap(s.v.Question, f.Width, 3)
	ch := s.choiceLines(f.Width, false)
	if len(q)+len(ch) > room {
		ch = s.choiceLines(f.Width, true)
	}
	for len(q) > 1 && len(q)+len(ch) > room {
		q = wrap(s.v.Question, f.Width, len(q)-1)
	}
	out := make([]string, 0, len(q)+len(ch)+1)
	for _, l := range q {
		out = append(out, paint(f, bold, l))
	}
	out = append(out, ch...)
	if len(out) < room {
		out = append(out, "")
	}
	return out
}

// formLines draws the player's secret form: own answer first, then one row per opponent.
func (s *Screen) formLines(f gameui.Frame) []string {
	const markW, nameW, ptsW, sentW, wagerW = 2, 12, 6, 6, 7
	predW := max(f.Width-markW-nameW-ptsW-sentW-2*wagerW, 10)
	notes := s.formNotes(f)
	rows := len(s.f.opps) + 1
	formRows := rows
	if f.Large() {
		formRows *= 2
	}
	// The headers A and B are too narrow to say what they are: a line under the form does.
	// The question has the rest, less the header and that line.
	legend := paint(f, faint, "A: wager that you predict them right · B: wager that they predict you right")
	lines := s.questionBlock(f, f.Height-2-formRows-len(notes))

	header := strings.Repeat(" ", markW) + gameui.Fit("Player", nameW) + fmt.Sprintf("%*s ", ptsW-1, "Pts") +
		gameui.Fit(" Sent", sentW) + gameui.Fit(" Prediction", predW) + fmt.Sprintf("%*s%*s", wagerW, "A ", wagerW, "B ")
	lines = append(lines, paint(f, faint, header))

	for r := range rows {
		mark := "  "
		if r == s.row {
			mark = "▸ "
		}
		seat, choice := s.seat, s.f.answer
		sent := s.v.Mine != nil
		if r > 0 {
			seat, choice = s.f.opps[r-1], s.f.choice[r-1]
			sent = seat < len(s.v.Submitted) && s.v.Submitted[seat]
		}
		label := name(s.v.Names, seat) + gameui.AwayMark(f, seat)
		if r == 0 {
			label = "You (answer)"
		}
		line := mark + paint(f, gameui.SeatStyle(seat), gameui.Fit(label, nameW))
		pts := 0
		if seat < len(s.v.Scores) {
			pts = s.v.Scores[seat]
		}
		line += fmt.Sprintf("%*d ", ptsW-1, pts)
		tick := "  …"
		if sent {
			tick = "  ✓"
		}
		line += gameui.Fit(tick, sentW)
		text := "—"
		if choice > 0 && choice <= len(s.v.Choices) {
			text = fmt.Sprintf("%d %s", choice, s.v.Choices[choice-1])
		}
		line += s.cell(f, r, colChoice, text, predW, false)
		if r > 0 {
			line += s.cell(f, r, colA, fmt.Sprint(s.f.a[r-1]), wagerW, true)
			line += s.cell(f, r, colB, fmt.Sprint(s.f.b[r-1]), wagerW, true)
		}
		lines = append(lines, line)
		if f.Large() {
			lines = append(lines, "") // rows apart, as on a paper form
		}
	}
	lines = append(lines, legend)
	return append(lines, notes...)
}

// cell draws one form cell w wide, in brackets (and reversed in colour) when selected.
func (s *Screen) cell(f gameui.Frame, row, col int, text string, w int, right bool) string {
	inner := w - 2
	if right {
		text = fmt.Sprintf("%*s", inner, text)
	}
	text = gameui.Fit(text, inner)
	if row == s.row && (col == s.col || row == 0) {
		return "[" + paint(f, picked, text) + "]"
	}
	return " " + text + " "
}

// formNotes are the live lines under the form: points left to wager, every wager rule the
// draft breaks (named), what is still missing, and the answer to the last key.
func (s *Screen) formNotes(f gameui.Frame) []string {
	pts, total := s.points(), s.f.total()
	var status string
	if pts == 0 {
		status = fmt.Sprintf("You have 0 points: one single wager of up to 50 is allowed (now %d).", total)
	} else {
		status = fmt.Sprintf("Wagered %d of your %d points · %d left to wager", total, pts, pts-total)
	}
	if s.v.Mine != nil && s.f.same(s.v.Mine) {
		status += " · sent ✓"
	} else if s.v.Mine != nil {
		status += " · changes not sent"
	}
	notes := []string{status}
	for _, b := range s.f.breaches(pts) {
		for _, l := range gameui.Wrap("✗ "+b, f.Width) { // a rule is read whole
			notes = append(notes, paint(f, warn, l))
		}
	}
	switch {
	case s.msg != "":
		notes = append(notes, s.msg)
	case s.f.todo(s.v.Names) != "":
		notes = append(notes, paint(f, faint, s.f.todo(s.v.Names)+"."))
	case len(notes) == 1 && !s.f.same(s.v.Mine):
		notes = append(notes, paint(f, good, "Ready: press enter to submit."))
	}
	if len(notes) > 4 {
		notes = notes[:4]
	}
	return notes
}

// watchLines is the spectator's view of a round: the question and who has submitted.
func (s *Screen) watchLines(f gameui.Frame) []string {
	n := len(s.v.Names)
	lines := s.questionBlock(f, f.Height-n-1)
	lines = append(lines, paint(f, faint, "Player        Points  Submitted"))
	for p := range n {
		state := "… choosing"
		if p < len(s.v.Submitted) && s.v.Submitted[p] {
			state = "✓ submitted"
		}
		pts := 0
		if p < len(s.v.Scores) {
			pts = s.v.Scores[p]
		}
		lines = append(lines, s.seatName(f, p, 12)+fmt.Sprintf("%8d  ", pts)+state)
	}
	return lines
}
