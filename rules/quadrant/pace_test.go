package quadrant

import (
	"errors"
	"testing"
	"time"

	"parlor/rules"
)

// Placing is each player's own time: one given ×2 may still move and lock once the
// others' tokens are locked where they stood; they may not.
func TestMoreTimeToPlace(t *testing.T) {
	g := newGame(t, 4, rules.Options{OptMode: ModeCompetitive, OptPlacement: "60s", OptVoting: "60s"})
	g.SetPace(1, 2)
	at := t0.Add(61 * time.Second)
	if g.Tick(at) || g.phase != PhasePlacement {
		t.Fatalf("phase %s after the others' time, with seat 1's still running", g.phase)
	}
	if err := g.Apply(0, rules.Encode(Move{Type: TypeMove, X: 1, Y: 1}), at); !errors.Is(err, rules.ErrTimeUp) {
		t.Fatalf("seat 0 moved after its own deadline: %v", err)
	}
	if err := g.Apply(1, rules.Encode(Move{Type: TypeMove, X: 2, Y: 2}), at); err != nil {
		t.Fatalf("seat 1 could not move within its own time: %v", err)
	}
	if err := g.Apply(1, rules.Encode(Lock{Type: TypeLock}), at); err != nil {
		t.Fatal(err)
	}
	if g.phase != PhaseVoting {
		t.Fatalf("phase %s once the last player with time locked, want voting", g.phase)
	}
	for seat := range 4 {
		if !g.locked[seat] {
			t.Errorf("seat %d's token was not locked when time ran out", seat)
		}
	}
}

// The team's ballot is the team's turn: it lasts as long as its slowest member's time,
// and the placing team is not slowed by it.
func TestMoreTimeForATeamsBallot(t *testing.T) {
	g := newGame(t, 8, rules.Options{OptMode: ModeTeam, OptPlacement: "off", OptVoting: "60s"})
	g.SetPace(1, 3) // seat 1 is on team B, which agrees on the ballot in round 1
	if d := g.View(1).Head().Deadline; !d.IsZero() {
		t.Fatalf("an untimed placing shows deadline %v", d)
	}
	atTeamVote(t, g)
	if g.phase != PhaseTeamVote {
		t.Fatalf("phase %s, want the team's ballot", g.phase)
	}
	for _, seat := range []int{1, 3, rules.Spectator} {
		if d := g.View(seat).Head().Deadline; !d.Equal(t0.Add(180 * time.Second)) {
			t.Fatalf("seat %d sees the ballot's deadline %v, want 180 s", seat, d)
		}
	}
	if g.Tick(t0.Add(179*time.Second)) || !g.Tick(t0.Add(180*time.Second)) || g.phase != PhaseScoring {
		t.Fatalf("the ballot did not end at the slowest member's deadline (phase %s)", g.phase)
	}
}
