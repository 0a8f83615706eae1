package session

import (
	"errors"
	"strings"
	"testing"
)

// L in the lobby remembers the linear mode for the player's key, and says how to get it
// now; a guest, or a store that fails, is told so and nothing is remembered.
func TestLobbyRemembersTheLinearMode(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.press("L")
	if !strings.Contains(h.flat(), "linear mode") || !strings.Contains(h.flat(), "SSH key") {
		t.Fatalf("a guest's L:\n%s", h.screen())
	}

	h = newHarness(t, "Zed", 80, 24)
	calls := 0
	h.m.o.Linear = func() error { calls++; return nil }
	h.press("L")
	if calls != 1 || !strings.Contains(h.flat(), "Saved: your next connection with this key starts in the linear mode") ||
		!strings.Contains(h.flat(), "ssh HOST plain") {
		t.Fatalf("L called Linear %d times:\n%s", calls, h.screen())
	}

	h = newHarness(t, "Zed", 80, 24)
	h.m.o.Linear = func() error { return errors.New("disk full") }
	h.press("L")
	if !strings.Contains(h.flat(), "Could not save the linear mode: disk full") {
		t.Fatalf("a failed save:\n%s", h.screen())
	}
	h.press("?")
	for i := 0; i < 5 && !strings.Contains(h.flat(), "plain the linear mode"); i++ {
		h.press("pgdown")
	}
	if !strings.Contains(h.flat(), "plain the linear mode") {
		t.Fatalf("the lobby's help does not mention the linear mode:\n%s", h.screen())
	}
}
