package topfive

import (
	"errors"
	"testing"
	"time"

	"parlor/rules"
)

// A Guesser given ×2 ranks after the others' time is up; a Guesser without it cannot,
// and is out of time when the round goes on; nobody waits longer than the slow seat.
func TestMoreTimeForOneGuesser(t *testing.T) {
	g := newGame(t, seatNames(3), rules.Options{OptTimer: "60s"}, 5)
	g.SetPace(2, 2)
	if d := g.View(2).Head().Deadline; !d.Equal(t0.Add(120 * time.Second)) {
		t.Fatalf("seat 2's deadline %v, want 120 s after the start", d)
	}
	if d := g.View(1).Head().Deadline; !d.Equal(t0.Add(60 * time.Second)) {
		t.Fatalf("seat 1's deadline %v, want 60 s after the start", d)
	}
	mustApply(t, g, 0, NewRank(r5(1, 2, 3, 4, 5), -1), t0.Add(10*time.Second)) // the Player of Honour
	at := t0.Add(60 * time.Second)
	if g.Tick(at) || g.phase != PhaseRanking {
		t.Fatalf("the ranking ended at seat 1's deadline, with seat 2's still to come (phase %s)", g.phase)
	}
	if err := g.Apply(1, rules.Encode(NewRank(r5(1, 2, 3, 4, 5), 0)), at); !errors.Is(err, rules.ErrTimeUp) {
		t.Fatalf("seat 1 ranked after its own deadline: %v", err)
	}
	if d := g.View(rules.Spectator).Head().Deadline; !d.Equal(t0.Add(120 * time.Second)) {
		t.Fatalf("the table's clock shows %v, want seat 2's deadline", d)
	}
	mustApply(t, g, 2, NewRank(r5(1, 2, 3, 4, 5), 0), t0.Add(100*time.Second))
	if g.phase != PhaseReveal {
		t.Fatalf("phase %s once the last seat with time ranked, want the reveal", g.phase)
	}
	if g.secret[1] != nil {
		t.Fatal("seat 1's late ranking counted")
	}
}

// A Player of Honour given ×3 who never ranks forfeits the round at their own deadline,
// not the table's.
func TestMoreTimeForThePlayerOfHonour(t *testing.T) {
	g := newGame(t, seatNames(3), rules.Options{OptTimer: "30s"}, 5)
	g.SetPace(0, 3)
	mustApply(t, g, 1, NewRank(r5(1, 2, 3, 4, 5), 0), t0)
	mustApply(t, g, 2, NewRank(r5(1, 2, 3, 4, 5), 0), t0)
	if g.Tick(t0.Add(89*time.Second)) || g.phase != PhaseRanking {
		t.Fatalf("phase %s before the Player of Honour's own deadline", g.phase)
	}
	if !g.Tick(t0.Add(90*time.Second)) || g.tally == nil || !g.tally.Forfeit {
		t.Fatalf("no forfeit at the Player of Honour's own deadline (phase %s)", g.phase)
	}
}
