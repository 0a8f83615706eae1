package topfive

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// testDeck is a valid deck of MinTopics made-up topics.
func testDeck() []byte {
	var b strings.Builder
	b.WriteString("# test deck\n")
	for i := range MinTopics {
		fmt.Fprintf(&b, "Topic %03d\n", i)
	}
	return []byte(b.String())
}

func newGame(t testing.TB, names []string, opts rules.Options, seed uint64) *Game {
	t.Helper()
	g, err := New(rules.Setup{Names: names, Seed: seed, Options: opts,
		Content: map[string][]byte{TopicsFile: testDeck()}, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func seatNames(n int) []string {
	all := []string{"Sarah", "Marie", "Eric", "Simon", "Ada", "Bo", "Cy", "Dee"}
	return append([]string(nil), all[:n]...)
}

func mustApply(t testing.TB, g *Game, seat int, a any, now time.Time) {
	t.Helper()
	if err := g.Apply(seat, rules.Encode(a), now); err != nil {
		t.Fatalf("seat %d %s: %v", seat, rules.Encode(a), err)
	}
}

// snapshot is every seat's and the spectator's view plus the outcome, marshalled.
func snapshot(t testing.TB, g *Game) string {
	t.Helper()
	var b strings.Builder
	for s := -1; s < g.Players(); s++ {
		j, err := json.Marshal(g.View(s))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
	}
	res, ok := g.Outcome()
	j, _ := json.Marshal(res)
	fmt.Fprintf(&b, "%s %v", j, ok)
	return b.String()
}

func view(g *Game, seat int) View { return g.View(seat).(View) }

// runReveal ticks through the reveal until the round's scores are in; it returns the time.
func runReveal(t testing.TB, g *Game, now time.Time) time.Time {
	t.Helper()
	for i := 0; i < 20 && g.phase == PhaseReveal; i++ {
		now = now.Add(g.beat)
		g.Tick(now)
	}
	if g.phase == PhaseReveal {
		t.Fatal("reveal never ended")
	}
	return now
}

// playRound has every seat submit the given ranking (nil: stay silent) and reveals it.
func playRound(t testing.TB, g *Game, now time.Time, rk map[int]Rank) time.Time {
	t.Helper()
	for s := 0; s < g.Players(); s++ {
		if a, ok := rk[s]; ok {
			mustApply(t, g, s, a, now)
		}
	}
	return runReveal(t, g, now)
}

// nextRound skips the results pause.
func nextRound(t testing.TB, g *Game, now time.Time) time.Time {
	t.Helper()
	if g.phase != PhaseResults {
		t.Fatalf("phase %s, want results", g.phase)
	}
	now = now.Add(ResultsPause)
	g.Tick(now)
	return now
}

func r5(a, b, c, d, e int) [Hand]int { return [Hand]int{a, b, c, d, e} }
