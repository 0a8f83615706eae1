package cluster_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"parlor/internal/testkit/natstest"
	"parlor/internal/testkit/testclock"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
)

// BenchmarkActionToScreen measures an action's way to its seat's next screen: the
// member acts (answered once the table log has it) and waits for the update that shows
// the action's effect (the round moves on). "local" is a member on the table's own node;
// "remote" one on another node, through request/reply and its seat subject. Both nodes
// share one embedded NATS; each lobby logs to memory, so the difference is the cluster's
// own cost. It reports p50 and p99 of the latency.
func BenchmarkActionToScreen(b *testing.B) {
	url, _ := natstest.Run(b)
	clock := testclock.New(time.Now())
	_, la := startNodeOn(b, url, "a", clock)
	_, lb := startNodeOn(b, url, "b", clock)
	host, ben := tableOfTwo(b, la, lb)
	defer lobby.Run(host, lobby.Leave{})
	defer lobby.Run(ben, lobby.Leave{})
	r := newRounds(b, clock, host, ben)
	for _, c := range []struct {
		name          string
		first, second lobby.Place
	}{{"local", ben, host}, {"remote", host, ben}} {
		b.Run(c.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				r.playing()
				now := roundOf(r.seen[c.second])
				if err := lobby.Run(c.first, lobby.ActOf(testgame.Pick(1))); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				if err := lobby.Run(c.second, lobby.ActOf(testgame.Pick(2))); err != nil {
					b.Fatal(err)
				}
				r.await(c.second, func(u lobby.Update) bool { return roundOf(u) > now })
				lat = append(lat, time.Since(start))
				r.await(c.first, func(u lobby.Update) bool { return roundOf(u) > now })
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// rounds plays testgame rounds at a table of two members, host and other, reading
// their updates as it goes.
type rounds struct {
	b           *testing.B
	clock       *testclock.Clock
	host, other lobby.Place
	seen        map[lobby.Place]lobby.Update
}

func newRounds(b *testing.B, clock *testclock.Clock, host, other lobby.Place) *rounds {
	return &rounds{b: b, clock: clock, host: host, other: other, seen: map[lobby.Place]lobby.Update{}}
}

// await reads p's updates until one satisfies ok.
func (r *rounds) await(p lobby.Place, ok func(lobby.Update) bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if u, have := r.seen[p]; have && ok(u) {
			return
		}
		u, open, reason := p.Next(ctx)
		if !open {
			r.b.Fatalf("no update: %s", reason)
		}
		r.seen[p] = u
	}
}

// playing starts a game if none is on (the last one finished), and lets the action rate
// limits refill on the lobby's clock.
func (r *rounds) playing() {
	r.clock.Advance(time.Second)
	if r.seen[r.other].Table.State == lobby.StatePlaying {
		return
	}
	if err := lobby.Run(r.host, lobby.Start{}); err != nil {
		r.b.Fatal(err)
	}
	for _, p := range []lobby.Place{r.other, r.host} {
		r.await(p, func(u lobby.Update) bool { return u.Table.State == lobby.StatePlaying && roundOf(u) == 1 })
	}
}

// round plays one round, both members acting, and returns how many actions that was.
func (r *rounds) round() int {
	r.playing()
	now := roundOf(r.seen[r.other])
	for i, p := range []lobby.Place{r.host, r.other} {
		if err := lobby.Run(p, lobby.ActOf(testgame.Pick(i+1))); err != nil {
			r.b.Fatal(err)
		}
	}
	for _, p := range []lobby.Place{r.other, r.host} {
		r.await(p, func(u lobby.Update) bool { return roundOf(u) > now })
	}
	return 2
}

// roundOf is the round an update shows, 0 before a game.
func roundOf(u lobby.Update) int {
	if u.View == nil {
		return 0
	}
	return u.View.Head().Round
}
