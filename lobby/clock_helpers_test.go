package lobby_test

import (
	"sync"
	"sync/atomic"
	"time"

	"parlor/lobby"
)

// wallTicks ticks every d of real time, each tick reading now: for the tests whose clock
// a test sets by hand while the tables still look at it on their own.
func wallTicks(now func() time.Time, d time.Duration) (<-chan time.Time, func()) {
	wall, stopWall := lobby.WallClock{}.Every(d)
	out, done := make(chan time.Time), make(chan struct{})
	go func() {
		for {
			select {
			case <-wall:
				select {
				case out <- now():
				case <-done:
					return
				}
			case <-done:
				return
			}
		}
	}()
	return out, func() { stopWall(); close(done) }
}

// handClock is a clock a test sets by hand; the tables still tick on their own, every
// tick reading the hand-set time.
type handClock struct {
	mu     sync.Mutex
	at     time.Time
	ticked atomic.Int64 // ticks its tickers have started to hand over
}

func newHandClock(at time.Time) *handClock { return &handClock{at: at} }

func (c *handClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

// Advance moves the clock on by d.
func (c *handClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.at = c.at.Add(d)
	c.mu.Unlock()
}

func (c *handClock) Every(d time.Duration) (<-chan time.Time, func()) {
	return wallTicks(func() time.Time { c.ticked.Add(1); return c.Now() }, d)
}

// ticksAfter waits until a table on this clock has taken every tick that started before
// the call and one more whole tick after it: then whatever the tables do with the time
// the clock reads now (timers, bots) is done. It gives up after a second, for a table
// that has stopped.
func (c *handClock) ticksAfter(moved func() bool) {
	// Tick n+3 reads the clock only once tick n+2 was taken, so after tick n+1, the first
	// to start after this call, was acted on.
	until := c.ticked.Load() + 2
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if moved() || c.ticked.Load() > until {
			return
		}
	}
}
