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

// What a player is shown of a sped clock's time is the wall clock's: the game time it
// reads now passes now. Another clock's time is shown as it is, and no time stays none.
func TestASpedClocksTimeIsShownAsTheWallClocks(t *testing.T) {
	for _, s := range []lobby.Sped{1, 10, lobby.MaxSpeed} {
		before := time.Now()
		got := lobby.Shown(s, s.Now())
		after := time.Now()
		if got.Before(before) || got.After(after) {
			t.Errorf("Sped(%d): now is shown as %v, want between %v and %v", s, got, before, after)
		}
		// A deadline a minute of game time away passes a minute/s from now.
		at := s.Now()
		if d := lobby.Shown(s, at.Add(time.Minute)).Sub(lobby.Shown(s, at)); d != time.Minute/time.Duration(s) {
			t.Errorf("Sped(%d): a minute of game time is %v of the wall clock's", s, d)
		}
		if !lobby.Shown(s, time.Time{}).IsZero() {
			t.Errorf("Sped(%d): no time is shown as a time", s)
		}
	}
	if at := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC); !lobby.Shown(lobby.WallClock{}, at).Equal(at) {
		t.Errorf("the wall clock's %v is shown as %v", at, lobby.Shown(lobby.WallClock{}, at))
	}
}
