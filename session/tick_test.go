package session

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// A second passing on a screen without a clock changes nothing and draws nothing.
func TestTickWithoutAClockDrawsNothing(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	before := h.m.View().Content
	h.clock.Advance(time.Second)
	h.m.Update(tickMsg(h.clock.Now()))
	if h.m.dirty {
		t.Fatal("a tick on the lobby marked the frame to be drawn again")
	}
	if after := h.m.View().Content; after != before {
		t.Fatalf("a tick changed the lobby:\n%s\n---\n%s", before, after)
	}
}

// A countdown redraws its own line, the title bar, and nothing else of the frame; in
// the terminal's own colours too.
func TestTickRedrawsOnlyTheClocksLine(t *testing.T) {
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256} {
		t.Run(p.String(), func(t *testing.T) { tickRedrawsOnlyTheClocksLine(t, p) })
	}
}

func tickRedrawsOnlyTheClocksLine(t *testing.T, p colorprofile.Profile) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.Update(tea.ColorProfileMsg{Profile: p})
	h.sitAt("quadrant", nil, 4)
	before := strings.Split(h.m.View().Content, "\n")
	if !strings.Contains(ansi.Strip(before[0]), "⏱") {
		t.Fatalf("no countdown in the title: %q", ansi.Strip(before[0]))
	}
	h.clock.Advance(time.Second)
	h.m.Update(tickMsg(h.clock.Now()))
	if h.m.dirty {
		t.Fatal("the tick marked the whole frame to be drawn again")
	}
	after := strings.Split(h.m.View().Content, "\n")
	if after[0] == before[0] {
		t.Fatalf("the countdown did not move: %q", ansi.Strip(after[0]))
	}
	if strings.Join(after[1:], "\n") != strings.Join(before[1:], "\n") {
		t.Fatal("the tick changed more than the title bar")
	}
	h.m.dirty, h.m.drawn = true, nil // a full drawing, every line recoloured afresh
	if full := h.m.View().Content; full != strings.Join(after, "\n") {
		t.Fatalf("the frame with the redrawn line differs from a full drawing:\n%q\n---\n%q", strings.Join(after, "\n"), full)
	}
	// A move redraws the frame, keeping the recoloured lines that did not change.
	h.press("right")
	moved := h.m.View().Content
	h.m.dirty, h.m.drawn = true, nil
	if full := h.m.View().Content; moved == strings.Join(after, "\n") || full != moved {
		t.Fatalf("after a move the frame is not what a full drawing shows:\n%q\n---\n%q", moved, full)
	}
}
