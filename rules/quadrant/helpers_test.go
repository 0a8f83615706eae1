package quadrant

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// testContent is a synthetic deck big enough for any game.
func testContent() map[string][]byte {
	var w, c strings.Builder
	for i := range 220 {
		fmt.Fprintf(&w, "word %d\n", i)
	}
	for i := range 110 {
		fmt.Fprintf(&c, "criterion %d\n", i)
	}
	return map[string][]byte{WordsFile: []byte(w.String()), CriteriaFile: []byte(c.String())}
}

func names(n int) []string {
	all := []string{"Ana", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Mo", "Ned"}
	return append([]string(nil), all[:n]...)
}

func newGame(t testing.TB, n int, opts rules.Options) *Game {
	t.Helper()
	o, err := Spec.CheckOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(rules.Setup{Names: names(n), Seed: 7, Options: o, Content: testContent(), Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func untimed(mode string) rules.Options {
	return rules.Options{OptMode: mode, OptPlacement: "off", OptVoting: "off"}
}

func act(t testing.TB, g *Game, seat int, a any) {
	t.Helper()
	if err := g.Apply(seat, rules.Encode(a), t0); err != nil {
		t.Fatalf("seat %d %+v: %v", seat, a, err)
	}
}

// lockAll locks every active token where it stands.
func lockAll(t testing.TB, g *Game) {
	t.Helper()
	for _, p := range append([]int(nil), g.players...) {
		if !g.locked[p] {
			act(t, g, p, Lock{Type: TypeLock})
		}
	}
}

// rightVotes is seat's ballot naming every other token's true number, except the owners
// listed in wrong, which get a wrong (but legal, distinct) number.
func rightVotes(g *Game, voter int) []Vote {
	var out []Vote
	for _, p := range g.players {
		if p != voter {
			out = append(out, Vote{Seat: p, Number: g.number[p]})
		}
	}
	return out
}

// snapshot marshals every seat's view, the spectator's, and the outcome.
func snapshot(t testing.TB, g *Game) string {
	t.Helper()
	var b strings.Builder
	for seat := -1; seat < len(g.names); seat++ {
		j, err := json.Marshal(g.View(seat))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
	}
	res, over := g.Outcome()
	j, _ := json.Marshal(res)
	fmt.Fprintf(&b, "%s %v %v %v %v %v %v %v %v %v %v %v %d", j, over, g.deadline, g.pos, g.locked, g.votes, g.ballot, g.rev, g.approve, g.done, g.number, g.phase, len(g.log))
	return b.String()
}
