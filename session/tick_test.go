package session

import (
	"strings"
	"testing"
	"time"

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

// A countdown redraws its own line, the title bar, and nothing else of the frame.
func TestTickRedrawsOnlyTheClocksLine(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
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
	h.m.dirty = true // what a full drawing shows now is what the line shows
	if full := strings.Split(h.m.View().Content, "\n"); full[0] != after[0] {
		t.Fatalf("the redrawn line %q differs from a full drawing's %q", ansi.Strip(after[0]), ansi.Strip(full[0]))
	}
}
