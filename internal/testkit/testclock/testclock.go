// Package testclock is a clock that moves only when a test moves it. The end-to-end
// harness gives one to the server's lobby and moves it on whenever nothing is happening,
// so bots' thinking, reveals and results pauses pass as fast as the machine allows while
// the games still play by their own timings.
//
// It is written here rather than taken from a fake-clock library because the lobby needs
// only Now and a ticker, and Advance must hand every due tick to its reader before it
// returns: that is what makes a step of game time land before the harness looks again.
package testclock

import (
	"sync"
	"time"
)

// Clock is a manual clock; it satisfies lobby.Clock. The zero value is not usable: call New.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	tickers map[*ticker]struct{}
}

type ticker struct {
	every   time.Duration
	next    time.Time
	c       chan time.Time
	stopped chan struct{}
}

// New is a clock that reads start until it is advanced.
func New(start time.Time) *Clock {
	return &Clock{now: start, tickers: map[*ticker]struct{}{}}
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Every returns a ticker that fires when Advance moves the clock past its next tick.
func (c *Clock) Every(d time.Duration) (<-chan time.Time, func()) {
	if d <= 0 {
		panic("testclock: non-positive interval for Every")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	tk := &ticker{every: d, next: c.now.Add(d), c: make(chan time.Time), stopped: make(chan struct{})}
	c.tickers[tk] = struct{}{}
	var once sync.Once
	return tk.c, func() {
		once.Do(func() {
			close(tk.stopped) // first, so an Advance waiting on this ticker goes on
			c.mu.Lock()
			delete(c.tickers, tk)
			c.mu.Unlock()
		})
	}
}

// Advance moves the clock on by d. Every ticker that came due gets one tick (missed
// ones are dropped, as a time.Ticker drops them for a slow reader), and Advance returns
// only once each has been taken by its reader or the ticker stopped.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	now := c.now
	var due []*ticker
	for tk := range c.tickers {
		if tk.next.After(now) {
			continue
		}
		due = append(due, tk)
		for !tk.next.After(now) {
			tk.next = tk.next.Add(tk.every)
		}
	}
	c.mu.Unlock()
	for _, tk := range due {
		select {
		case tk.c <- now:
		case <-tk.stopped:
		}
	}
}
