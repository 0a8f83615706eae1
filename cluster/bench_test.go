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
	"parlor/rules"
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
	ann := lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	host, err := la.Create(ann, testgame.ID, rules.Options{"rounds": "3"}, false)
	if err != nil {
		b.Fatal(err)
	}
	defer lobby.Run(host, lobby.Leave{})
	var ben lobby.Place
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if ben, err = lb.Join(lobby.Player{ID: "SHA256:ben", Name: "Ben"}, host.Code()); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	defer lobby.Run(ben, lobby.Leave{})
	seen := map[lobby.Place]lobby.Update{}
	// await reads p's updates until one satisfies ok.
	await := func(p lobby.Place, ok func(lobby.Update) bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for {
			if u, have := seen[p]; have && ok(u) {
				return
			}
			u, open, reason := p.Next(ctx)
			if !open {
				b.Fatalf("no update: %s", reason)
			}
			seen[p] = u
		}
	}
	round := func(u lobby.Update) int {
		if u.View == nil {
			return 0
		}
		return u.View.Head().Round
	}
	for _, c := range []struct {
		name          string
		first, second lobby.Place
	}{{"local", ben, host}, {"remote", host, ben}} {
		b.Run(c.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				clock.Advance(time.Second) // the action rate limits refill on the lobby's clock
				u := seen[c.second]
				if u.Table.State != lobby.StatePlaying {
					if err := lobby.Run(host, lobby.Start{}); err != nil {
						b.Fatal(err)
					}
					await(c.second, func(u lobby.Update) bool { return u.Table.State == lobby.StatePlaying && round(u) == 1 })
					await(c.first, func(u lobby.Update) bool { return u.Table.State == lobby.StatePlaying && round(u) == 1 })
				}
				r := round(seen[c.second])
				if err := lobby.Run(c.first, lobby.ActOf(testgame.Pick(1))); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				if err := lobby.Run(c.second, lobby.ActOf(testgame.Pick(2))); err != nil {
					b.Fatal(err)
				}
				await(c.second, func(u lobby.Update) bool { return round(u) > r })
				lat = append(lat, time.Since(start))
				await(c.first, func(u lobby.Update) bool { return round(u) > r })
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
