package cluster

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"parlor/internal/testkit/natstest"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/store"
)

// heldLog holds the reading of one table's log until release closes: a restore that
// takes long (a big log, a slow JetStream), for as long as the test wants.
type heldLog struct {
	store.Store
	code    string
	once    sync.Once
	reading chan struct{} // closed once the held read began
	release chan struct{}
}

func (h *heldLog) ReadTable(ctx context.Context, code string) ([]store.TableEntry, error) {
	if code == h.code {
		h.once.Do(func() { close(h.reading) })
		<-h.release // past its context too: as long as the test holds it
	}
	return h.Store.ReadTable(ctx, code)
}

// A node that takes over a dead node's tables keeps beating while it restores them, and
// restores them side by side: one slow restore neither holds up the others nor makes the
// node look dead. Renewing and claiming were one loop, so a node restoring hundreds of
// tables one after another stopped renewing its own lease for as long (another node
// would then claim its tables too), and the last tables came back after the players
// redialling them had given up.
func TestANodeKeepsBeatingAndClaimingWhileARestoreIsSlow(t *testing.T) {
	url, _ := natstest.Run(t)
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	a := newNode(t, url, "a", st, testLease)
	if err := a.Start(a.lobby); err != nil {
		t.Fatal(err)
	}
	var codes []string
	for i := range 6 {
		p, err := a.lobby.Create(lobby.Player{ID: fmt.Sprintf("SHA256:p%d", i), Name: fmt.Sprintf("P%d", i)}, testgame.ID, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		codes = append(codes, p.Code())
	}
	a.round()
	a.Kill()

	held := &heldLog{Store: st, code: codes[0], reading: make(chan struct{}), release: make(chan struct{})}
	defer close(held.release)
	cfg := Config{URLs: url, Node: "b", Renew: testLease / 6, Lease: testLease}
	nc, err := Connect(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(context.Background(), nc, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	nodes := &countedKV{KeyValue: b.nodes}
	b.nodes = nodes
	ctx, cancel := context.WithCancel(context.Background())
	lb := lobby.New(ctx, lobby.Config{Cluster: b, Log: held})
	t.Cleanup(func() {
		cancel()
		_ = lb.Shutdown(context.Background())
		b.Kill()
	})
	if err := b.Start(lb); err != nil {
		t.Fatal(err)
	}

	select {
	case <-held.reading:
	case <-time.After(30 * time.Second):
		t.Fatalf("b never restored %s", codes[0])
	}
	// While that one restore is held: the other tables come back, and b beats on.
	for _, code := range codes[1:] {
		for end := time.Now().Add(30 * time.Second); !lb.Runs(code); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("b did not restore %s while the restore of %s was slow", code, codes[0])
			}
		}
	}
	beats := nodes.n()
	for end := time.Now().Add(30 * time.Second); nodes.n() < beats+3; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("b wrote its beat %d times while a restore was held; want it to go on beating", nodes.n()-beats)
		}
	}
	if lb.Runs(codes[0]) {
		t.Fatalf("%s runs before its log was read", codes[0])
	}
}

// A node that was itself held still (a long pause, starved of CPU) longer than a lease
// has not read the beats that came meanwhile: by its own clock every other node looks
// gone. Before it claims a table it reads the owner's beat again, and claims nothing of
// an owner that beat since it last looked.
func TestAStalledNodeClaimsNothingOfAnOwnerThatBeats(t *testing.T) {
	_, _, a, b, code := tableOnA(t)
	a.round()
	var rev uint64
	for deadline := time.Now().Add(10 * time.Second); rev == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("b never read a's beat")
		}
		b.mu.Lock()
		rev = b.beats["a"].rev
		b.mu.Unlock()
	}
	// b stalls: what it last read of a (its beat, its presence, the table's key) is a
	// lease old by its clock, and a beat it has not read is in the bucket.
	long := time.Now().Add(-10 * testLease)
	b.mu.Lock()
	bt := b.beats["a"]
	bt.seen, bt.rev = long, rev-1
	b.beats["a"] = bt
	if p := b.presence["a"]; p != nil {
		p.seen = long
	}
	l := b.dir[code]
	l.seen = long
	b.dir[code] = l
	b.mu.Unlock()

	b.claimAbandoned()
	if b.lobby.Runs(code) {
		t.Fatal("b claimed a table of a node that beats")
	}
	if owner, _, _ := b.leaseOf(code); owner != "a" {
		t.Fatalf("the directory names %q for the table; want a", owner)
	}
}
