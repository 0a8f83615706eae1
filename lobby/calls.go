package lobby

// Calls sent more than once. A cluster node's session sends its call to the table's
// owner again, under the same id, when no answer came (the owner died after applying
// it, or NATS was slow): the table answers a call it has already applied "ok" without
// applying it again. The ids of the calls that changed the game, or said a chat line,
// travel in the entries they made (record.Call), and a snapshot carries the table's recent ones
// (record.Calls), so the node that restores a table from its log knows them too. A log
// without ids (an older version's) restores as before, knowing none.

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
// for none): a cluster's session sends a call whose answer did not come again. An
// action or a game's start the table has applied under that id is answered "ok" and
// not applied again, and so is a chat line said under it; the other operations are run
// as Call runs them (the cluster's owner answers a repeat of its own last call for them).
func (m *Member) CallOnce(id string, req Request) (any, error) {
	if id == "" {
		return m.Call(req)
	}
	var err error
	switch r := req.(type) {
	case Act:
		err = m.act(id, r.Action)
	case Start:
		err = m.start(id)
	case Chat:
		err = m.chat(id, r.Text)
	default:
		return m.Call(req)
	}
	if err != nil {
		return nil, err
	}
	return Done{}, nil
}
