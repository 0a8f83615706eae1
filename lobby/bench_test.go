package lobby_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"parlor/lobby"
	"parlor/rules"
	"parlor/store"
)

// counter is an endless game for benchmarks: every action adds one to a shared count, so
// a table can take actions for as long as a benchmark runs.
type counter struct{ n int }

type counterView struct {
	rules.Header
	N int `json:"n"`
}

func (c *counter) Apply(int, json.RawMessage, time.Time) error { c.n++; return nil }
func (c *counter) Tick(time.Time) bool                         { return false }
func (c *counter) View(seat int) rules.View {
	return counterView{Header: rules.Header{Game: "count", Seat: seat, Round: 1}, N: c.n}
}
func (c *counter) Outcome() (rules.Result, bool) { return rules.Result{}, false }

type idleBot struct{}

func (idleBot) Act(rules.View, time.Time) any { return nil }

func init() {
	rules.Register(&rules.Spec{
		ID: "count", Name: "Count", MinPlayers: 2, MaxPlayers: 2,
		New:    func(rules.Setup) (rules.Game, error) { return &counter{}, nil },
		NewBot: func(rules.BotSetup) rules.Bot { return idleBot{} },
	})
}

// BenchmarkActionFanOut measures how long an action takes to reach the other player at
// its table — from Act to the other member's update, which with a table log includes
// waiting for the write — with 1,000 tables active at once, each acting about once a
// second as people do. Run with -benchtime=5000x; compare the p99 of the two cases.
func BenchmarkActionFanOut(b *testing.B) {
	b.Run("memory only", func(b *testing.B) { benchFanOut(b, nil) })
	// The log's own cost (records, the writer, waiting for the commit) without a disk.
	b.Run("in-memory table log", func(b *testing.B) { benchFanOut(b, store.NewMemory()) })
	b.Run("sqlite table log", func(b *testing.B) {
		st, err := store.OpenSQLite(filepath.Join(b.TempDir(), "parlor.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		timed := &timedLog{TableLog: st}
		benchFanOut(b, timed)
		reportQuantiles(b, timed.took, "commit")
	})
}

// timedLog measures every commit, to tell the disk's share of the latency from ours.
type timedLog struct {
	store.TableLog
	mu   sync.Mutex
	took []time.Duration
}

func (t *timedLog) AppendTables(ctx context.Context, es []store.TableEntry) error {
	start := time.Now()
	err := t.TableLog.AppendTables(ctx, es)
	t.mu.Lock()
	t.took = append(t.took, time.Since(start))
	t.mu.Unlock()
	return err
}

// reportQuantiles reports the median, 99th percentile and maximum of ds in µs.
func reportQuantiles(b *testing.B, ds []time.Duration, what string) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	at := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1))].Microseconds()) }
	b.ReportMetric(at(0.5), what+"-p50-µs")
	b.ReportMetric(at(0.99), what+"-p99-µs")
	b.ReportMetric(at(1), what+"-max-µs")
}

func benchFanOut(b *testing.B, tl store.TableLog) {
	const tables = 1000
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{Log: tl, IdleClose: time.Hour})
	defer func() {
		cancel()
		_ = l.Shutdown(context.Background())
	}()
	type table struct{ actor, other lobby.Place }
	ts := make([]table, tables)
	for i := range ts {
		a, err := l.Create(lobby.Player{ID: fmt.Sprintf("SHA256:a%d", i), Name: "A"}, "count", nil, false)
		if err != nil {
			b.Fatal(err)
		}
		o, err := l.Join(lobby.Player{ID: fmt.Sprintf("SHA256:b%d", i), Name: "B"}, a.Code())
		if err != nil {
			b.Fatal(err)
		}
		if err := lobby.Run(a, lobby.Start{}); err != nil {
			b.Fatal(err)
		}
		ts[i] = table{a, o}
	}
	var mu sync.Mutex
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	var wg sync.WaitGroup
	for i, tb := range ts {
		actions := b.N / tables
		if i < b.N%tables {
			actions++
		}
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			for k := 1; k <= actions; k++ {
				time.Sleep(time.Duration(500+rng.IntN(1000)) * time.Millisecond)
				start := time.Now()
				if err := lobby.Run(tb.actor, lobby.ActOf(map[string]string{"type": "add"})); err != nil {
					b.Error(err)
					return
				}
				for {
					u, ok, reason := tb.other.Next(ctx)
					if !ok {
						b.Errorf("member closed: %s", reason)
						return
					}
					if v, _ := u.View.(counterView); v.N >= k {
						break
					}
				}
				d := time.Since(start)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	reportQuantiles(b, lat, "fanout")
}
