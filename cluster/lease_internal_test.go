package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"parlor/internal/testkit/natstest"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/store"
)

// countedKV counts the writes to a bucket.
type countedKV struct {
	jetstream.KeyValue
	mu     sync.Mutex
	writes int
}

func (c *countedKV) count() {
	c.mu.Lock()
	c.writes++
	c.mu.Unlock()
}

func (c *countedKV) n() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

func (c *countedKV) Put(ctx context.Context, key string, value []byte) (uint64, error) {
	c.count()
	return c.KeyValue.Put(ctx, key, value)
}

func (c *countedKV) Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error) {
	c.count()
	return c.KeyValue.Update(ctx, key, value, rev)
}

func (c *countedKV) Create(ctx context.Context, key string, value []byte, opts ...jetstream.KVCreateOpt) (uint64, error) {
	c.count()
	return c.KeyValue.Create(ctx, key, value, opts...)
}

// newNode makes a node on url with a lobby on st, not started: the test runs its rounds
// (round) by hand. Renew is an hour, so a started node's own loop does one round as it
// starts and then waits.
func newNode(t *testing.T, url, name string, st store.Store, lease time.Duration) *Node {
	t.Helper()
	cfg := Config{URLs: url, Node: name, Renew: time.Hour, Lease: lease}
	nc, err := Connect(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n, err := New(context.Background(), nc, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{Cluster: n, Log: st, Report: reportTo(st)})
	n.lobby = l
	t.Cleanup(func() {
		cancel()
		_ = l.Shutdown(context.Background())
		n.Kill()
	})
	return n
}

// reportTo files a table's reports in st, as the server does (once per call).
func reportTo(st store.Store) func(ctx context.Context, r lobby.Report) error {
	return func(ctx context.Context, r lobby.Report) error {
		_, err := st.AddReport(ctx, store.Report{Table: r.Table, ByID: r.ByID, ByName: r.ByName,
			AboutID: r.AboutID, AboutName: r.AboutName, Reason: r.Reason, At: r.At, Call: r.Call})
		if errors.Is(err, store.ErrFiled) {
			return nil
		}
		return err
	}
}

// round is one turn of a node's loop.
func (n *Node) round() {
	n.heartbeat()
	n.letGoLost()
	n.claimAbandoned()
}

// A node renews its lease on all its tables with one write a round, however many
// tables it runs: at thousands of tables a write per table was thousands of round trips
// a second. Its presence is written only when it changed.
func TestLeaseRenewalIsOneWritePerNode(t *testing.T) {
	url, _ := natstest.Run(t)
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	for _, tables := range []int{1, 40} {
		t.Run(fmt.Sprint(tables), func(t *testing.T) {
			n := newNode(t, url, fmt.Sprintf("n%d", tables), st, time.Hour)
			for i := range tables {
				if ok, err := n.Claim(fmt.Sprintf("T%d_%03d", tables, i)); !ok || err != nil {
					t.Fatalf("claim: %v %v", ok, err)
				}
			}
			dir, nodes := &countedKV{KeyValue: n.tables}, &countedKV{KeyValue: n.nodes}
			n.tables, n.nodes = dir, nodes
			n.round() // the beat, and the presence: new
			n.round() // the beat alone: the presence did not change
			if dir.n() != 0 || nodes.n() != 3 {
				t.Errorf("%d tables: two rounds wrote the directory %d times and the nodes bucket %d: want 0 and 3 (two beats, one presence)",
					tables, dir.n(), nodes.n())
			}
		})
	}
}

// testLease is the lease of the tests with started nodes, whose loops do one round as
// they start: the tests run the rounds.
const testLease = 300 * time.Millisecond

// tableOnA starts nodes a and b on one NATS and one store, and has Ann make a table on
// a.
func tableOnA(t *testing.T) (url string, st store.Store, a, b *Node, code string) {
	t.Helper()
	url, _ = natstest.Run(t)
	st = store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	a, b = newNode(t, url, "a", st, testLease), newNode(t, url, "b", st, testLease)
	for _, n := range []*Node{a, b} {
		if err := n.Start(n.lobby); err != nil {
			t.Fatal(err)
		}
	}
	place, err := a.lobby.Create(lobby.Player{ID: "SHA256:ann", Name: "Ann"}, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	return url, st, a, b, place.Code()
}

// A node whose beat stands still for a lease loses its tables to a node that claims
// them, and, when it comes back (a paused process), sees the directory name the other
// node and lets its copy go; the claimer restores the table and runs it. Before the
// lease runs out, nobody claims.
func TestAStalledOwnerLosesItsTables(t *testing.T) {
	_, _, a, b, code := tableOnA(t)
	// Both beat for three leases: b never claims.
	for end := time.Now().Add(3 * testLease); time.Now().Before(end); time.Sleep(testLease / 6) {
		a.round()
		b.round()
	}
	if !a.lobby.Runs(code) || b.lobby.Runs(code) {
		t.Fatalf("while a beats: a runs %s: %v, b: %v", code, a.lobby.Runs(code), b.lobby.Runs(code))
	}
	// a stalls: b claims once a's beat has stood still for a testLease.
	for end := time.Now().Add(10 * testLease); !b.lobby.Runs(code); time.Sleep(testLease / 6) {
		if time.Now().After(end) {
			t.Fatalf("b did not claim %s after a stalled", code)
		}
		b.round()
	}
	// a comes back: it lets its copy go at its next round.
	for end := time.Now().Add(10 * testLease); a.lobby.Runs(code); time.Sleep(testLease / 6) {
		if time.Now().After(end) {
			t.Fatalf("a still runs %s, which b claimed", code)
		}
		a.round()
	}
	b.mu.Lock()
	owner := b.dir[code].Node
	b.mu.Unlock()
	if owner != "b" {
		t.Errorf("directory: %s owned by %q, want b", code, owner)
	}
}

// A node that crashed and starts again under the same name takes its tables back: its
// beat is fresh at once, so no other node claims them, and nothing else would.
func TestARestartedNodeTakesItsTablesBack(t *testing.T) {
	url, st, a, b, code := tableOnA(t)
	a.round()
	a.Kill() // a crash: no handover
	again := newNode(t, url, "a", st, testLease)
	if err := again.Start(again.lobby); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(20 * testLease); !again.lobby.Runs(code); time.Sleep(testLease / 6) {
		if time.Now().After(end) {
			t.Fatalf("the restarted node did not take %s back (b runs it: %v)", code, b.lobby.Runs(code))
		}
		again.round()
		b.round()
	}
	if b.lobby.Runs(code) {
		t.Errorf("b runs %s too", code)
	}
}
