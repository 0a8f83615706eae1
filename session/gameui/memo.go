package gameui

import (
	"sync"
	"sync/atomic"
)

// memo remembers lines for every session of the process, bounded, in two generations:
// new lines go into the current one, and when it holds max entries it becomes the old
// one and the older is dropped. A line found in the old generation moves back into the
// current, so the lines that frames keep drawing stay, and only lines unused for a whole
// generation are drawn again. (Emptying the memo when full, as it first did, made every
// session of a busy server miss on every line of its next frame at once: at 3,000
// players, a second with the box at 100 % and actions taking 0.5–1 s every few seconds.)
//
// Each generation is a sync.Map, not a map behind a mutex: every session fits dozens of
// lines per frame, and with thousands of sessions on two cores one process-wide mutex
// was the largest wait in the scheduler (a runtime trace at 3,000 players: 10 % of the
// time goroutines spent ready to run was behind Fit's mutex). Reads take no lock.
type memo[K comparable] struct {
	cur, old atomic.Pointer[sync.Map]
	n        atomic.Int64 // puts into cur
	max      int64
}

func (c *memo[K]) get(k K) (string, bool) {
	cur := c.cur.Load()
	if cur == nil {
		return "", false
	}
	if v, ok := cur.Load(k); ok {
		return v.(string), true
	}
	old := c.old.Load()
	if old == nil {
		return "", false
	}
	v, ok := old.Load(k)
	if !ok {
		return "", false
	}
	c.put(k, v.(string))
	return v.(string), true
}

func (c *memo[K]) put(k K, v string) {
	cur := c.cur.Load()
	if cur == nil {
		c.cur.CompareAndSwap(nil, new(sync.Map))
		cur = c.cur.Load()
	}
	if c.n.Add(1) == c.max+1 { // exactly one put turns the generation
		c.old.Store(cur)
		cur = new(sync.Map)
		c.cur.Store(cur)
		c.n.Store(1)
	}
	cur.Store(k, v)
}
