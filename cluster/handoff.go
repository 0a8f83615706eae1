package cluster

import (
	"parlor/lobby"

	"context"
	"time"
)

// Handoff is a node's goodbye (SIGTERM, a rolling upgrade): every table it owns is
// stopped with its log complete and its lease released, so another node claims and
// restores it at once (within one Renew) instead of waiting for the lease to run out.
// Players at those tables through other nodes follow the table there by themselves;
// this node's own players are told notice and connect again (to any node). Then the
// node leaves the cluster.
func (n *Node) Handoff(notice lobby.Closed) {
	if n.gone.Load() {
		return
	}
	n.leaving.Store(true) // claim nothing more, not even a table it just released
	n.mu.Lock()
	codes := make([]string, 0, len(n.owned))
	for code, ot := range n.owned {
		ot.handoff = true
		codes = append(codes, code)
	}
	n.mu.Unlock()
	for _, code := range codes {
		n.lobby.Handoff(code, notice)
		n.mu.Lock()
		ot := n.owned[code]
		delete(n.owned, code)
		n.mu.Unlock()
		if ot == nil {
			continue
		}
		n.disown(ot)
		n.releaseLease(code, ot.rev)
		n.log.Info("handed a table over", "table", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	_ = n.nodes.Delete(ctx, beatPrefix+n.name)
	n.removePresence(ctx)
	cancel()
	n.Close()
}

// release gives up an owned table's lease without stopping anything (nothing runs).
func (n *Node) release(code string) {
	n.mu.Lock()
	ot := n.owned[code]
	delete(n.owned, code)
	n.mu.Unlock()
	if ot != nil {
		n.disown(ot)
		n.releaseLease(code, ot.rev)
	}
}

// releaseLease marks a lease free, so that any node claims it at once.
func (n *Node) releaseLease(code string, rev uint64) {
	ctx, cancel := n.opCtx()
	defer cancel()
	if _, err := n.tables.Update(ctx, code, leaseValue("", n.now()), rev); err != nil {
		n.log.Warn("could not release a table's lease; it moves when the lease runs out", "table", code, "err", err)
	}
}
