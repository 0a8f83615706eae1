package server

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
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
	p := newPainter(ctx, model, &term.out, []string{"TERM=xterm-256color"}, 50, func(m tea.Msg) { sent <- m })
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

	// Nothing changed: nothing is written, and no frame is awaited.
	p.Update(nothing{})
	if term.feed() {
		t.Fatalf("an unchanged frame wrote %q", term.out.String())
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
	p := newPainter(context.Background(), model, &term.out, []string{"TERM=xterm"}, 1000, func(tea.Msg) {})
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
// next, and checks the cells after each against the whole frame drawn from nothing.
func TestPainterRedrawsOnlyChangedRowsAsAWholeFrameWould(t *testing.T) {
	const w, h = 30, 8
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"plain", "\x1b[31mred\x1b[m", "\x1b[2mdim\x1b[m  ", "\x1b[1mbold runs on", "\x1b[0m", "\x1b[42mgreen\x1b[0m", "中文", "", "\x1b]8;;https://x\x07link\x1b]8;;\x07"}
	row := func() string {
		var b strings.Builder
		for range rng.IntN(4) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			b.WriteString(" ")
		}
		return b.String()
	}
	var out bytes.Buffer
	model := &shown{}
	p := newPainter(context.Background(), model, &out, []string{"TERM=xterm-256color"}, 1000, func(tea.Msg) {})
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	p.Update(tea.WindowSizeMsg{Width: w, Height: h})
	rows := make([]string, h)
	for frame := range 300 {
		for range 1 + rng.IntN(3) {
			rows[rng.IntN(h)] = row()
		}
		n := h - rng.IntN(3) // a frame may be shorter than the screen
		content := strings.Join(rows[:n], "\n")
		p.fill(content)
		whole := uv.NewScreenBuffer(w, h)
		uv.NewStyledString(content).Draw(whole, whole.Bounds())
		if got, want := p.cells.Render(), whole.Render(); got != want {
			t.Fatalf("frame %d: drawing the changed rows gave\n%q\nthe whole frame gives\n%q\nframe:\n%q", frame, got, want, content)
		}
	}
}

// A row changed between frames whose rows end in a reset is the only row drawn again.
func TestPainterDrawsOnlyTheChangedRow(t *testing.T) {
	var out bytes.Buffer
	p := newPainter(context.Background(), &shown{}, &out, []string{"TERM=xterm-256color"}, 1000, func(tea.Msg) {})
	p.Update(tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	p.Update(tea.WindowSizeMsg{Width: 20, Height: 4})
	rows := []string{"\x1b[1ma\x1b[m  ", "\x1b[2mb\x1b[m", "c", "\x1b[31md\x1b[m"}
	p.fill(strings.Join(rows, "\n"))
	p.scr.Render(p.cells.RenderBuffer) // takes the touched rows
	rows[2] = "\x1b[1mC\x1b[m"
	p.fill(strings.Join(rows, "\n"))
	var drawn []int
	for y, l := range p.cells.Touched {
		if l != nil && (l.FirstCell != -1 || l.LastCell != -1) { // as the renderer reads it
			drawn = append(drawn, y)
		}
	}
	if len(drawn) != 1 || drawn[0] != 2 {
		t.Fatalf("rows %v were drawn again for the one changed row 2", drawn)
	}
}
