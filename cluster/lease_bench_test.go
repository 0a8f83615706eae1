package cluster_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"parlor/cluster"
	"parlor/internal/testkit/natstest"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/store"
)

// BenchmarkIdleNodeTraffic measures what an idle node costs NATS against the number of
// tables it runs: the messages and bytes its connection sends (lease renewals,
// presence) and those another node, running nothing, receives (it watches the table
// directory and the presence of every node), per second. One iteration is one Renew,
// at its default of a second: go test -bench IdleNodeTraffic -benchtime 10x ./cluster/.
// docs/cluster.md has the figures.
func BenchmarkIdleNodeTraffic(b *testing.B) {
	for _, tables := range []int{0, 10, 100, 500, 1000} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			url, _ := natstest.Run(b)
			renew := time.Second
			owner, l := benchNode(b, url, "a", renew)
			watcher, _ := benchNode(b, url, "b", renew)
			for i := range tables {
				p := lobby.Player{ID: fmt.Sprintf("SHA256:p%d", i), Name: fmt.Sprintf("P%d", i)}
				if _, err := l.Create(p, testgame.ID, nil, false); err != nil {
					b.Fatal(err)
				}
			}
			time.Sleep(3 * renew) // the creations' own traffic settles
			o0, w0 := owner.Stats(), watcher.Stats()
			b.ResetTimer()
			for range b.N {
				time.Sleep(renew)
			}
			b.StopTimer()
			o1, w1 := owner.Stats(), watcher.Stats()
			n := float64(b.N)
			b.ReportMetric(float64(o1.OutMsgs-o0.OutMsgs)/n, "sent-msgs/s")
			b.ReportMetric(float64(o1.OutBytes-o0.OutBytes)/n, "sent-B/s")
			b.ReportMetric(float64(o1.InMsgs-o0.InMsgs)/n, "owner-recv-msgs/s")
			b.ReportMetric(float64(w1.InMsgs-w0.InMsgs)/n, "other-recv-msgs/s")
			b.ReportMetric(float64(w1.InBytes-w0.InBytes)/n, "other-recv-B/s")
		})
	}
}

// benchNode starts a node renewing every renew, and returns its NATS connection (for
// its counters) and lobby.
func benchNode(b *testing.B, url, name string, renew time.Duration) (*nats.Conn, *lobby.Lobby) {
	b.Helper()
	cfg := cluster.Config{URLs: url, Node: name, Renew: renew} // the default Lease, 4 Renew
	nc, err := cluster.Connect(cfg)
	if err != nil {
		b.Fatal(err)
	}
	n, err := cluster.New(context.Background(), nc, cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st := store.NewMemory()
	l := lobby.New(ctx, lobby.Config{Cluster: n, Log: st})
	if err := n.Start(l); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cancel()
		_ = l.Shutdown(context.Background())
		n.Kill()
		_ = st.Close()
	})
	return nc, l
}
