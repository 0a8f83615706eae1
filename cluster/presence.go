package cluster

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"parlor/lobby"
)

// Presence: every node puts its own state (players online, its tables' public state,
// who is seated where) under its name every Renew. The others show it in their lobby
// while it is fresh, and only the tables whose directory entry names that node, so a
// table that just moved is never listed twice. A node whose presence goes stale for
// Lease is gone: the sessions it had at this node's tables are disconnected, so their
// seats show as away.

// seePresence keeps another node's presence.
func (n *Node) seePresence(e jetstream.KeyValueEntry) {
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

// heartbeat publishes this node's presence. The first one after a gap of a lease or
// more has its sessions at other nodes' tables check that they are still there: the
// other nodes may have taken this one for gone.
func (n *Node) heartbeat() {
	b, err := json.Marshal(n.lobby.LocalState())
	if err != nil {
		return
	}
	ctx, cancel := n.opCtx()
	defer cancel()
	if _, err := n.nodes.Put(ctx, n.name, b); err != nil {
		n.log.Warn("could not publish this node's presence", "err", err)
		return
	}
	now := time.Now()
	if !n.lastBeat.IsZero() && now.Sub(n.lastBeat) >= n.cfg.Lease {
		n.checkProxies()
	}
	n.lastBeat = now
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

// fresh is the other nodes whose presence is recent; n.mu is held.
func (n *Node) freshLocked() map[string]presence {
	out := map[string]presence{}
	now := time.Now()
	for name, p := range n.presence {
		if now.Sub(p.seen) < n.cfg.Lease {
			out[name] = p
		}
	}
	return out
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
	fresh := n.freshLocked()
	now := time.Now()
	var gone []*remote
	for _, ot := range n.owned {
		for _, r := range ot.members {
			if _, ok := fresh[r.node]; !ok && r.node != n.name && now.Sub(r.since) >= n.cfg.Lease {
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
