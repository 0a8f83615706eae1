package talltale

import (
	"errors"
	"testing"
	"time"

	"parlor/rules"
)

// A narrator given ×2 has twice the time to tell (the reminder's 15 s come after it);
// in the race, a racer given ×1.5 places after the others' time is up, and they may not.
func TestMoreTimeForOnePlayer(t *testing.T) {
	g := newGame(t, 3, 7, rules.Options{OptTimer: "60s", OptRaceTime: "60s"})
	n := g.narrator
	g.SetPace(n, 2)
	if g.Tick(t0.Add(119*time.Second)) || g.reminded {
		t.Fatal("the narrator was reminded before their own time was up")
	}
	if !g.Tick(t0.Add(120*time.Second)) || !g.reminded {
		t.Fatal("no reminder at the narrator's own time")
	}
	if d := g.View(rules.Spectator).Head().Deadline; !d.Equal(t0.Add(135 * time.Second)) {
		t.Fatalf("the table's clock shows %v, want 135 s", d)
	}
	g.drawn = []int{0, 1, 2, 3}
	g.discarded, g.kept = -1, nil
	at := t0.Add(130 * time.Second)
	mustApplyAt(t, g, n, Discard{Type: "discard", Card: 0}, at)
	mustApplyAt(t, g, n, Story{Type: "story", Text: "Once upon a time there was a long walk."}, at)
	slow, quick := (n+1)%3, (n+2)%3
	g.SetPace(slow, 1.5)
	late := at.Add(70 * time.Second)
	if g.Tick(late) || g.phase != PhaseRace {
		t.Fatalf("the race ended at the quick racer's deadline (phase %s)", g.phase)
	}
	if err := g.Apply(quick, act(Token{Type: "token", Card: 1}), late); !errors.Is(err, rules.ErrTimeUp) {
		t.Fatalf("the quick racer placed after its own deadline: %v", err)
	}
	mustApplyAt(t, g, slow, Token{Type: "token", Card: 1}, late)
	if !g.Tick(at.Add(90*time.Second)) || g.phase != PhaseReveal {
		t.Fatalf("the race did not end at the slow racer's deadline (phase %s)", g.phase)
	}
}
