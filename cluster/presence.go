package cluster

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"parlor/lobby"
)

// Beats and presence, one bucket. Every Renew a node puts its beat, lease.NODE: the
// lease on every table it owns, and the sign that it is alive, one small write however
// many tables it runs. Its presence, NODE — players online, its tables' public state,
// who is seated where — it puts when that changed, and every presenceRefresh. The
// others show the presence in their lobby while the node is fresh (its beat or its
// presence changed within Lease), and only the tables whose directory entry names that
// node, so a table that just moved is never listed twice. A node that stays stale for
// Lease is gone: the sessions it had at this node's tables are disconnected, so their
// seats show as away, and its tables are claimed (directory.go).

// beatPrefix starts a beat's key; a node's name has no dot, so it is never a presence.
const beatPrefix = "lease."

// seePresence keeps another node's beat or presence.
func (n *Node) seePresence(e jetstream.KeyValueEntry) {
	if name, ok := strings.CutPrefix(e.Key(), beatPrefix); ok {
		n.seeBeat(name, e)
		return
	}
	if e.Key() == n.name {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if e.Operation() != jetstream.KeyValuePut {
		delete(n.presence, e.Key())
		return
	}
	var p presence
	if json.Unmarshal(e.Value(), &p.Local) == nil {
		p.seen = time.Now()
		n.presence[e.Key()] = p
	}
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
	b.seen = time.Now()
	n.beats[name] = b
}

// presenceRefresh is how often a node puts its presence even if nothing changed, well
// within the bucket's TTL (10 leases), so that a node starting reads every presence.
func (n *Node) presenceRefresh() time.Duration { return 2 * n.cfg.Lease }

// heartbeat renews this node's lease on all its tables (its beat), and puts its
// presence if it changed. The first beat after a gap of a lease or more has its
// sessions at other nodes' tables check that they are still there: the other nodes may
// have taken this one for gone.
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
	b, err := json.Marshal(n.lobby.LocalState())
	if err != nil {
		return
	}
	n.mu.Lock()
	same := bytes.Equal(b, n.putPresence) && time.Since(n.putPresenceAt) < n.presenceRefresh()
	n.mu.Unlock()
	if same {
		return
	}
	if _, err := n.nodes.Put(ctx, n.name, b); err != nil {
		n.log.Warn("could not publish this node's presence", "err", err, "bytes", len(b))
		return
	}
	n.mu.Lock()
	n.putPresence, n.putPresenceAt = b, time.Now()
	n.mu.Unlock()
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
func (n *Node) freshLocked() map[string]presence {
	out := map[string]presence{}
	now := time.Now()
	for name, p := range n.presence {
		if n.aliveLocked(name, now) {
			out[name] = p
		}
	}
	return out
}

// aliveLocked says whether another node's beat or presence changed within Lease: a node
// whose presence could not be put (too big for NATS, say) is still alive by its beat,
// and its players are not dropped from this node's tables. n.mu is held.
func (n *Node) aliveLocked(name string, now time.Time) bool {
	last := n.presence[name].seen
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
