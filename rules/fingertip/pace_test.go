package fingertip

import (
	"errors"
	"testing"
	"time"

	"parlor/rules"
)

// The clue-giver given ×2 has twice the clue time; in the race, a guesser given ×3 may
// still point once the others' time is up, and they may not.
func TestMoreTimeForOnePlayer(t *testing.T) {
	g := newGame(t, 3, 4, rules.Options{OptClueTime: "30s", OptRaceTime: "30s"})
	active := g.active
	slow, quick := (active+1)%3, (active+2)%3
	g.SetPace(active, 2)
	g.SetPace(slow, 3)
	if g.Tick(t0.Add(59*time.Second)) || g.phase != PhaseClue {
		t.Fatalf("the clue timed out before the clue-giver's own deadline (phase %s)", g.phase)
	}
	at := t0.Add(50 * time.Second)
	mustApply(t, g, active, Clue{Type: TypeClue, Text: "sea"}, at)
	if d := g.View(slow).Head().Deadline; !d.Equal(at.Add(90 * time.Second)) {
		t.Fatalf("the slow guesser's deadline %v, want 90 s after the clue", d)
	}
	if d := g.View(quick).Head().Deadline; !d.Equal(at.Add(30 * time.Second)) {
		t.Fatalf("the other guesser's deadline %v, want 30 s after the clue", d)
	}
	wrong := 1 + (g.target+1)%9
	late := at.Add(40 * time.Second)
	if g.Tick(late) || g.phase != PhaseRace {
		t.Fatalf("the race ended at the quick guesser's deadline (phase %s)", g.phase)
	}
	if err := g.Apply(quick, act(Point{Type: TypePoint, Position: g.target + 1}), late); !errors.Is(err, rules.ErrTimeUp) {
		t.Fatalf("the quick guesser pointed after its own deadline: %v", err)
	}
	mustApply(t, g, slow, Point{Type: TypePoint, Position: wrong}, late)
	if g.phase != PhaseReveal || g.last.Ending != EndTimeUp {
		t.Fatalf("phase %s after the last guesser with time pointed wrongly, want the reveal of a race run out", g.phase)
	}
}
