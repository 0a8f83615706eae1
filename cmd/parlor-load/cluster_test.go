package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// TestTinyClusterRun runs the generator's cluster mode at its smallest useful size, as
// an operator would with -nodes 3 -compare -json: one node, then three nodes on an
// embedded NATS, and checks that the second run really spread each table's screens over
// the nodes and that every figure is there and sane.
func TestTinyClusterRun(t *testing.T) {
	t.Parallel() // its own servers; the run's phases are timed, not CPU-bound
	var out, log bytes.Buffer
	code := run([]string{"-nodes", "3", "-compare", "-json", "-players", "21", "-parallel", "21",
		"-every", "250ms", "-duration", "2s", "-idle", "500ms", "-limit", "3m"}, &out, &log)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, log.String())
	}
	var reps []Report
	if err := json.Unmarshal(out.Bytes(), &reps); err != nil {
		t.Fatalf("%v in %s", err, out.String())
	}
	if len(reps) != 2 || reps[0].Nodes != 1 || reps[1].Nodes != 3 {
		t.Fatalf("want a run on one node, then on three; got %+v", reps)
	}
	for _, r := range reps {
		if r.Server != kindParlor || r.Players != 21 || r.Tables != 3 {
			t.Errorf("%s: %s with %d players at %d tables; want parlor with 21 at 3", r.name(), r.Server, r.Players, r.Tables)
		}
		l := r.Latency
		if l.Count < 3 || l.Never != 0 || l.P50 <= 0 || l.P50 > l.P90 || l.P90 > l.P99 || l.P99 > l.Max || l.Max == Never {
			t.Errorf("%s: latency %+v; want a few actions, all shown, ordered percentiles", r.name(), l)
		}
		if !r.Slow.Traced {
			t.Errorf("%s: slow actions %+v; want every node's collector trace read", r.name(), r.Slow)
		}
		if !r.Measured || r.RSSPerSessionMiB <= 0 || r.IdleCPUPerSession < 0 || r.Goroutines < 21 {
			t.Errorf("%s: server figures %+v; want memory, CPU and goroutines", r.name(), r)
		}
		// The NATS server is a process of its own, measured apart (CPU per action may be
		// noise at this size, as for the nodes).
		if !r.NATSMeasured || r.NATSRSSMiB <= 0 || r.NATSIdleCPU < 0 {
			t.Errorf("%s: NATS figures measured=%v, %.1f MiB, idle %s; want its memory and CPU", r.name(), r.NATSMeasured, r.NATSRSSMiB, r.NATSIdleCPU)
		}
	}
	one, three := reps[0], reps[1]
	if one.RemoteScreens != 0 || !slices.Equal(one.NodeSessions, []int{21}) || !slices.Equal(one.NodeTables, []int{3}) {
		t.Errorf("one node: %d remote screens, sessions %v, tables %v; want 0, [21], [3]", one.RemoteScreens, one.NodeSessions, one.NodeTables)
	}
	// Seat k of table i is on node (i+k) mod 3, and the host (seat 0) creates the table,
	// so each node owns one table and seven sessions, and 4 of each table's 7 screens
	// are on the two other nodes.
	if three.RemoteScreens != 12 || !slices.Equal(three.NodeSessions, []int{7, 7, 7}) || !slices.Equal(three.NodeTables, []int{1, 1, 1}) {
		t.Errorf("three nodes: %d remote screens, sessions %v, tables %v; want 12, [7 7 7], [1 1 1]", three.RemoteScreens, three.NodeSessions, three.NodeTables)
	}
}

func TestNodesFlag(t *testing.T) {
	for _, args := range [][]string{
		{"-nodes", "-1"},
		{"-nodes", "6"},
		{"-nodes", "3", "-target", "127.0.0.1:2222"},
		{"-nodes", "3", "-server", "bare"},
		{"-nodes", "1", "-compare"},
	} {
		var errw bytes.Buffer
		if _, err := parseFlags(args, &errw); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
	var errw bytes.Buffer
	c, err := parseFlags([]string{"-nodes", "3", "-compare", "-spectators", "2"}, &errw)
	if err != nil {
		t.Fatal(err)
	}
	runs := runsOf(c)
	if len(runs) != 2 || runs[0].Nodes != 1 || runs[1].Nodes != 3 || runs[0].Server != kindParlor || runs[1].Server != kindParlor {
		t.Errorf("-nodes 3 -compare runs %+v; want parlor on one node, then on three", runs)
	}
}
