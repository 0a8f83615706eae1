package lobby

import "time"

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
