package cluster

import (
	"context"
	"testing"
	"time"

	"parlor/assets"
	"parlor/lobby"
	"parlor/store"
)

// testNode joins a node set up by cfg to NATS, with a lobby of its own living by clock
// (nil: the wall clock), and starts it unless start is false; the test's cleanup stops
// both.
func testNode(t testing.TB, cfg Config, clock lobby.Clock, start bool) (*Node, *lobby.Lobby) {
	t.Helper()
	nc, err := Connect(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n, err := New(context.Background(), nc, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st := store.NewMemory()
	l := lobby.New(ctx, lobby.Config{Cluster: n, Log: st, Clock: clock, Content: assets.Load})
	if start {
		if err := n.Start(l); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		cancel()
		_ = l.Shutdown(context.Background())
		n.Kill()
		_ = st.Close()
	})
	return n, l
}

// StartTestNode runs a node named name on the NATS at url, with quick leases (renewed
// every 100 ms, lost after 500 ms), for the package's external tests.
func StartTestNode(t testing.TB, url, name string, clock lobby.Clock) (*Node, *lobby.Lobby) {
	t.Helper()
	return testNode(t, Config{URLs: url, Node: name, Renew: 100 * time.Millisecond, Lease: 500 * time.Millisecond}, clock, true)
}

// StartSteadyTestNode runs a node named name on the NATS at url whose leases outlast
// the test: no node is taken for gone and no table is claimed, however long the
// machine stalls the test's process. It is for tests of what a table does through its
// nodes, not of a node going away: with quick leases a loaded machine that holds the
// process still for half a second has one node take the other for gone, drop its
// sessions and claim its tables (which it cannot restore from a store of its own, so
// it closes them), and the test sees a failover it was not about.
func StartSteadyTestNode(t testing.TB, url, name string, clock lobby.Clock) (*Node, *lobby.Lobby) {
	t.Helper()
	return testNode(t, Config{URLs: url, Node: name, Renew: 100 * time.Millisecond, Lease: time.Hour}, clock, true)
}
