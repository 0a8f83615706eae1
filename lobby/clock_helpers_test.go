package lobby_test

import (
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

func (c *fakeClock) Every(d time.Duration) (<-chan time.Time, func()) { return wallTicks(c.Now, d) }

func (c *clock) Every(d time.Duration) (<-chan time.Time, func())     { return wallTicks(c.Now, d) }
func (c *handClock) Every(d time.Duration) (<-chan time.Time, func()) { return wallTicks(c.Now, d) }
