package cluster

import (
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"parlor/lobby"
)

// The table directory: one key per open table, its code, holding the owner node. The
// key changes only when the table changes hands: the owner renews one lease for all its
// tables, its node's beat (presence.go), every Renew. A node that sees an owner's beat
// — and the table's key — stand still for Lease (by its own clock) claims the table
// with an Update against the key's revision, so of several claimers exactly one wins;
// the old owner, if it still runs, sees the key name another node and lets the table
// go. A released lease (owner "") may be claimed at once. Create, which fails on an
// existing key, makes a new table's code unique across the cluster.

// follow hands every change a KV watcher sees to see, until the node stops; ready (if
// not nil) closes once the watcher has replayed what the bucket held.
func (n *Node) follow(w jetstream.KeyWatcher, ready chan<- struct{}, see func(jetstream.KeyValueEntry)) {
	defer n.wg.Done()
	defer func() { _ = w.Stop() }()
	for {
		select {
		case <-n.ctx.Done():
			return
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			if e == nil { // the end of the replay
				if ready != nil {
					close(ready)
					ready = nil
				}
				continue
			}
			see(e)
		}
	}
}

func (n *Node) seeLease(e jetstream.KeyValueEntry) {
	code := e.Key()
	n.mu.Lock()
	if e.Operation() != jetstream.KeyValuePut {
		delete(n.dir, code)
		if ot := n.owned[code]; ot != nil && e.Revision() > ot.rev {
			n.lost[code] = true
		}
		n.mu.Unlock()
		return
	}
	var l lease
	_ = json.Unmarshal(e.Value(), &l)
	old, had := n.dir[code]
	l.rev, l.seen = e.Revision(), time.Now()
	n.dir[code] = l
	if ot := n.owned[code]; ot != nil && l.Node != n.name && l.rev > ot.rev {
		n.lost[code] = true // another node claimed it: this copy stops (letGoLost)
	}
	// The key changes only when the table changes hands (a claim or a release): a claim,
	// whichever node it names — the node the table was on, started again, too.
	var moved []*proxy
	if had && old.rev != l.rev && l.Node != "" {
		for p := range n.proxies {
			if p.code == code {
				moved = append(moved, p)
			}
		}
	}
	n.mu.Unlock()
	// A proxy whose table found a new owner attaches there (proxy.go).
	for _, p := range moved {
		p.claimed(l.Node, l.rev)
	}
}

// now is the game time of the node's lobby (the wall clock before it has one).
func (n *Node) now() time.Time {
	if n.lobby == nil {
		return time.Now()
	}
	return n.lobby.Now()
}

// leaseValue is a lease held by node, renewed at alive (its lobby's game time).
func leaseValue(node string, alive time.Time) []byte {
	b, _ := json.Marshal(lease{Node: node, Alive: alive})
	return b
}

// Claim implements lobby.Cluster: it creates the directory key of a new table.
func (n *Node) Claim(code string) (bool, error) {
	ctx, cancel := n.opCtx()
	defer cancel()
	rev, err := n.tables.Create(ctx, code, leaseValue(n.name, n.now()))
	if errors.Is(err, jetstream.ErrKeyExists) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, n.own(code, rev)
}

// Closed implements lobby.Cluster: the table is gone, and so is its directory key.
func (n *Node) Closed(code string) {
	n.mu.Lock()
	ot := n.owned[code]
	delete(n.owned, code)
	n.mu.Unlock()
	if ot == nil || n.gone.Load() {
		return
	}
	n.disown(ot)
	ctx, cancel := n.opCtx()
	defer cancel()
	// Only while the lease is still ours: a node that lost it must not delete the key of
	// the table another node now runs.
	if err := n.tables.Delete(ctx, code, jetstream.LastRevision(ot.rev)); err != nil {
		n.log.Warn("could not remove a closed table from the directory", "table", code, "err", err)
	}
}

// TakenOver implements lobby.Cluster: the store refused this node's entries for the
// table as another writer's, so another node has claimed it (this node's beat stood
// still for a lease: a pause, NATS slow or cut off) and writes its log. The table has
// stopped here; its remote members follow it there (a handoff), and this node stops
// answering for it at once, before its watcher has seen the claim.
func (n *Node) TakenOver(code string) {
	n.mu.Lock()
	ot := n.owned[code]
	if ot != nil {
		ot.handoff = true
		delete(n.owned, code)
	}
	delete(n.lost, code)
	n.mu.Unlock()
	if ot != nil {
		n.disown(ot)
	}
	n.log.Warn("another node took a table over: this node's copy stopped", "table", code)
}

// Elsewhere implements lobby.Cluster.
func (n *Node) Elsewhere(code string) bool {
	n.mu.Lock()
	l, ok := n.dir[code]
	n.mu.Unlock()
	return ok && (l.Node != n.name || n.stale(code))
}

// stale reports whether the directory names this node as the owner of a table it does
// not run: a lease of this node's previous run, before it died and started again (it is
// claimed once the lease runs out), or one this node has just claimed and is still
// restoring from its log. Either way the table is moving, not gone: a join then was
// answered "no table has that code".
func (n *Node) stale(code string) bool {
	return n.lobby != nil && !n.lobby.Runs(code)
}

// letGoLost stops the tables this node owned whose directory key another node has
// changed since (it claimed them: this node's beat stood still for a lease, a pause or
// a network cut) or removed.
func (n *Node) letGoLost() {
	n.mu.Lock()
	var lost []string
	for code := range n.lost {
		if ot := n.owned[code]; ot != nil && !ot.handoff {
			lost = append(lost, code)
		}
		delete(n.lost, code)
	}
	n.mu.Unlock()
	for _, code := range lost {
		n.log.Warn("lost the lease of a table to another node", "table", code)
		n.letGo(code, lobby.TakenOverNotice)
	}
}

// lapsedLocked says whether the lease on a table held by another node has run out: its
// node's beat, its presence and the table's key have all stood still for Lease. n.mu is
// held.
func (n *Node) lapsedLocked(l lease, now time.Time) bool {
	return now.Sub(l.seen) >= n.cfg.Lease && !n.aliveLocked(l.Node, now)
}

// claimableLocked says whether this node may claim a table: released, or its lease ran
// out, or it is held under this node's own name but this process does not run it — an
// earlier run of this node held it (a crash and a restart under the same name, whose
// beat is fresh again, so no other node claims it) — and its key has stood still for a
// lease. n.mu is held.
func (n *Node) claimableLocked(code string, l lease, now time.Time) bool {
	switch l.Node {
	case "":
		return true
	case n.name:
		return n.owned[code] == nil && now.Sub(l.seen) >= n.cfg.Lease
	}
	return n.lapsedLocked(l, now)
}

// ownerAliveLocked is the latest game time a table's owner is known to have been alive at.
func (n *Node) ownerAliveLocked(l lease) time.Time {
	if b := n.beats[l.Node]; b.Alive.After(l.Alive) {
		return b.Alive
	}
	return l.Alive
}

// claimParallel is how many claimed tables a node restores at once. Each restore reads
// the table's log from JetStream, a round trip or more: one after another, a node that
// took over a dead node's 350 tables brought the last back after 30 s.
const claimParallel = 8

// claimAbandoned claims the tables whose lease ran out or was released, and restores
// them from their logs, claimParallel at a time; it returns once all are done.
func (n *Node) claimAbandoned() {
	if n.leaving.Load() {
		return
	}
	now := time.Now()
	type claim struct {
		code, owner string
		rev         uint64
		alive       time.Time // the owner's last renewal: its node was alive then
	}
	var claims []claim
	owners := map[string]bool{} // the other nodes whose tables look abandoned
	n.mu.Lock()
	for code, l := range n.dir {
		if n.claimableLocked(code, l, now) {
			claims = append(claims, claim{code, l.Node, l.rev, n.ownerAliveLocked(l)})
			if l.Node != "" && l.Node != n.name {
				owners[l.Node] = true
			}
		}
	}
	n.mu.Unlock()
	// Each of their beats is read again first (beatsStill): this node may have been
	// held still itself, its clock running while it read nothing.
	for owner := range owners {
		owners[owner] = n.beatsStill(owner)
	}
	claims = slices.DeleteFunc(claims, func(c claim) bool {
		still, asked := owners[c.owner]
		return asked && !still
	})
	slots := make(chan struct{}, claimParallel)
	var wg sync.WaitGroup
	for _, c := range claims {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			n.claimOne(c.code, c.rev, c.alive)
			<-slots
		}()
	}
	wg.Wait()
}

// claimOne claims one table whose lease, at revision rev, ran out or was released, and
// restores it; alive is the last time its owner was known to be alive.
func (n *Node) claimOne(code string, rev uint64, alive time.Time) {
	// The owner may have renewed while the claims before this one went out: a claim is
	// only for a lease that is still out.
	n.mu.Lock()
	l := n.dir[code]
	still := l.rev == rev && n.claimableLocked(code, l, time.Now())
	n.mu.Unlock()
	if !still {
		return
	}
	ctx, cancel := n.opCtx()
	rev, err := n.tables.Update(ctx, code, leaseValue(n.name, n.now()), rev)
	cancel()
	if err != nil {
		return // another node was quicker, or the owner renewed after all
	}
	n.log.Info("claimed a table", "table", code)
	if err := n.own(code, rev); err != nil {
		n.log.Error("could not serve a claimed table", "table", code, "err", err)
		return
	}
	ctx, cancel = n.opCtx()
	err = n.lobby.RestoreTable(ctx, code, alive)
	cancel()
	switch {
	case errors.Is(err, lobby.ErrLost):
		// The lobby closed it (its log does not replay): so does the directory.
		n.log.Error("claimed table did not restore; it is closed", "table", code, "err", err)
		n.Closed(code)
	case err != nil:
		// The log could not be read now: another node (or this one) tries again.
		n.log.Error("claimed table could not be read; releasing it", "table", code, "err", err)
		n.release(code)
	}
}
