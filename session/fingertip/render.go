package fingertip

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/playertext"
	"parlor/rules"
	ft "parlor/rules/fingertip"
	"parlor/session/gameui"
)

// Cell sizes: a picture is at most 22×7; the square takes three cells and two gaps.
const (
	cellCols   = ft.PictureCols
	minSidebar = 11
)

var (
	boldStyle   = lipgloss.NewStyle().Bold(true)
	dimStyle    = lipgloss.NewStyle().Faint(true)
	targetStyle = lipgloss.NewStyle().Bold(true).Reverse(true).Foreground(gameui.Gold.Color())
	yesStyle    = lipgloss.NewStyle().Bold(true).Foreground(gameui.OK.Color())
	cursorStyle = lipgloss.NewStyle().Bold(true).Reverse(true)
	noteStyle   = lipgloss.NewStyle().Bold(true).Foreground(gameui.Error.Color())
)

// Render draws the game area: the clue line, the square and the players' column, or
// the final results.
func (s *Screen) Render(f gameui.Frame) string {
	key := f.Key()
	if !s.cacheDirt && key == s.cacheKey {
		return s.cache
	}
	s.plain, s.frame = f.Plain, f
	s.cache, s.cacheKey, s.cacheDirt = s.render(f), key, false
	return s.cache
}

func (s *Screen) render(f gameui.Frame) string {
	w, h := max(f.Width, 30), max(f.Height, 10)
	if !s.have {
		return gameui.Fit("Waiting for the game to start…", w)
	}
	var lines []string
	if s.v.Over {
		lines = s.results(w, h, f.Plain)
	} else {
		lines = s.playing(w, h, f.Plain)
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}

// playing draws the top line(s), then the square beside the players' column.
func (s *Screen) playing(w, h int, plain bool) []string {
	top := s.topLines(w, plain)
	cw := min(cellCols, (w-minSidebar-1-2)/3)
	sw := min(24, w-(3*cw+2)-1)
	// The pictures keep every row: a long clue gives way (cut with "…"; the log has it
	// whole), never the square. A large area draws them twice as tall when they fit.
	scale := 1
	if w >= gameui.LargeWidth && h >= gameui.LargeHeight && 3*(1+2*s.tallest())+len(top) <= h {
		scale = 2
	}
	need := 1 + scale*s.tallest()
	ch := min(1+scale*ft.PictureRows, max(need, (h-len(top))/3))
	if room := max(0, h-3*ch); len(top) > room {
		top = top[:room]
		if room > 0 {
			top[room-1] = gameui.Fit(ansi.Truncate(top[room-1], w-1, "")+"…", w)
		}
	}
	side := s.sidebar(sw, 3*ch, plain)
	out := top
	for row := range 3 {
		cells := make([][]string, 3)
		for col := range 3 {
			cells[col] = s.cell(row*3+col, cw, ch, scale, plain)
		}
		for i := range ch {
			line := cells[0][i] + " " + cells[1][i] + " " + cells[2][i] + " " + side[row*ch+i]
			out = append(out, gameui.Fit(line, w))
		}
	}
	return out
}

// topLines is the clue (or the clue box, or the last turn's summary) above the square.
func (s *Screen) topLines(w int, plain bool) []string {
	p := gameui.Painter{Plain: plain}
	v := s.v
	name := s.name(v.Active)
	var line string
	switch {
	case v.Phase == ft.PhaseClue && s.Typing():
		line = s.clueLine(w, plain)
	case v.Phase == ft.PhaseClue && s.mayClue():
		line = fmt.Sprintf("Your card is %d. Press enter to write your clue.", v.Target)
	case v.Phase == ft.PhaseClue:
		// The prompt line above says whom everyone waits for; the clue comes here.
		line = ""
	case v.Phase == ft.PhaseReveal:
		// The prompt line above says what happened (the session never cuts it); here the
		// clue the square is read against, and how to read it.
		line = "★ marks the target; → names who took a card."
		if v.Clue != "" {
			line = p.Paint(boldStyle, name+"'s clue: ") + "“" + v.Clue + "” · " + line
		}
	default:
		line = p.Paint(boldStyle, name+"'s clue: ") + "“" + v.Clue + "”"
	}
	if rules.Width(line) <= w {
		return []string{gameui.Fit(line, w)}
	}
	wrapped := gameui.Wrap(line, w)
	if len(wrapped) > 2 {
		// More than the two lines there are: say so rather than end mid-clue (the log
		// has it whole).
		wrapped = wrapped[:2]
		wrapped[1] = ansi.Truncate(wrapped[1], w-1, "") + "…"
	}
	for i := range wrapped {
		wrapped[i] = gameui.Fit(wrapped[i], w)
	}
	return wrapped
}

// clueLine is the clue box with its counter, on one line of w columns: the box's text
// is drawn by gameui.BoxLine, which scrolls by columns (a wide character takes two) so
// that the cursor stays in it.
func (s *Screen) clueLine(w int, plain bool) string {
	value := s.clue.Value()
	counter := fmt.Sprintf(" %d/%d", playertext.Width(value), ft.ClueMax)
	room := w - len("Clue: ") - len(counter)
	if plain {
		return "Clue: " + gameui.BoxLine(value, s.clue.Position(), room, true) + counter
	}
	if value == "" {
		s.clue.SetWidth(max(1, room-1)) // the placeholder, and the cursor after it
		return boldStyle.Render("Clue: ") + s.clue.View() + dimStyle.Render(counter)
	}
	return boldStyle.Render("Clue: ") + gameui.BoxLine(value, s.clue.Position(), room, false) + dimStyle.Render(counter)
}

// tallest is the height of the tallest picture in the square (or of its description).
func (s *Screen) tallest() int {
	n := 1
	for _, c := range s.v.Square {
		n = max(n, len(c.Art))
	}
	return min(n, ft.PictureRows)
}

// name is a seat's display name from the view.
func (s *Screen) name(seat int) string {
	if seat >= 0 && seat < len(s.v.Players) {
		return s.v.Players[seat].Name
	}
	return "?"
}

// sidebar is the players' column: turn, pile, each player's cards and race status,
// and a legend, padded to n lines of width w.
func (s *Screen) sidebar(w, n int, plain bool) []string {
	v := s.v
	lines := []string{
		fmt.Sprintf("Turn %d", v.Round),
		fmt.Sprintf("Pile %d", v.Pile),
		strings.Repeat("─", w),
	}
	for _, p := range v.Players {
		mark := " "
		switch {
		case s.frame.Away.Has(p.Seat):
			mark = "~" // the narrow column has no room for the words: the legend says it
		case p.Active:
			mark = "▶"
		case p.Racing:
			mark = "•"
		case p.Out:
			mark = "✗"
		}
		nw := max(1, w-4)
		name := gameui.Fit(p.Name, nw)
		if !plain {
			st := gameui.SeatStyle(p.Seat)
			if p.Seat == s.seat {
				st = st.Underline(true)
			}
			name = st.Render(name)
		}
		lines = append(lines, fmt.Sprintf("%s%s%3d", mark, name, p.Cards))
	}
	lines = append(lines, strings.Repeat("─", w), "▶ clue", "• racing", "✗ out")
	if s.frame.Away != 0 {
		lines = append(lines, "~ away")
	}
	if s.seat >= 0 && s.seat < len(v.Players) && v.Players[s.seat].Out && v.Phase == ft.PhaseRace {
		lines = append(lines, "", gameui.Painter{Plain: plain}.Paint(noteStyle, "NO! You"), gameui.Painter{Plain: plain}.Paint(noteStyle, "are out."))
	}
	if s.note != "" {
		lines = append(lines, "")
		for _, l := range strings.Split(ansi.Wordwrap(s.note, w, " "), "\n") {
			lines = append(lines, gameui.Painter{Plain: plain}.Paint(noteStyle, l))
		}
	}
	return gameui.Block(lines, w, n)
}
