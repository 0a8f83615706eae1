package lobby

import "time"

// Calls sent more than once. A cluster node's session sends its call to the table's
// owner again, under the same id, when no answer came (the owner died after applying
// it, or NATS was slow): the table answers a call it has already applied "ok" without
// applying it again. That holds for every operation that changes the table (an action,
// a chat line, a game's start, each host control), by one rule: the step that applies a
// call (Member.do) remembers its id, and every log entry the step writes carries it
// (record.Call), while a snapshot carries the table's recent ones (record.Calls), so the
// node that restores a table from its log knows them too. A call that changed nothing
// the log keeps leaves its id in memory only: after a restore its effect is gone as
// well, and it may be applied again. A log without ids (an older version's) restores
// as before, knowing none.

// keptCalls bounds the ids a table remembers: a call is sent again within a move's
// wait (moveWait, seconds), while at most a few other calls were applied since.
const keptCalls = 128

// callSet is the ids of the calls a table applied lately, the oldest forgotten first.
type callSet struct {
	ids   map[string]struct{}
	order []string
}

func (c *callSet) has(id string) bool {
	_, ok := c.ids[id]
	return ok
}

func (c *callSet) add(id string) {
	if id == "" || c.has(id) {
		return
	}
	if c.ids == nil {
		c.ids = map[string]struct{}{}
	}
	if len(c.order) >= keptCalls {
		delete(c.ids, c.order[0])
		c.order = append(c.order[:0], c.order[1:]...)
	}
	c.ids[id] = struct{}{}
	c.order = append(c.order, id)
}

// list is the ids, oldest first (a copy).
func (c *callSet) list() []string { return append([]string(nil), c.order...) }

// CallOnce is Call for a request that may come more than once under the same id (""
// for none): a cluster's session sends a call whose answer did not come again. One the
// table has applied under that id is answered "ok" and not applied again. Leaving is
// not counted: it is sent once, its connection going anyway.
func (m *Member) CallOnce(id string, req Request) (any, error) {
	if !Departs(req) {
		m.call = id
		defer func() { m.call = "" }()
	}
	return m.Call(req)
}

// do runs f on the table's actor for the call the member runs (m.call; t.do when none):
// a call applied already under its id is answered ok without running f, and one f
// applies leaves its id in the table's memory and in the step's log entries.
//
// A member's operation that reads before it changes calls t.do for the read: only the
// step that applies the call may remember it.
func (m *Member) do(f func(now time.Time) error) error {
	id := m.call
	if id == "" {
		return m.t.do(f)
	}
	return m.t.do(func(now time.Time) error {
		t := m.t
		if t.calls.has(id) {
			return nil // applied already: this is the same call again
		}
		if err := f(now); err != nil {
			t.call = "" // refused: nothing of it is kept, nor its id
			return err
		}
		t.calls.add(id)
		t.call = id // until the step's end: every entry endStep writes carries it
		return nil
	})
}
