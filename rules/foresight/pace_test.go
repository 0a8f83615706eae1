package foresight

import (
	"errors"
	"testing"
	"time"

	"parlor/rules"
)

// A player given ×1.5 may still submit (and change it) after the others' time is up;
// the others may not, and the round waits for nobody else.
func TestMoreTimeForOnePlayer(t *testing.T) {
	g := newGame(t, 3, rules.Options{"timer": "60s"}, 1, threeChoices(5))
	g.SetPace(1, 1.5)
	if d := g.View(1).Head().Deadline; !d.Equal(t0.Add(90 * time.Second)) {
		t.Fatalf("seat 1's deadline %v, want 90 s after the start", d)
	}
	mustApply(t, g, 0, plain(0, 3), t0.Add(5*time.Second))
	at := t0.Add(70 * time.Second)
	if err := g.Apply(2, rules.Encode(plain(2, 3)), at); !errors.Is(err, rules.ErrTimeUp) {
		t.Fatalf("seat 2 submitted after its own deadline: %v", err)
	}
	if err := g.Apply(0, rules.Encode(plain(0, 3)), at); !errors.Is(err, rules.ErrTimeUp) {
		t.Fatalf("seat 0 changed its submission after its own deadline: %v", err)
	}
	mustApply(t, g, 1, plain(1, 3), at)
	if g.phase != PhaseReveal {
		t.Fatalf("phase %s once the last player with time submitted, want the reveal", g.phase)
	}
	// Next round, nobody submits: it ends at the slow seat's deadline.
	g.Tick(at.Add(g.revealFor))
	start := at.Add(g.revealFor)
	if g.Tick(start.Add(89*time.Second)) || g.phase != PhaseAnswering {
		t.Fatalf("phase %s before the slow seat's deadline", g.phase)
	}
	if !g.Tick(start.Add(90*time.Second)) || g.phase != PhaseReveal {
		t.Fatalf("phase %s at the slow seat's deadline", g.phase)
	}
}
