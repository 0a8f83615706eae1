package session

import (
	"strings"
	"testing"

	"parlor/rules"
)

// The host's T gives the picked seat more time, step by step and back: the seat list
// marks it, the player's clock says it, and the help says what T does.
func TestTheHostGivesASeatMoreTime(t *testing.T) {
	h := newHarness(t, "Amy", 80, 24)
	h.sitAt("foresight", rules.Options{"timer": "60s"}, 3)
	h.press("esc") // the room, seats in focus, Amy's own seat picked
	h.press("?")
	if !h.scrollToFind("T more time for the picked seat") {
		t.Fatalf("the help does not list T:\n%s", h.screen())
	}
	h.press("esc")
	h.press("T")
	h.pump(func() bool { return strings.Contains(h.screen(), "Amy ★host ×1.5") })
	h.press("T")
	h.pump(func() bool { return strings.Contains(h.screen(), "Amy ★host ×2") })
	h.press("esc") // the game: Amy's own clock, 120 s, says why
	h.pump(func() bool { return strings.Contains(h.lines()[0], "left (×2)") })
	if !strings.Contains(h.lines()[0], "2:00 left (×2)") {
		t.Fatalf("Amy's clock does not show her own time: %q", h.lines()[0])
	}
	h.press("esc", "T")
	h.pump(func() bool { return strings.Contains(h.screen(), "Amy ★host ×3") })
	h.press("T") // back to ×1
	h.pump(func() bool { return strings.Contains(h.screen(), "Amy ★host ← you") })
}

// Another player cannot give themselves more time: T is the host's.
func TestMoreTimeIsNotAPlayersKey(t *testing.T) {
	ts := tableScreen{}
	ts.u.Seat = 0
	ts.u.Table.Seats = append(ts.u.Table.Seats, ts.u.Table.Seats...)
	if ts.roomKeymap().MoreTime.Enabled() {
		t.Fatal("T is enabled for a player who is not the host")
	}
	for more, want := range map[rules.Factor]rules.Factor{0: 1.5, 1.5: 2, 2: 3, 3: 1} {
		if got := nextFactor(more); got != want {
			t.Errorf("after %v T gives %v, want %v", more, got, want)
		}
	}
}
