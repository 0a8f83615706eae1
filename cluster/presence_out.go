package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"time"

	"parlor/lobby"
)

// A node's own presence, as it puts it: its items (a table with who sits there, a name
// in use) are spread over chunks, each a key of the nodes bucket, presence.NODE.N. An
// item stays in its chunk while it lives, so a table that changes rewrites its own
// chunk only, and an idle node puts each chunk once every presenceRefresh: its puts
// grow with its tables by one per chunkFill bytes of presence per presenceRefresh,
// about one put a second more per 20,000 tables (the figures are in docs/cluster.md).
//
// Items move between chunks only when a chunk grows past chunkMax (its tables grew) or
// when the chunks are far emptier than they need be (tables closed): the last chunk is
// then emptied into the others. A chunk an item moves to is put before the chunk it
// leaves, so another node sees it in both for a moment (and counts it once: the newer
// chunk wins, presence.merge), never in neither; a chunk that received items is not
// emptied before it is put, so that order holds across a failed put. Keys this node no
// longer uses — an emptied chunk, the chunks of an earlier run under the same name
// beyond this run's, the whole presence of an earlier version (NODE) — are deleted
// after the puts.

// chunkMax bounds a chunk's value (JSON bytes; NATS's default max payload is 1 MB):
// a chunk that grows past it gives items away. New items go where a chunk is below
// chunkFill, so that a chunk's tables may grow for a while before any item moves. An
// item alone bigger than chunkMax has a chunk of its own. Variables for tests.
var (
	chunkMax  = 128 << 10
	chunkFill = 96 << 10
)

// presenceRefresh is how often a node puts each chunk of its presence even if nothing
// changed: half the bucket's TTL (10 leases), so that a key outlives a few failed puts
// (a failed put is tried again the next round), and a node starting reads every
// presence.
func (n *Node) presenceRefresh() time.Duration { return 5 * n.cfg.Lease }

// wallNow is the clock presence refreshes go by.
func (n *Node) wallNow() time.Time {
	if n.wall != nil {
		return n.wall()
	}
	return time.Now()
}

// presenceOut is this node's presence as it puts it.
type presenceOut struct {
	mu      sync.Mutex // one round at a time (the loop; tests run rounds by hand too)
	chunks  []*outChunk
	where   map[string]int // item id (t:CODE, n:NAMEKEY) → its chunk
	online  int
	credit  float64 // refreshes the rounds may do before they are due (putPresence)
	stopped bool    // the node left: nothing is put any more
}

// outChunk is one chunk of this node's presence.
type outChunk struct {
	items map[string][]byte // item id → the item's JSON
	size  int               // the chunk's JSON bytes, without the head
	dirty bool              // changed since it was last put
	// shed: items moved out of it to other chunks, which are put first; gained: items
	// moved into it since it was last put, so nothing moves out of it until then.
	shed, gained bool
	put          []byte    // the value last put
	putAt        time.Time // when (wallNow)
}

func (c *outChunk) set(id string, b []byte) {
	if old, ok := c.items[id]; ok {
		c.size -= len(old) + 1
	}
	c.items[id] = b
	c.size += len(b) + 1
	c.dirty = true
}

func (c *outChunk) remove(id string) {
	if old, ok := c.items[id]; ok {
		c.size -= len(old) + 1
		delete(c.items, id)
		c.dirty = true
	}
}

// value is the chunk's JSON: an array of its items in the order of their ids (so that
// equal content is equal bytes), after the head for chunk 0.
func (c *outChunk) value(head []byte) []byte {
	ids := slices.Sorted(maps.Keys(c.items))
	b := make([]byte, 0, c.size+len(head)+2)
	b = append(b, '[')
	if head != nil {
		b = append(b, head...)
	}
	for i, id := range ids {
		if i > 0 || head != nil {
			b = append(b, ',')
		}
		b = append(b, c.items[id]...)
	}
	return append(b, ']')
}

// presenceItems is a lobby's local state as the items of its node's presence, by id.
func presenceItems(st lobby.Local) map[string][]byte {
	items := make(map[string][]byte, len(st.Tables)+len(st.Names))
	for i := range st.Tables {
		info := &st.Tables[i]
		if b, err := json.Marshal(presenceItem{Table: info, Seated: st.Seated[info.Code]}); err == nil {
			items["t:"+info.Code] = b
		}
	}
	for name, id := range st.Names {
		if b, err := json.Marshal(presenceItem{Name: name, ID: id}); err == nil {
			items["n:"+name] = b
		}
	}
	return items
}

// update brings the chunks to items and online: items that went are removed, changed
// ones rewritten in place, new ones placed, and chunks that grew too big or are too
// many give items away.
func (o *presenceOut) update(items map[string][]byte, online int) {
	if o.where == nil {
		o.where = map[string]int{}
	}
	if len(o.chunks) == 0 {
		o.chunks = []*outChunk{newChunk()}
	}
	if online != o.online {
		o.online = online
		o.chunks[0].dirty = true
	}
	for id, i := range o.where {
		c := o.chunks[i]
		b, ok := items[id]
		switch {
		case !ok:
			c.remove(id)
			delete(o.where, id)
		case !bytes.Equal(b, c.items[id]):
			c.set(id, b)
		}
	}
	var fresh []string
	for id := range items {
		if _, ok := o.where[id]; !ok {
			fresh = append(fresh, id)
		}
	}
	slices.Sort(fresh)
	for _, id := range fresh {
		o.place(id, items[id], false)
	}
	for _, c := range o.chunks {
		if c == nil || c.size <= chunkMax || len(c.items) < 2 || c.gained {
			continue
		}
		for _, id := range slices.Sorted(maps.Keys(c.items)) {
			if c.size <= chunkFill || len(c.items) < 2 {
				break
			}
			b := c.items[id]
			c.remove(id)
			c.shed = true
			o.place(id, b, true)
		}
	}
	o.compact()
}

func newChunk() *outChunk { return &outChunk{items: map[string][]byte{}, dirty: true} }

// place puts an item in the first chunk with room below chunkFill, or in a new one;
// moved says it comes from another chunk (that chunk is then put after this one).
// Chunks giving items away this round take none.
func (o *presenceOut) place(id string, b []byte, moved bool) {
	at := -1
	for i, c := range o.chunks {
		if c == nil {
			if at < 0 {
				at = i
			}
			continue
		}
		if c.shed {
			continue
		}
		if c.size+len(b)+1 <= chunkFill || len(c.items) == 0 {
			c.set(id, b)
			c.gained = c.gained || moved
			o.where[id] = i
			return
		}
	}
	if at < 0 {
		at = len(o.chunks)
		o.chunks = append(o.chunks, nil)
	}
	c := newChunk()
	c.set(id, b)
	c.gained = moved
	o.chunks[at] = c
	o.where[id] = at
}

// compact empties the last chunk into the others when there are more chunks than the
// items need by two or more (tables closed), and every item of it fits elsewhere.
func (o *presenceOut) compact() {
	live, total, last := 0, 0, 0
	for i, c := range o.chunks {
		if c != nil && (i == 0 || len(c.items) > 0) {
			live++
			total += c.size
			last = i
		}
	}
	if last == 0 || live <= (total+chunkFill-1)/chunkFill+1 {
		return
	}
	c := o.chunks[last]
	if c.shed || c.gained {
		return
	}
	extra := map[int]int{}
	to := map[string]int{}
	for _, id := range slices.Sorted(maps.Keys(c.items)) {
		need := len(c.items[id]) + 1
		found := -1
		for i, d := range o.chunks {
			if d != nil && i != last && !d.shed && (i == 0 || len(d.items) > 0) && d.size+extra[i]+need <= chunkFill {
				found = i
				break
			}
		}
		if found < 0 {
			return // it stays as it is
		}
		extra[found] += need
		to[id] = found
	}
	for id, i := range to {
		b := c.items[id]
		c.remove(id)
		o.chunks[i].set(id, b)
		o.chunks[i].gained = true
		o.where[id] = i
	}
	c.shed = true
}

// putPresence brings this node's presence chunks up to its lobby's state and puts
// those that changed or are due for a refresh: the chunks that received items first,
// those that gave some away after them, then deletes the keys no longer in use. A
// failed put ends the round; what is left is done the next.
func (n *Node) putPresence(ctx context.Context) {
	st := n.lobby.LocalState()
	items := presenceItems(st)
	o := &n.out
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stopped {
		return
	}
	o.update(items, st.Online)
	now := n.wallNow()
	refresh := n.presenceRefresh()
	// Refreshes are spread over the rounds: a chunk is due after presenceRefresh, and
	// the oldest are refreshed from half of it on while the rounds have refreshed fewer
	// than their share, each chunk once per presenceRefresh. The share saved up is
	// bounded, so that a node whose chunks all changed at once (it started) and then
	// stood still does not refresh them all in one round.
	live := 0
	for _, c := range o.chunks {
		if c != nil {
			live++
		}
	}
	share := float64(live) * float64(n.cfg.Renew) / float64(refresh)
	o.credit = min(o.credit+share, share+1)
	var early []int
	for _, i := range o.putOrder() {
		c := o.chunks[i]
		if i > 0 && len(c.items) == 0 {
			continue // deleted below
		}
		age := now.Sub(c.putAt)
		if !c.dirty && age < refresh {
			if age >= refresh/2 {
				early = append(early, i)
			}
			continue
		}
		if !c.dirty {
			o.credit-- // a refresh that was due
		}
		if !n.putChunk(ctx, i, c, now) {
			return
		}
	}
	slices.SortStableFunc(early, func(a, b int) int { return o.chunks[a].putAt.Compare(o.chunks[b].putAt) })
	for _, i := range early {
		if o.credit < 1 {
			break
		}
		o.credit--
		if !n.putChunk(ctx, i, o.chunks[i], now) {
			return
		}
	}
	inUse := map[string]bool{}
	for i, c := range o.chunks {
		if i > 0 && c != nil && len(c.items) == 0 {
			o.chunks[i] = nil
		}
		if o.chunks[i] != nil {
			inUse[presenceKey(n.name, i)] = true
		}
	}
	for len(o.chunks) > 1 && o.chunks[len(o.chunks)-1] == nil {
		o.chunks = o.chunks[:len(o.chunks)-1]
	}
	for _, key := range n.ownPresenceKeys() {
		if inUse[key] {
			continue
		}
		if err := n.nodes.Delete(ctx, key); err != nil {
			n.log.Warn("could not remove a key of this node's presence", "key", key, "err", err)
			return
		}
		n.mu.Lock()
		n.ownKeys[key] = false
		n.mu.Unlock()
	}
}

// putOrder is the order chunks are put in: those that gave items away after the others.
func (o *presenceOut) putOrder() []int {
	order := make([]int, 0, len(o.chunks))
	for _, shed := range []bool{false, true} {
		for i, c := range o.chunks {
			if c != nil && c.shed == shed {
				order = append(order, i)
			}
		}
	}
	return order
}

// putChunk puts chunk i if its value differs from the one last put, or is due for a
// refresh; false if the put failed.
func (n *Node) putChunk(ctx context.Context, i int, c *outChunk, now time.Time) bool {
	var head []byte
	if i == 0 {
		head, _ = json.Marshal(presenceItem{Online: &n.out.online})
	}
	v := c.value(head)
	if bytes.Equal(v, c.put) && now.Sub(c.putAt) < n.presenceRefresh()/2 {
		c.dirty, c.shed, c.gained = false, false, false // it changed back
		return true
	}
	key := presenceKey(n.name, i)
	if _, err := n.nodes.Put(ctx, key, v); err != nil {
		n.log.Warn("could not publish this node's presence", "key", key, "err", err, "bytes", len(v))
		return false
	}
	c.put, c.putAt = v, now
	c.dirty, c.shed, c.gained = false, false, false
	n.mu.Lock()
	n.ownKeys[key] = true
	n.mu.Unlock()
	return true
}

// ownPresenceKeys are the keys of this node's presence that are in the bucket, as far
// as this node knows: put by it, or seen by its watcher (an earlier run's, or an earlier
// version's NODE).
func (n *Node) ownPresenceKeys() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for key, there := range n.ownKeys {
		if there {
			out = append(out, key)
		}
	}
	slices.Sort(out)
	return out
}

// removePresence deletes every key of this node's presence, on a clean stop; the node
// puts none after.
func (n *Node) removePresence(ctx context.Context) {
	o := &n.out
	o.mu.Lock()
	defer o.mu.Unlock()
	o.stopped = true
	keys := n.ownPresenceKeys()
	for i, c := range o.chunks {
		if c != nil {
			keys = append(keys, presenceKey(n.name, i))
		}
	}
	slices.Sort(keys)
	for _, key := range slices.Compact(keys) {
		_ = n.nodes.Delete(ctx, key)
	}
}
