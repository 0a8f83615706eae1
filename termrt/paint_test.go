package termrt

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// shown is a model whose frame is whatever the test sets.
type shown struct{ content string }

func (s *shown) Init() tea.Cmd                       { return nil }
func (s *shown) Update(tea.Msg) (tea.Model, tea.Cmd) { return s, nil }
func (s *shown) View() tea.View {
	v := tea.NewView(s.content)
	v.AltScreen, v.WindowTitle = true, "parlor" // as parlor's session model asks
	return v
}

// nothing is a message the model does not change on.
type nothing struct{}

// terminal is an emulator fed with everything the painter writes, and what it says of
// its modes.
type terminal struct {
	out     bytes.Buffer
	em      *vt.Emulator
	cursor  bool
	title   string
	written int
}

func newTerminal(w, h int) *terminal {
	t := &terminal{em: vt.NewEmulator(w, h), cursor: true}
	t.em.SetCallbacks(vt.Callbacks{
		CursorVisibility: func(v bool) { t.cursor = v },
		Title:            func(s string) { t.title = s },
	})
	go discardReplies(t.em)
	return t
}

// discardReplies reads the emulator's answers to the painter's queries, which it
// writes into a pipe that must be read or its Write blocks. It is never stopped, as
// with sshterm's: closing the emulator under its reader is a data race inside x/vt
// (TestMain tells goleak to ignore it).
func discardReplies(em *vt.Emulator) { _, _ = io.Copy(io.Discard, em) }

// feed passes what was written since the last feed to the emulator and tells whether
// anything was.
func (t *terminal) feed() bool {
	b := t.out.Bytes()[t.written:]
	t.written = t.out.Len()
	_, _ = t.em.Write(b)
	return len(b) > 0
}

func TestPainterDrawsChangesAtOnceThenAtMostOncePerFrame(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	term := newTerminal(20, 4)
	model := &shown{content: "first"}
	sent := make(chan tea.Msg, 4)
	p := newPainter(ctx, model, &term.out, 10, func(m tea.Msg) { sent <- m })
	p.Init()
	p.Update(nothing{})
	if term.feed() && strings.Contains(term.em.String(), "first") {
		t.Fatal("a frame was drawn before the window size and colour profile came")
	}
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.ANSI256})
	p.Update(tea.WindowSizeMsg{Width: 20, Height: 4})
	term.feed()
	if got := term.em.String(); !strings.HasPrefix(got, "first") {
		t.Fatalf("the first frame is not on screen:\n%s", got)
	}
	if !term.em.IsAltScreen() || term.cursor || term.title != "parlor" {
		t.Fatalf("alternate screen %v, cursor shown %v, title %q: want the alternate screen, no cursor, parlor",
			term.em.IsAltScreen(), term.cursor, term.title)
	}

	// Within the frame interval an update waits for the timer's drawMsg, which finds
	// the frame unchanged and writes nothing.
	p.Update(nothing{})
	if term.feed() {
		t.Fatalf("an update within the frame interval wrote %q", term.out.String())
	}
	select {
	case msg := <-sent:
		p.Update(msg)
	case <-time.After(10 * time.Second):
		t.Fatal("the frame that was not yet due never came")
	}
	if term.feed() {
		t.Fatalf("an unchanged frame wrote %q", term.out.String())
	}

	// A frame interval has passed since the last frame: a change goes out at once.
	model.content = "between"
	p.Update(nothing{})
	if !term.feed() || !strings.HasPrefix(term.em.String(), "between") {
		t.Fatalf("a change after the frame interval is not on screen:\n%s", term.em.String())
	}

	// A change within the frame interval waits for the timer's drawMsg.
	model.content = "second"
	p.Update(nothing{})
	p.Update(nothing{}) // a second change before the frame: still one timer
	if term.feed() {
		t.Fatal("a second frame went out within one frame interval")
	}
	var msg tea.Msg
	select {
	case msg = <-sent:
	case <-time.After(10 * time.Second):
		t.Fatal("the frame that was not yet due never came")
	}
	if _, ok := msg.(drawMsg); !ok {
		t.Fatalf("the timer sent %T, want drawMsg", msg)
	}
	p.Update(msg)
	term.feed()
	if got := term.em.String(); !strings.HasPrefix(got, "second") {
		t.Fatalf("the later frame is not on screen:\n%s", got)
	}
	select {
	case m := <-sent:
		t.Fatalf("a second timer sent %T for the same frame", m)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestPainterRedrawsOnResizeAndGivesTheTerminalBack(t *testing.T) {
	term := newTerminal(20, 4)
	model := &shown{content: "hello"}
	p := newPainter(context.Background(), model, &term.out, 1000, func(tea.Msg) {})
	p.Init()
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.ANSI})
	p.Update(tea.WindowSizeMsg{Width: 20, Height: 4})
	term.feed()

	// The terminal shrank and lost what it showed: the same content is drawn whole.
	time.Sleep(2 * time.Millisecond) // past the 1 ms frame interval
	term.em.Resize(10, 3)
	_, _ = term.em.WriteString("\x1b[2J")
	p.Update(tea.WindowSizeMsg{Width: 10, Height: 3})
	if !term.feed() || !strings.HasPrefix(term.em.String(), "hello") {
		t.Fatalf("after a resize the frame was not drawn again:\n%s", term.em.String())
	}

	p.close()
	term.feed()
	if term.em.IsAltScreen() || !term.cursor || term.title != "" {
		t.Fatalf("after close: alternate screen %v, cursor shown %v, title %q: want the main screen, a cursor, no title",
			term.em.IsAltScreen(), term.cursor, term.title)
	}
	if out := term.out.String(); !strings.Contains(out, "\x1b[?2004l") {
		t.Fatalf("bracketed paste was not turned off: %q", out)
	}
}

// TestPainterRedrawsOnlyChangedRowsAsAWholeFrameWould draws random frames, each a few
// rows changed from the last, with styles that end on their row or run on into the
// next, rows too wide for the window and frames shorter than it, and checks the
// emulated screen after each, cell by cell, against ultraviolet's reading of the whole
// frame.
func TestPainterRedrawsOnlyChangedRowsAsAWholeFrameWould(t *testing.T) {
	const w, h = 30, 8
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"plain", "\x1b[31mred\x1b[m", "\x1b[2mdim\x1b[m  ", "\x1b[1mbold runs on", "\x1b[0m",
		"\x1b[42mgreen\x1b[0m", "中文", "", "\x1b]8;;https://x\x07link\x1b]8;;\x07", "\x1b[4;38;2;200;10;10mdeep",
		"a rather long run of plain words", "\x1b[7m  reversed blanks  \x1b[m", "          ", "\x1b[4munderlined  ",
		"\x1b[44m    \x1b[m", "\x1b[m      \x1b[m", "\x1b[1mbold\x1b[0m     \x1b[0m"}
	row := func() string {
		var b strings.Builder
		for range rng.IntN(5) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			b.WriteString(" ")
		}
		return b.String()
	}
	term := newTerminal(w, h)
	model := &shown{}
	p := newPainter(context.Background(), model, &term.out, 1000, func(tea.Msg) {})
	p.every = 0 // every change is due at once
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	p.Update(tea.WindowSizeMsg{Width: w, Height: h})
	rows := make([]string, h)
	for frame := range 400 {
		for range 1 + rng.IntN(3) {
			rows[rng.IntN(h)] = row()
		}
		n := h - rng.IntN(3) // a frame may be shorter than the screen
		model.content = strings.Join(rows[:n], "\n")
		p.Update(nothing{})
		term.feed()
		term.showsWhole(t, frame, model.content, sameCell)
	}
}

// A changed row is sent from where it differs from the row on screen, and the screen
// is still the whole frame's: rows that keep a start of their words and change the rest,
// with styles that run through the part kept, wide characters and combining marks.
func TestPainterSendsARowFromWhereItChanged(t *testing.T) {
	const w, h = 40, 6
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"plain", "\x1b[31mred\x1b[m", "\x1b[1mbold runs on", "\x1b[0m", "\x1b[31mred runs on",
		"\x1b[32mgreen", "\x1b[4;38;2;200;10;10mdeep", "中文", "丁", "e", "e\u0301x", "\x1b[7m rev \x1b[m", "    ",
		"\x1b]8;;https://x\x07link\x1b]8;;\x07", "a", "b"}
	words := make([][]string, h)
	row := func(y int) string {
		// Most of the time the row keeps some of its words, as a token's move keeps
		// most of a row; it never passes the window's width.
		if rng.IntN(4) > 0 {
			words[y] = words[y][:rng.IntN(len(words[y])+1)]
		} else {
			words[y] = nil
		}
		for range rng.IntN(4) {
			next := append(words[y], pieces[rng.IntN(len(pieces))]+" ")
			if ansi.StringWidth(strings.Join(next, "")) > w {
				break
			}
			words[y] = next
		}
		return strings.Join(words[y], "")
	}
	term := newTerminal(w, h)
	model := &shown{}
	p := newPainter(context.Background(), model, &term.out, 1000, func(tea.Msg) {})
	p.every = 0
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	p.Update(tea.WindowSizeMsg{Width: w, Height: h})
	rows := make([]string, h)
	from := 0 // rows sent from a column past the first
	for frame := range 1500 {
		y := rng.IntN(h)
		rows[y] = row(y)
		model.content = strings.Join(rows, "\n")
		before := term.out.Len()
		p.Update(nothing{})
		if regexp.MustCompile(`\x1b\[[0-9]+;([2-9]|[1-9][0-9])H`).MatchString(term.out.String()[before:]) {
			from++
		}
		term.feed()
		term.showsWhole(t, frame, model.content, sameCell)
	}
	if from < 100 {
		t.Fatalf("only %d of 1500 changes were sent from a later column: the test shows little", from)
	}
}

// A row whose change is in its middle, as a token's move on a board row is, is sent
// only over the span that changed when what follows is the same and in the same columns:
// no erase to the end of the line, nothing after the span. The screen is still the whole
// frame's: spans between styled cells, wide characters and combining marks, changes that
// shift what follows (sent to the end instead), colours the terminal's profile lowers.
func TestPainterSendsOnlyTheSpanThatChanged(t *testing.T) {
	for _, c := range []struct {
		profile   colorprofile.Profile
		graphemes bool // the terminal measures graphemes whole (mode 2027)
	}{{colorprofile.TrueColor, false}, {colorprofile.ANSI, false}, {colorprofile.TrueColor, true}} {
		profile := c.profile
		t.Run(fmt.Sprintf("%s/graphemes=%v", profile, c.graphemes), func(t *testing.T) {
			const w, h = 40, 5
			rng := rand.New(rand.NewPCG(5, 6))
			// Cells of a board row: plain, styled, wide, combining, blanks, a colour to
			// lower, a style that runs on into the next cell.
			cells := []string{" ", " ", " ", "\x1b[2m│\x1b[m", "\x1b[1;38;5;204mb\x1b[m", "\x1b[1;7mR\x1b[m", "a",
				"中", "e\u0301", "\x1b[38;2;200;10;10mq\x1b[0m", "\x1b[4mu", "\x1b[m", "x  ", "\x1b[7m \x1b[m", "·"}
			board := make([][]string, h)
			for y := range board {
				for range 5 + rng.IntN(15) {
					board[y] = append(board[y], cells[rng.IntN(len(cells))])
				}
			}
			rowOf := func(y int) string { return strings.Join(board[y], "") + "\x1b[m" }
			term := newTerminal(w, h)
			model := &shown{}
			p := newPainter(context.Background(), model, &term.out, 1000, func(tea.Msg) {})
			p.every = 0
			p.Update(tea.ColorProfileMsg{Profile: profile})
			if c.graphemes {
				p.Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeReset})
			}
			p.Update(tea.WindowSizeMsg{Width: w, Height: h})
			if p.graphemes != c.graphemes {
				t.Fatalf("the painter measures graphemes whole: %v", p.graphemes)
			}
			spans := 0 // changes sent without erasing to the end of the line
			for frame := range 1500 {
				y := rng.IntN(h)
				i := rng.IntN(len(board[y]))
				board[y][i] = cells[rng.IntN(len(cells))]
				if rng.IntN(10) == 0 && len(board[y]) < 18 { // a cell more: what follows shifts
					board[y] = append(board[y][:i], append([]string{cells[rng.IntN(len(cells))]}, board[y][i:]...)...)
				}
				rows := make([]string, h)
				for y := range rows {
					rows[y] = rowOf(y)
				}
				model.content = strings.Join(rows, "\n")
				before := term.out.Len()
				p.Update(nothing{})
				if sent := term.out.String()[before:]; sent != "" && !strings.Contains(sent, ansi.EraseLineRight) {
					spans++
				}
				term.feed()
				same := sameCell
				if profile != colorprofile.TrueColor {
					same = sameContent
				}
				term.showsWhole(t, frame, model.content, same)
			}
			if spans < 300 {
				t.Fatalf("only %d of 1500 changes were sent as a span without erasing the rest of the line", spans)
			}
		})
	}
}

// A span may end where a style begins, when no style runs into that point in either row
// (a panel line's count changes before its dimmed word).
func TestPainterEndsASpanBeforeAStyleThatFollows(t *testing.T) {
	term, model, p := drawnOnce(40, 2, "\x1b[1mE\x1b[m Bot Ed +4, +2 ×5 \x1b[2mmoving\x1b[m\nx")
	before := term.out.Len()
	model.content = "\x1b[1mE\x1b[m Bot Ed +4, +2 ×4 \x1b[2mmoving\x1b[m\nx"
	p.Update(nothing{})
	term.feed()
	if sent := term.out.String()[before:]; strings.Contains(sent, "moving") || strings.Contains(sent, ansi.EraseLineRight) {
		t.Errorf("the count's change went as %q: the dimmed word after it is on screen already", sent)
	}
	if got := strings.Split(term.em.String(), "\n")[0]; got != "E Bot Ed +4, +2 ×4 moving" {
		t.Errorf("the row shows %q", got)
	}
}

// A span may end inside a style that runs on, when it is the same in both rows there:
// a token's step along a dimmed axis, a countdown in a reverse-video title bar.
func TestPainterEndsASpanInsideARunningStyle(t *testing.T) {
	axis := func(x int) string {
		return "\x1b[2m" + strings.Repeat("─", x) + "\x1b[m\x1b[1;7mR\x1b[m\x1b[2m" + strings.Repeat("─", 20-x) +
			"\x1b[m\x1b[1m▶\x1b[m  7 dice"
	}
	bar := func(left string) string {
		return "\x1b[1;7m Quadrant · round 1 · ⏱ " + left + " left · you: Ann \x1b[m"
	}
	term, model, p := drawnOnce(50, 2, axis(4)+"\n"+bar("2:55"))
	for i, c := range []struct{ axis, bar string }{{axis(5), bar("2:54")}, {axis(4), bar("2:53")}, {axis(6), bar("1:59")}} {
		before := term.out.Len()
		model.content = c.axis + "\n" + c.bar
		p.Update(nothing{})
		term.feed()
		sent := term.out.String()[before:]
		if strings.Contains(sent, "▶") || strings.Contains(sent, "you:") || strings.Count(sent, "─") > 4 {
			t.Errorf("change %d went as %q: what follows the changed cells is on screen already", i, sent)
		}
		term.showsWhole(t, i, model.content, sameCell)
	}
}

// sameContent compares two cells' characters only (a lowered colour differs from the
// frame's own).
func sameContent(a, b *uv.Cell) bool {
	text := func(c *uv.Cell) string {
		if c == nil || c.Content == "" {
			return " "
		}
		return c.Content
	}
	return text(a) == text(b)
}

// A wide character that does not fit in the window's last column is cut, and that
// column is cleared, not left showing what the frame before had there: a blank in the
// style in effect, as the whole frame has it (an underline shows there).
func TestPainterClearsTheColumnACutWideCharacterLeaves(t *testing.T) {
	term := newTerminal(10, 2)
	model := &shown{content: "abcdefghij\nxyz"}
	p := newPainter(context.Background(), model, &term.out, 1000, func(tea.Msg) {})
	p.every = 0
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	p.Update(tea.WindowSizeMsg{Width: 10, Height: 2})
	for _, c := range []struct{ content, want string }{
		{"abcdefghi中\nxyz", "abcdefghi"},
		{"abcdefghij\nxyz", "abcdefghij"},
		{"\x1b[1mabcdefghi中\x1b[m\nxyz", "abcdefghi"},
	} {
		model.content = c.content
		p.Update(nothing{})
		term.feed()
		if got := strings.Split(term.em.String(), "\n")[0]; got != c.want {
			t.Fatalf("after %q the first row shows %q; want %q", c.content, got, c.want)
		}
	}
	model.content = "\x1b[4mabcdefghi中 \nxyz" // underlined on past the cut (found by a seed of the test above)
	p.Update(nothing{})
	term.feed()
	term.showsWhole(t, 3, model.content, sameCell)
}

// drawnOnce is a painter of a w×h true-colour terminal that has drawn content, every
// change due at once.
func drawnOnce(w, h int, content string) (*terminal, *shown, *painter) {
	term := newTerminal(w, h)
	model := &shown{content: content}
	p := newPainter(context.Background(), model, &term.out, 1000, func(tea.Msg) {})
	p.every = 0
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	p.Update(tea.WindowSizeMsg{Width: w, Height: h})
	term.feed()
	return term, model, p
}

// showsWhole fails t unless the emulated screen shows what the whole frame content
// would, cell by cell as same compares them (after change n).
func (term *terminal) showsWhole(t *testing.T, n int, content string, same func(a, b *uv.Cell) bool) {
	t.Helper()
	w, h := term.em.Width(), term.em.Height()
	whole := uv.NewScreenBuffer(w, h)
	uv.NewStyledString(content).Draw(whole, whole.Bounds())
	for y := range h {
		for x := range w {
			if got, want := term.em.CellAt(x, y), whole.CellAt(x, y); !same(got, want) {
				t.Fatalf("change %d, cell %d,%d: on screen %#v, the whole frame has %#v\nscreen:\n%s\nframe:\n%q",
					n, x, y, got, want, term.em.String(), content)
			}
		}
	}
}

// sameCell compares what a player sees of two cells: a blank is a blank whatever
// library made it, and the second column of a wide character holds nothing. A blank
// shows only its background, reverse video and underline.
func sameCell(a, b *uv.Cell) bool {
	blank := func(c *uv.Cell) bool { return c == nil || c.Content == "" || c.Content == " " }
	if blank(a) && blank(b) {
		var sa, sb uv.Style
		if a != nil {
			sa = a.Style
		}
		if b != nil {
			sb = b.Style
		}
		shows := func(s uv.Style) bool { return s.Bg != nil || s.Attrs&uv.AttrReverse != 0 || s.Underline != 0 }
		return !shows(sa) && !shows(sb) || sa.Equal(&sb)
	}
	return a != nil && b != nil && a.Content == b.Content && a.Style.Equal(&b.Style) && a.Link.Equal(&b.Link)
}

// A row changed between frames whose rows end in a reset is the only row sent again.
func TestPainterDrawsOnlyTheChangedRow(t *testing.T) {
	var out bytes.Buffer
	model := &shown{}
	p := newPainter(context.Background(), model, &out, 1000, func(tea.Msg) {})
	p.every = 0
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	rows := []string{"\x1b[1ma\x1b[m  ", "\x1b[2mb\x1b[m", "c", "\x1b[31md\x1b[m"}
	model.content = strings.Join(rows, "\n")
	p.Update(tea.WindowSizeMsg{Width: 20, Height: 4})
	out.Reset()
	rows[2] = "\x1b[1mC\x1b[m"
	model.content = strings.Join(rows, "\n")
	p.Update(nothing{})
	if moves := regexp.MustCompile(`\x1b\[[0-9;]*H`).FindAllString(out.String(), -1); len(moves) != 1 || moves[0] != "\x1b[3;1H" {
		t.Fatalf("for the one changed row 3 the painter moved to %q: %q", moves, out.String())
	}
}

// A row that ends in a reset, as every styled row lipgloss draws does, is not sent with
// a second one.
func TestPainterSendsOneResetAtARowsEnd(t *testing.T) {
	var out bytes.Buffer
	model := &shown{content: "a\nb"}
	p := newPainter(context.Background(), model, &out, 1000, func(tea.Msg) {})
	p.every = 0
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	p.Update(tea.WindowSizeMsg{Width: 20, Height: 2})
	out.Reset()
	model.content = "a\n\x1b[1mname\x1b[m    "
	p.Update(nothing{})
	if want := "\x1b[1mname\x1b[m" + ansi.EraseLineRight; !strings.Contains(out.String(), want) {
		t.Fatalf("the row went as %q; want it to end %q", out.String(), want)
	}
}

// Rows padded to the window's width with blanks in the default style, as the session
// draws them, are sent without those blanks: a cleared screen's blank rows not at all,
// the others up to their last mark, then erased to the end of the line. Blanks that show
// (reverse video) are sent.
func TestPainterSendsNoTrailingBlanks(t *testing.T) {
	term := newTerminal(40, 4)
	pad := func(s string, w int) string { return s + strings.Repeat(" ", w) }
	model := &shown{content: strings.Join([]string{
		"\x1b[1;7m" + pad(" title", 34) + "\x1b[m",
		pad("", 40),
		pad("\x1b[1mname\x1b[m", 36) + "\x1b[m",
		pad("plain", 35),
	}, "\n")}
	p := newPainter(context.Background(), model, &term.out, 1000, func(tea.Msg) {})
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	p.Update(tea.WindowSizeMsg{Width: 40, Height: 4})
	term.feed()
	out := term.out.String()
	if strings.Contains(out, "\x1b[2;1H") || strings.Contains(out, "name ") || strings.Contains(out, "plain ") {
		t.Errorf("default-style blanks were sent: %q", out)
	}
	if !strings.Contains(out, pad(" title", 34)) {
		t.Errorf("the reverse-video title bar lost its blanks: %q", out)
	}
	if got := strings.Split(term.em.String(), "\n"); len(got) < 4 || got[2] != "name" || got[3] != "plain" {
		t.Errorf("the screen shows:\n%s", term.em.String())
	}
}

// A colour the session's palette did not lower is lowered to the terminal's profile,
// and a row too wide for the window is cut, not wrapped onto the next.
func TestPainterLowersColoursAndCutsWideRows(t *testing.T) {
	term := newTerminal(10, 3)
	model := &shown{content: "\x1b[38;2;255;0;0mred\x1b[m\n0123456789abc\nnext"}
	p := newPainter(context.Background(), model, &term.out, 1000, func(tea.Msg) {})
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.ANSI})
	p.Update(tea.WindowSizeMsg{Width: 10, Height: 3})
	term.feed()
	if out := term.out.String(); strings.Contains(out, "38;2;") || !strings.Contains(out, "\x1b[91mred") {
		t.Fatalf("the true colour was not lowered to the 16-colour bright red: %q", out)
	}
	if got := strings.Split(term.em.String(), "\n"); len(got) < 3 || got[1] != "0123456789" || got[2] != "next" {
		t.Fatalf("a row wider than the window is not cut at its edge:\n%s", term.em.String())
	}
}

// counted is a model that counts its updates and the frames asked of it.
type counted struct {
	shown
	updates, views int
}

func (c *counted) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	c.updates++
	if _, ok := msg.(nothing); ok {
		c.content += "."
	}
	return c, nil
}

func (c *counted) View() tea.View { c.views++; return c.shown.View() }

// TestOnlyThePainterAsksForFrames runs the painter in a program set up as a session's
// and checks that each update asks the model for its frame once, in the painter:
// tea.Program also asked after every update and for its first frame, for a renderer
// that threw it away, and with screens that changed that was a whole frame rendered
// twice.
func TestOnlyThePainterAsksForFrames(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	model := &counted{}
	prog := newProgram(ctx)
	p := newPainter(ctx, model, io.Discard, 1000, prog.Send)
	p.every = 0
	done := make(chan struct{})
	go func() {
		prog.run(p, tea.ColorProfileMsg{Profile: colorprofile.ANSI256}, tea.WindowSizeMsg{Width: 20, Height: 4})
		close(done)
	}()
	for range 20 {
		prog.Send(nothing{})
	}
	prog.Send(tea.QuitMsg{})
	<-done
	if model.views > model.updates {
		t.Errorf("%d frames asked for in %d updates: only the painter should ask, once per update", model.views, model.updates)
	}
	if model.views == 0 {
		t.Error("the painter never asked for a frame")
	}
}

// A burst of updates within one frame interval renders the frame once, when it is
// due, not once for each (players joining a table redraw every seat's waiting room).
func TestPainterRendersABurstOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	model := &counted{}
	p := newPainter(ctx, model, io.Discard, 10, func(tea.Msg) {})
	p.every = time.Hour // however slow the machine, the burst comes within the interval
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.ANSI256})
	p.Update(tea.WindowSizeMsg{Width: 20, Height: 4}) // the first frame, drawn at once
	first := model.views
	for range 20 {
		p.Update(nothing{})
	}
	if model.views != first {
		t.Fatalf("%d frames rendered for 20 updates within the frame interval; want none until it is due", model.views-first)
	}
	p.Update(drawMsg{}) // as the timer sends it when the frame is due
	if model.views != first+1 {
		t.Fatalf("%d frames rendered when the frame came due; want 1", model.views-first)
	}
}

// framed is a model that gives its frame as rows and changes a row in place, as a
// session's countdown does.
type framed struct {
	shown
	rows []string
}

func (f *framed) Frame() []string                     { return f.rows }
func (f *framed) Update(tea.Msg) (tea.Model, tea.Cmd) { return f, nil }

// The painter takes a framer's rows as they are, and keeps its own copy of what is on
// screen: a row the model changes in place is still drawn.
func TestPainterTakesRowsAndKeepsItsOwnCopy(t *testing.T) {
	term := newTerminal(20, 3)
	model := &framed{rows: []string{"title ⏱ 10s", "body"}}
	p := newPainter(context.Background(), model, &term.out, 1000, func(tea.Msg) {})
	p.every = 0
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	p.Update(tea.WindowSizeMsg{Width: 20, Height: 3})
	term.feed()
	model.rows[0] = "title ⏱ 9s" // in place
	p.Update(nothing{})
	term.feed()
	if got := term.em.String(); !strings.HasPrefix(got, "title ⏱ 9s\nbody") {
		t.Fatalf("the row changed in place is not on screen:\n%s", got)
	}
}

// onARenderer tells whether the calling goroutine is one of the renderers.
func onARenderer() bool { return strings.Contains(string(debug.Stack()), "termrt.renderer(") }

// quickly is a model that takes quickMsg quickly (Prepare) and records where each of
// its updates ran.
type quickly struct {
	framed
	ranOnRenderer map[string]bool // by the message's type
}

type quickMsg struct{}

func (q *quickly) Prepare(msg tea.Msg) (tea.Msg, bool) {
	_, quick := msg.(quickMsg)
	return msg, quick
}

func (q *quickly) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	q.ranOnRenderer[fmt.Sprintf("%T", msg)] = onARenderer()
	q.rows = []string{fmt.Sprintf("after %T", msg)}
	return q, nil
}

// writes records whether each write came from a renderer.
type writes struct {
	bytes.Buffer
	fromRenderer int
}

func (w *writes) Write(b []byte) (int, error) {
	if onARenderer() {
		w.fromRenderer++
	}
	return w.Buffer.Write(b)
}

// A message the model takes quickly is taken on a renderer, and its frame drawn
// there, so the session's goroutine allocates nothing for it (render.go); any other
// message is taken on the session's goroutine, since it may block. Either way the
// terminal is written on the session's goroutine: a player who stops reading must not
// hold a renderer.
func TestQuickMessagesAreTakenOnARenderer(t *testing.T) {
	model := &quickly{framed: framed{rows: []string{"first"}}, ranOnRenderer: map[string]bool{}}
	out := &writes{}
	p := newPainter(context.Background(), model, out, 1000, func(tea.Msg) {})
	p.every = 0
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	p.Update(tea.WindowSizeMsg{Width: 40, Height: 3})
	p.Update(quickMsg{})
	if !model.ranOnRenderer["termrt.quickMsg"] {
		t.Error("a quick message was taken on the session's goroutine")
	}
	// On screen: a changed row is sent from where it changed ("r termrt.quickMsg").
	shows := func(what string) bool {
		em := vt.NewEmulator(40, 3)
		go discardReplies(em)
		_, _ = em.Write(out.Bytes())
		return strings.Contains(em.String(), what)
	}
	if !shows("after termrt.quickMsg") {
		t.Errorf("the quick message's frame was not drawn: %q", out.String())
	}
	p.Update(nothing{})
	if model.ranOnRenderer["termrt.nothing"] {
		t.Error("a message that is not quick was taken on a renderer")
	}
	if !shows("after termrt.nothing") {
		t.Errorf("the other message's frame was not drawn: %q", out.String())
	}
	if out.fromRenderer > 0 {
		t.Errorf("%d writes to the terminal came from a renderer", out.fromRenderer)
	}
}
