package server

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/vt"
)

// shown is a model whose frame is whatever the test sets.
type shown struct{ content string }

func (s *shown) Init() tea.Cmd                       { return nil }
func (s *shown) Update(tea.Msg) (tea.Model, tea.Cmd) { return s, nil }
func (s *shown) View() tea.View                      { return tea.NewView(s.content) }

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

func newTerminal(tb testing.TB, w, h int) *terminal {
	t := &terminal{em: vt.NewEmulator(w, h), cursor: true}
	t.em.SetCallbacks(vt.Callbacks{
		CursorVisibility: func(v bool) { t.cursor = v },
		Title:            func(s string) { t.title = s },
	})
	// The emulator answers the painter's queries into a pipe that must be read, or its
	// Write blocks; the answers themselves are not needed here.
	// Closed once the test has written its last (from this goroutine), so no write races it.
	done := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, t.em); close(done) }()
	tb.Cleanup(func() { _ = t.em.Close(); <-done })
	return t
}

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
	term := newTerminal(t, 20, 4)
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
	term := newTerminal(t, 20, 4)
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
