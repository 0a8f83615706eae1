package cluster

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"parlor/internal/testkit/natstest"
)

// slowLeases is the table directory of a busy node: every lease update takes a while,
// and it counts how many are in flight at once.
type slowLeases struct {
	jetstream.KeyValue
	mu            sync.Mutex
	now, most, of int
}

func (s *slowLeases) Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error) {
	s.mu.Lock()
	s.now++
	s.of++
	s.most = max(s.most, s.now)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.now--
		s.mu.Unlock()
	}()
	time.Sleep(20 * time.Millisecond)
	return s.KeyValue.Update(ctx, key, value, rev)
}

// A node renews its tables' leases side by side, not one round trip after another: a
// busy node with many tables took longer than a lease to renew them all and lost tables
// it still ran. Every lease moves to a new revision in one round.
func TestLeasesAreRenewedSideBySide(t *testing.T) {
	url, _ := natstest.Run(t)
	n, _ := testNode(t, Config{URLs: url, Node: "a", Renew: time.Hour, Lease: time.Hour}, nil, false)
	// The node is not started: its loop would renew as it starts, on its own goroutine,
	// side by side with this test's round (two renewals of one lease at once: one is
	// refused, and the node lets the table go). The test's round is the only one.
	slow := &slowLeases{KeyValue: n.tables}
	n.tables = slow
	const tables = 16
	before := map[string]uint64{}
	for i := range tables {
		code := fmt.Sprintf("T%03d", i)
		if ok, err := n.Claim(code); !ok || err != nil {
			t.Fatalf("claim %s: %v %v", code, ok, err)
		}
		before[code] = n.owned[code].rev
	}
	n.renew()
	if slow.of != tables || slow.most < 2 {
		t.Fatalf("%d lease updates, at most %d at once: want %d, side by side", slow.of, slow.most, tables)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for code, rev := range before {
		if ot := n.owned[code]; ot == nil || ot.rev <= rev {
			t.Errorf("table %s: lease not renewed (revision %d before)", code, rev)
		}
	}
}
