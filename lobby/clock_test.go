package lobby_test

import (
	"testing"
	"time"

	"parlor/lobby"
)

// spedBetween is the time a Sped clock must read when it is read between before and
// after on the wall clock: the origin plus speed times the wall time since.
func spedBetween(s lobby.Sped, before, after time.Time) (lo, hi time.Time) {
	origin := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	lo, hi = origin, origin
	for range int(s) {
		lo, hi = lo.Add(before.Sub(origin)), hi.Add(after.Sub(origin))
	}
	return lo, hi
}

func TestSpedClockRunsFasterFromAFixedOrigin(t *testing.T) {
	for _, s := range []lobby.Sped{1, 10, lobby.MaxSpeed} {
		before := time.Now()
		got := s.Now()
		after := time.Now()
		lo, hi := spedBetween(s, before, after)
		if got.Before(lo) || got.After(hi) {
			t.Errorf("Sped(%d).Now() = %v, want between %v and %v", s, got, lo, hi)
		}
	}
	// The same origin for every clock: a server restarted at the same speed reads on
	// from where it stopped, not from the wall clock.
	if a, b := lobby.Sped(10).Now(), lobby.Sped(10).Now(); b.Before(a) {
		t.Errorf("a second Sped clock went back in time: %v then %v", a, b)
	}
}

func TestSpedClockTicksInGameTime(t *testing.T) {
	s := lobby.Sped(lobby.MaxSpeed)
	// A ticker of an hour of game time ticks after three minutes of the wall clock; one
	// of a second, after 50 ms. Only the second may tick while this test waits.
	slow, stopSlow := s.Every(time.Hour)
	defer stopSlow()
	fast, stopFast := s.Every(time.Second)
	before := s.Now()
	select {
	case at := <-fast:
		if at.Before(before) {
			t.Errorf("tick at %v, before the ticker started at %v", at, before)
		}
	case <-slow:
		t.Fatal("the hour ticker ticked before the second one")
	case <-time.After(time.Minute):
		t.Fatal("a ticker of one game second did not tick in a minute")
	}
	stopFast()
	stopFast() // stopping twice is harmless
}
