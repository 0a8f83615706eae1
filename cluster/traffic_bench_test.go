package cluster_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	natsjetstream "github.com/nats-io/nats.go/jetstream"

	"parlor/cluster"
	"parlor/internal/testkit/natstest"
	"parlor/internal/testkit/testclock"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
	"parlor/store"
	jsstore "parlor/store/jetstream"
)

// BenchmarkIdleNodeTraffic measures what an idle node costs NATS against the number of
// tables it runs: the messages and bytes its connection sends (lease renewals,
// presence) and those another node, running nothing, receives (it watches the table
// directory and the presence of every node), per second. One iteration is one Renew,
// at its default of a second; an idle node puts each chunk of its presence once per
// presenceRefresh (20 s), so measure over 40 or more:
// go test -bench IdleNodeTraffic -benchtime 40x ./cluster/. docs/cluster.md has the
// figures.
func BenchmarkIdleNodeTraffic(b *testing.B) {
	for _, tables := range []int{0, 10, 100, 500, 1000, 2000, 5000} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			url, _ := natstest.Run(b)
			renew := time.Second
			owner, l := benchNode(b, url, "a", renew, lobby.Config{})
			watcher, _ := benchNode(b, url, "b", renew, lobby.Config{})
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

// benchNode starts a node renewing every renew (0: the default; Lease is the default,
// 4 Renew) with the lobby lcfg (its Log nil: in memory), and returns its NATS connection
// (for its counters) and lobby.
func benchNode(b *testing.B, url, name string, renew time.Duration, lcfg lobby.Config) (*nats.Conn, *lobby.Lobby) {
	b.Helper()
	cfg := cluster.Config{URLs: url, Node: name, Renew: renew}
	nc, err := cluster.Connect(cfg)
	if err != nil {
		b.Fatal(err)
	}
	n, err := cluster.New(context.Background(), nc, cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if lcfg.Log == nil {
		st := store.NewMemory()
		b.Cleanup(func() { _ = st.Close() })
		lcfg.Log = st
	}
	lcfg.Cluster = n
	l := lobby.New(ctx, lcfg)
	if err := n.Start(l); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cancel()
		_ = l.Shutdown(context.Background())
		n.Kill()
	})
	return nc, l
}

// tableOfTwo makes a testgame table of three rounds on la, hosted by Ann, and seats Ben
// at it through lb, once lb knows where it is.
func tableOfTwo(b *testing.B, la, lb *lobby.Lobby) (host, ben lobby.Place) {
	b.Helper()
	host, err := la.Create(lobby.Player{ID: "SHA256:ann", Name: "Ann"}, testgame.ID, rules.Options{"rounds": "3"}, false)
	if err != nil {
		b.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if ben, err = lb.Join(lobby.Player{ID: "SHA256:ben", Name: "Ben"}, host.Code()); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	return host, ben
}

// BenchmarkActionTraffic measures what one action costs NATS in a cluster, with the
// JetStream store: a table on node a, one player there and one on node b, who take
// turns acting (testgame's Pick; each round is two actions). It counts the messages and
// bytes every connection — both nodes' and both stores' — sends to NATS and receives
// from it, per action; the table log's stored bytes per entry (JetStream's own count,
// headers and subject included); and the games stream's per record (a finished game,
// once per player). The beats of the idle second go in too: under 2 messages a second
// per node. go test -bench ActionTraffic -benchtime 600x ./cluster/.
func BenchmarkActionTraffic(b *testing.B) {
	ns := natstest.Start(b)
	clock := testclock.New(time.Now())
	var conns []*nats.Conn
	node := func(name string) *lobby.Lobby {
		snc := natstest.Connect(b, ns.URL())
		st, err := jsstore.Open(context.Background(), jsstore.Config{Conn: snc})
		if err != nil {
			b.Fatal(err)
		}
		// A finished game goes to the games stream once per player, as the server
		// records it (scores left out: they are a few bytes).
		record := func(g lobby.FinishedGame) {
			rec := store.FinishedGame{GameID: g.Game, Table: g.Table, FinishedAt: g.At}
			for i := range g.Names {
				rec.Seats = append(rec.Seats, store.Seat{PlayerID: g.Players[i], Name: g.Names[i]})
			}
			_ = st.RecordGame(context.Background(), rec)
		}
		nc, l := benchNode(b, ns.URL(), name, 0, lobby.Config{Log: st, Clock: clock, OnFinish: record})
		conns = append(conns, nc, snc)
		return l
	}
	host, ben := tableOfTwo(b, node("a"), node("b"))
	play := newRounds(b, clock, host, ben)
	js, err := natsjetstream.New(conns[0])
	if err != nil {
		b.Fatal(err)
	}
	streamBytes := func(name string) (uint64, uint64) {
		s, err := js.Stream(context.Background(), name)
		if err != nil {
			b.Fatal(err)
		}
		info, err := s.Info(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		return info.State.Bytes, info.State.Msgs
	}
	logBytes := func() (uint64, uint64) { return streamBytes("parlor_tablelog") }
	// The game starts (a snapshot rolls the log up); the next round's entries show
	// what an action adds to a table's log, until the next game's snapshot.
	play.round()
	bytes0, msgs0 := logBytes()
	play.round()
	bytes1, msgs1 := logBytes()
	before := make([]nats.Statistics, len(conns))
	for i, c := range conns {
		before[i] = c.Stats()
	}
	b.ResetTimer()
	actions := 0
	for range b.N {
		actions += play.round()
	}
	b.StopTimer()
	var out, in, outB, inB float64
	for i, c := range conns {
		s := c.Stats()
		out += float64(s.OutMsgs - before[i].OutMsgs)
		in += float64(s.InMsgs - before[i].InMsgs)
		outB += float64(s.OutBytes - before[i].OutBytes)
		inB += float64(s.InBytes - before[i].InBytes)
	}
	n := float64(actions)
	b.ReportMetric(out/n, "sent-msgs/action")
	b.ReportMetric(outB/n, "sent-B/action")
	b.ReportMetric(in/n, "recv-msgs/action")
	b.ReportMetric(inB/n, "recv-B/action")
	b.ReportMetric(float64(bytes1-bytes0)/float64(msgs1-msgs0), "log-B/entry")
	b.ReportMetric(float64(msgs1-msgs0)/2, "log-entries/action")
	b.ReportMetric(float64(bytes0), "log-B-after-round-1")
	b.ReportMetric(float64(msgs0), "log-entries-after-round-1")
	if gb, gm := streamBytes("parlor_games"); gm > 0 {
		b.ReportMetric(float64(gb)/float64(gm), "games-B/record")
	}
}
