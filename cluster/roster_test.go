package cluster_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"parlor/cluster"
	"parlor/internal/testkit/natstest"
)

// Roster gathers every node's sessions, however many: a node with more sessions than one
// answer message holds sends them in several, and nothing is lost or repeated.
func TestRosterGathersEveryNodesSessions(t *testing.T) {
	url, _ := natstest.Run(t)
	a, _ := startNode(t, url, "a")
	b, _ := startNode(t, url, "b")
	many := func(node string, n int) func() []cluster.Session {
		return func() []cluster.Session {
			out := make([]cluster.Session, n)
			for i := range out {
				out[i] = cluster.Session{Name: fmt.Sprintf("%s%d", node, i), ID: fmt.Sprintf("SHA256:%s%d", node, i), Kind: "tui"}
			}
			return out
		}
	}
	if err := a.OnRoster(many("a", 3)); err != nil {
		t.Fatal(err)
	}
	if err := b.OnRoster(many("b", 1201)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, silent, err := a.Roster(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]string{}
		for _, s := range got {
			if node, dup := seen[s.ID]; dup {
				t.Fatalf("%s listed twice (node %s and %s)", s.ID, node, s.Node)
			}
			seen[s.ID] = s.Node
		}
		if len(got) == 1204 && len(silent) == 0 && seen["SHA256:b1200"] == "b" && seen["SHA256:a2"] == "a" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("roster: %d sessions, silent %v: want 1204 from a and b", len(got), silent)
		}
		time.Sleep(50 * time.Millisecond) // b's presence may not have reached a yet
	}
}
