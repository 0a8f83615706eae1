package cluster

import (
	"cmp"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"parlor/lobby"
)

// Beats and presence, one bucket. Every Renew a node puts its beat, lease.NODE: the
// lease on every table it owns, and the sign that it is alive, one small write however
// many tables it runs. Its presence — players online, its tables' public state, who is
// seated where, the names its players go by — is split over chunks, presence.NODE.0,
// presence.NODE.1, … (presence_out.go), each well below NATS's max payload: a node puts
// the chunks that changed, and each chunk again every presenceRefresh, within the
// bucket's TTL. The others put a node's chunks back together, and show its presence in
// their lobby while the node is fresh (its beat or its presence changed within Lease),
// and only the tables whose directory entry names that node, so a table that just
// moved is never listed twice. A node that stays stale for Lease is gone: the sessions
// it had at this node's tables are disconnected, so their seats show as away, and its
// tables are claimed (directory.go).

// beatPrefix starts a beat's key; a node's name has no dot, so it is never a presence.
const beatPrefix = "lease."

// presencePrefix starts the key of a chunk of a node's presence: presence.NODE.N. A
// key with no dot at all is the whole presence of a node of an earlier version, NODE.
const presencePrefix = "presence."

// presenceKey is the key of chunk i of node's presence.
func presenceKey(node string, i int) string {
	return presencePrefix + node + "." + strconv.Itoa(i)
}

// presenceNode is the node whose presence key is: a chunk's, or (legacy) the whole
// presence that an earlier version put under its node's name.
func presenceNode(key string) (node string, ok bool) {
	if rest, ok := strings.CutPrefix(key, presencePrefix); ok {
		i := strings.LastIndexByte(rest, '.')
		return rest[:max(i, 0)], i > 0
	}
	return key, key != "" && !strings.Contains(key, ".")
}

// presenceItem is one entry of a chunk: the head (Online, chunk 0 only), a table with
// its seated players, or a name in use. A chunk is a JSON array of them, so an earlier
// version, which reads any key as a whole lobby.Local (an object), ignores chunks.
type presenceItem struct {
	Online *int             `json:"online,omitempty"` // players connected to the node
	Table  *lobby.TableInfo `json:"table,omitempty"`
	Seated []string         `json:"seated,omitempty"` // with Table: the player ids seated there
	Name   string           `json:"name,omitempty"`   // a name in use there, by nameKey,
	ID     string           `json:"id,omitempty"`     // and the id of the player going by it
}

// presence is another node's presence: its chunks as last seen, and what they say
// together (Local), merged again when a chunk changed (merged false).
type presence struct {
	lobby.Local
	seen   time.Time // when a chunk last changed, by this node's clock
	chunks map[string]seenChunk
	merged bool
}

// seenChunk is one key of another node's presence: its revision and items.
type seenChunk struct {
	rev   uint64
	items []presenceItem
}

// decodePresence reads one presence key's value: a chunk, or an earlier version's
// whole presence.
func decodePresence(key string, value []byte) ([]presenceItem, error) {
	if strings.HasPrefix(key, presencePrefix) {
		var items []presenceItem
		return items, json.Unmarshal(value, &items)
	}
	var old lobby.Local
	if err := json.Unmarshal(value, &old); err != nil {
		return nil, err
	}
	items := []presenceItem{{Online: &old.Online}}
	for i := range old.Tables {
		items = append(items, presenceItem{Table: &old.Tables[i], Seated: old.Seated[old.Tables[i].Code]})
	}
	for name, id := range old.Names {
		items = append(items, presenceItem{Name: name, ID: id})
	}
	return items, nil
}

// merge puts p's chunks together. A table (or name) found in two chunks is one that
// moved between them: the owner puts the chunk it moves to before the one it leaves,
// so the newer chunk (the higher revision) has it as it is now, and it counts once.
func (p *presence) merge() {
	if p.merged {
		return
	}
	p.merged = true
	chunks := slices.Collect(maps.Values(p.chunks))
	slices.SortFunc(chunks, func(a, b seenChunk) int { return cmp.Compare(a.rev, b.rev) })
	tables := map[string]presenceItem{}
	p.Local = lobby.Local{Names: map[string]string{}}
	for _, c := range chunks {
		for _, it := range c.items {
			switch {
			case it.Online != nil:
				p.Online = *it.Online
			case it.Table != nil:
				tables[it.Table.Code] = it
			case it.Name != "":
				p.Names[it.Name] = it.ID
			}
		}
	}
	p.Seated = make(map[string][]string, len(tables))
	for code, it := range tables {
		p.Tables = append(p.Tables, *it.Table)
		p.Seated[code] = it.Seated
	}
}

// seePresence keeps another node's beat or presence, and notes this node's own keys.
func (n *Node) seePresence(e jetstream.KeyValueEntry) {
	if name, ok := strings.CutPrefix(e.Key(), beatPrefix); ok {
		n.seeBeat(name, e)
		return
	}
	node, ok := presenceNode(e.Key())
	if !ok {
		return // a key of a later version
	}
	put := e.Operation() == jetstream.KeyValuePut
	if node == n.name {
		n.mu.Lock()
		n.ownKeys[e.Key()] = put
		n.mu.Unlock()
		return
	}
	var items []presenceItem
	if put {
		var err error
		if items, err = decodePresence(e.Key(), e.Value()); err != nil {
			return
		}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	p := n.presence[node]
	if p == nil {
		if !put {
			return
		}
		p = &presence{chunks: map[string]seenChunk{}}
		n.presence[node] = p
	}
	if p.see(e.Key(), e.Revision(), items, put); len(p.chunks) == 0 {
		delete(n.presence, node)
	}
}

// see keeps a change of one of p's keys: a put of items at revision rev, or a delete.
func (p *presence) see(key string, rev uint64, items []presenceItem, put bool) {
	p.merged = false
	if !put {
		delete(p.chunks, key)
		return
	}
	p.chunks[key] = seenChunk{rev: rev, items: items}
	p.seen = time.Now()
}

// seeBeat keeps another node's beat. A removed beat (a node that stopped cleanly, its
// tables handed over) counts as seen now: anything it still held is claimed a lease
// later.
func (n *Node) seeBeat(name string, e jetstream.KeyValueEntry) {
	if name == n.name {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	b := n.beats[name]
	if e.Operation() == jetstream.KeyValuePut {
		_ = json.Unmarshal(e.Value(), &b)
	}
	b.seen, b.rev = time.Now(), e.Revision()
	n.beats[name] = b
}

// beatsStill reads node's beat from the bucket and tells whether it is the one this node
// saw last (or gone): false if the node beat since, or if the bucket cannot be read now
// (nothing is known). A node held still for a lease (a long pause, starved of CPU) has
// not read the beats that came meanwhile, and by its own clock every other node looks
// gone: it asks before it claims.
func (n *Node) beatsStill(node string) bool {
	ctx, cancel := n.opCtx()
	defer cancel()
	e, err := n.nodes.Get(ctx, beatPrefix+node)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return true
	}
	if err != nil {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	b := n.beats[node]
	if e.Revision() <= b.rev {
		return true
	}
	_ = json.Unmarshal(e.Value(), &b)
	b.seen, b.rev = time.Now(), e.Revision()
	n.beats[node] = b
	return false
}

// heartbeat renews this node's lease on all its tables (its beat), and puts the chunks
// of its presence that changed or are due for a refresh. The first beat after a gap of
// a lease or more has its sessions at other nodes' tables check that they are still
// there: the other nodes may have taken this one for gone.
func (n *Node) heartbeat() {
	ctx, cancel := n.opCtx()
	defer cancel()
	beatValue, _ := json.Marshal(beat{Alive: n.now()})
	if _, err := n.nodes.Put(ctx, beatPrefix+n.name, beatValue); err != nil {
		n.log.Warn("could not renew this node's lease", "err", err)
	} else {
		now := time.Now()
		n.mu.Lock()
		gap := !n.lastBeat.IsZero() && now.Sub(n.lastBeat) >= n.cfg.Lease
		n.lastBeat = now
		n.mu.Unlock()
		if gap {
			n.checkProxies()
		}
	}
	n.putPresence(ctx)
}

// checkProxies has every session at another node's table check that the owner still
// knows it (proxy.check), side by side.
func (n *Node) checkProxies() {
	n.mu.Lock()
	var all []*proxy
	for pr := range n.proxies {
		all = append(all, pr)
	}
	n.mu.Unlock()
	for _, pr := range all {
		go pr.check()
	}
}

// fresh is the other nodes that are alive with their presence; n.mu is held.
func (n *Node) freshLocked() map[string]*presence {
	out := map[string]*presence{}
	now := time.Now()
	for name, p := range n.presence {
		if n.aliveLocked(name, now) {
			p.merge()
			out[name] = p
		}
	}
	return out
}

// aliveLocked says whether another node's beat or presence changed within Lease: a node
// whose presence could not be put (too big for NATS, say) is still alive by its beat,
// and its players are not dropped from this node's tables. n.mu is held.
func (n *Node) aliveLocked(name string, now time.Time) bool {
	var last time.Time
	if p := n.presence[name]; p != nil {
		last = p.seen
	}
	if b := n.beats[name]; b.seen.After(last) {
		last = b.seen
	}
	return now.Sub(last) < n.cfg.Lease
}

// Tables implements lobby.Cluster.
func (n *Node) Tables() []lobby.TableInfo {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []lobby.TableInfo
	for name, p := range n.freshLocked() {
		for _, info := range p.Tables {
			if n.dir[info.Code].Node == name {
				out = append(out, info)
			}
		}
	}
	return out
}

// Seated implements lobby.Cluster.
func (n *Node) Seated(playerID string) []lobby.TableInfo {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []lobby.TableInfo
	for name, p := range n.freshLocked() {
		for _, info := range p.Tables {
			if n.dir[info.Code].Node == name && slices.Contains(p.Seated[info.Code], playerID) {
				out = append(out, info)
			}
		}
	}
	return out
}

// Online implements lobby.Cluster.
func (n *Node) Online() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	total := 0
	for _, p := range n.freshLocked() {
		total += p.Online
	}
	return total
}

// NameHolder implements lobby.Cluster.
func (n *Node) NameHolder(key string) (string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, p := range n.freshLocked() {
		if id, ok := p.Names[key]; ok {
			return id, true
		}
	}
	return "", false
}

// dropDeparted disconnects the sessions of nodes that went away from this node's
// tables: their players are away now, and take their seats back through any node.
func (n *Node) dropDeparted() {
	n.mu.Lock()
	now := time.Now()
	var gone []*remote
	for _, ot := range n.owned {
		for _, r := range ot.members {
			if !n.aliveLocked(r.node, now) && r.node != n.name && now.Sub(r.since) >= n.cfg.Lease {
				gone = append(gone, r)
			}
		}
	}
	n.mu.Unlock()
	for _, r := range gone {
		n.log.Info("a node went away: its player is away", "table", r.code, "node", r.node)
		r.dropped.Store(true)
		_ = lobby.Run(r.place, lobby.Disconnect{})
	}
}
