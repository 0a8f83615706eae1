package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"parlor/internal/testkit/natstest"
	"parlor/lobby"
	"parlor/store"
	"parlor/store/jetstream"
)

// jetstreamStore opens a JetStream store of its own (its own connection, as a node has)
// on the NATS at url.
func jetstreamStore(t *testing.T, url string) store.Store {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	st, err := jetstream.Open(context.Background(), jetstream.Config{Conn: nc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = st.Close()
		nc.Close()
	})
	return st
}

// Found by the soak: an owner that lost its lease while NATS was slow, and whose table
// another node claimed, had its next append refused as another writer's (as designed:
// a stale owner cannot fork a table). The table then closed with "parlor could not save
// this table", and its members were put out instead of following the table to the node
// that runs it now. Now the refusal is told apart from a failed write: the stale copy
// stops as a move (its members follow, remote ones by the handoff on their seat's
// subject), and the call waiting on the refused entry is told the table is moving — it
// was not applied.
func TestAStaleOwnersRefusedAppendMovesItsPlayers(t *testing.T) {
	url, _ := natstest.Run(t)
	a := newNode(t, url, "a", jetstreamStore(t, url), testLease)
	b := newNode(t, url, "b", jetstreamStore(t, url), testLease)
	c := newNode(t, url, "c", jetstreamStore(t, url), testLease)
	reader := jetstreamStore(t, url) // reads the log without touching a's or b's tails
	host, ann, pr := annAcross(t, a, c, a, b, c)
	code := host.Code()
	defer lobby.Run(ann, lobby.Leave{})
	pr.mu.Lock()
	annAtA, annSubject := pr.id, pr.subject
	pr.mu.Unlock()
	// What a's pump tells Ann's member there when a's copy of the table stops.
	watch, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()
	told := make(chan delivery, 16)
	sub, err := watch.Subscribe(annSubject, func(m *nats.Msg) {
		var d delivery
		if json.Unmarshal(m.Data, &d) == nil && d.Member == annAtA && d.Closed != nil {
			told <- d
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := watch.Flush(); err != nil {
		t.Fatal(err)
	}

	// a stalls (its rounds stop); b claims the table once a's beat stood still for a
	// lease, restores it and writes to its log.
	for deadline := time.Now().Add(20 * testLease); !b.lobby.Runs(code); time.Sleep(testLease / 6) {
		if time.Now().After(deadline) {
			t.Fatalf("b did not claim %s after a stalled", code)
		}
		b.round()
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if resumed(t, reader, code) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b's restore of the table is not in its log")
		}
	}

	// a has not looked at the directory since: it still runs its copy, and the host's
	// chat there is refused by the store as another writer's.
	if !a.lobby.Runs(code) {
		t.Fatal("a let its copy of the table go already: the test needs it still running")
	}
	err = lobby.Run(host, lobby.Chat{Text: "from the stale copy"})
	if !errors.Is(err, lobby.ErrMoving) {
		t.Errorf("the host's chat at the stale copy: %v; want %q (it was not applied)", err, lobby.ErrMoving)
	}
	if reason := closedWith(t, host); reason.Why != lobby.WhyMoved {
		t.Errorf("the host at the stale copy was told %+v; want the table moved (%q)", reason, lobby.WhyMoved)
	}
	select {
	case d := <-told:
		if !d.Handoff {
			t.Errorf("Ann's member at a was told %+v without a handoff: her session would not follow the table", *d.Closed)
		}
	case <-time.After(10 * time.Second):
		t.Error("a never told Ann's member there that its copy stopped")
	}
	a.mu.Lock()
	still := a.owned[code] != nil
	a.mu.Unlock()
	if still {
		t.Error("a still answers for the table it lost")
	}
	for _, e := range readLog(t, reader, code) {
		if strings.Contains(string(e.Data), "from the stale copy") {
			t.Errorf("the refused chat is in the table's log: %s", e.Data)
		}
	}
	// Ann plays on at b, through node c.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		err := lobby.Run(ann, lobby.Chat{Text: "still here"})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Ann's chat after the table moved to b: %v", err)
		}
	}
	if !b.lobby.Runs(code) {
		t.Error("b no longer runs the table")
	}
}

// waitCtx bounds a wait for the next update generously.
func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func readLog(t *testing.T, st store.Store, code string) []store.TableEntry {
	t.Helper()
	entries, err := st.ReadTable(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// resumed says whether a table's log holds a restore's resumed entry.
func resumed(t *testing.T, st store.Store, code string) bool {
	for _, e := range readLog(t, st, code) {
		if strings.Contains(string(e.Data), `"kind":"resumed"`) {
			return true
		}
	}
	return false
}
