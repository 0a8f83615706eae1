package lobby_test

import (
	"sync"
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
	mu sync.Mutex
	at time.Time
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

func (c *handClock) Every(d time.Duration) (<-chan time.Time, func()) { return wallTicks(c.Now, d) }

// spedOrigin is where lobby.Sped's game time and the wall clock meet.
var spedOrigin = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// spedHand is game time run speed times faster than a wall clock the test sets by hand,
// the way lobby.Sped runs it from the real one (--game-speed): it reads years ahead of
// its wall clock, and says which wall time a game time passes at.
type spedHand struct {
	wall  *handClock
	speed int
}

func (c spedHand) Now() time.Time {
	return spedOrigin.Add(time.Duration(c.speed) * c.wall.Now().Sub(spedOrigin))
}

// Wall is the wall-clock time at which game time at passes.
func (c spedHand) Wall(at time.Time) time.Time {
	return spedOrigin.Add(at.Sub(spedOrigin) / time.Duration(c.speed))
}

func (c spedHand) Every(d time.Duration) (<-chan time.Time, func()) { return wallTicks(c.Now, d) }
