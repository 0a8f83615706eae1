package lobby

import (
	"sync"
	"time"
)

// Clock is the time a lobby's tables live by: every action, tick, bot delay and game
// deadline reads Now, and every table ticks on a ticker from Every. A server runs on
// the wall clock; the end-to-end tests pass a clock they move on themselves whenever
// nothing else is happening, so whole games run as fast as the machine allows.
type Clock interface {
	Now() time.Time
	// Every returns a channel that delivers the time every d, and a function that stops
	// it; a slow reader misses ticks rather than queueing them, as with time.Ticker.
	Every(d time.Duration) (ticks <-chan time.Time, stop func())
}

// WallClock is the real time.
type WallClock struct{}

// Now is time.Now.
func (WallClock) Now() time.Time { return time.Now() }

// Every is a time.Ticker.
func (WallClock) Every(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// Sped is the wall clock run that many times faster: bots think, timers run out and
// reveals pass sooner, for demos and for tests of the real binary. Its time counts from a
// fixed origin, so a server restarted at the same speed goes on from the game time it
// stopped at, the downtime it measures is the real one, sped up like everything else, and
// every node of a cluster (which needs the same speed) reads the same game time.
//
// Game time so runs years ahead of the wall clock, so no player is shown it: what they
// read as a time of day (a chat line's, the API's times) is the wall-clock time at which
// the game time passes (Wall, Shown).
type Sped int

// spedOrigin is where sped game time and the wall clock meet. Game time runs ahead of
// the wall clock by (speed-1) times the time since; at the top speed it stays inside
// what nanoseconds since 1970 can hold (up to the year 2262) until 2037.
var spedOrigin = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// MaxSpeed is the fastest a Sped clock may run.
const MaxSpeed = 20

// Now is the origin plus the wall time since it, sped up.
func (s Sped) Now() time.Time {
	since := time.Since(spedOrigin)
	at := spedOrigin
	for range max(int(s), 1) { // repeated adds: since*s could overflow a Duration
		at = at.Add(since)
	}
	return at
}

// Wall is the wall-clock time at which game time at passes (or passed) on this clock.
func (s Sped) Wall(at time.Time) time.Time {
	return spedOrigin.Add(at.Sub(spedOrigin) / time.Duration(max(s, 1))).Local()
}

// Every is a time.Ticker at d sped up (at least a millisecond), delivering game time.
func (s Sped) Every(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(max(d/time.Duration(max(s, 1)), time.Millisecond))
	out := make(chan time.Time, 1)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-t.C:
			case <-done:
				return
			}
			select {
			case out <- s.Now():
			case <-done:
				return
			default: // a slow reader misses the tick, as with time.Ticker
			}
		}
	}()
	var once sync.Once
	return out, func() { once.Do(func() { t.Stop(); close(done) }) }
}

// ApartClock is a clock whose game time runs apart from the wall clock (Sped).
type ApartClock interface {
	Clock
	// Wall is the wall-clock time at which game time at passes (or passed).
	Wall(at time.Time) time.Time
}

// Shown is the wall-clock time at which game time at passes on c: the time of day a
// player is shown for it (a chat line's, the API's deadlines and now). Any clock but an
// ApartClock shows its time as it is (the wall clock, the tests' clocks); no time stays
// none.
func Shown(c Clock, at time.Time) time.Time {
	if w, ok := c.(ApartClock); ok && !at.IsZero() {
		return w.Wall(at)
	}
	return at
}
