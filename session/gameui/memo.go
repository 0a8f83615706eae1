package gameui

import (
	"sync"
	"sync/atomic"
)

// memo remembers lines for every session of the process, bounded: when it holds max
// entries it is emptied, and a burst of new lines costs one drawing each, not memory.
//
// It is a sync.Map, not a map behind a mutex: every session fits dozens of lines per
// frame, and with thousands of sessions on two cores one process-wide mutex was the
// largest wait in the scheduler (a runtime trace at 3,000 players: 10 % of the time
// goroutines spent ready to run was behind Fit's mutex, which hands itself to the next
// waiter and sends the one that unlocked to the back of the queue). Reads take no lock.
type memo[K comparable] struct {
	m   sync.Map
	n   atomic.Int64
	max int64
}

func (c *memo[K]) get(k K) (string, bool) {
	v, ok := c.m.Load(k)
	if !ok {
		return "", false
	}
	return v.(string), true
}

func (c *memo[K]) put(k K, v string) {
	if c.n.Add(1) > c.max {
		c.n.Store(1)
		c.m.Clear()
	}
	c.m.Store(k, v)
}
