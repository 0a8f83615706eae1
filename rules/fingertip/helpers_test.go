package fingertip

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

var t0 = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

var (
	testAdjectives = []string{"red", "foggy", "broken", "tiny", "golden", "sleeping", "hidden"}
	testNouns      = []string{"door", "lighthouse", "kite", "maze", "key", "boat", "owl", "clock", "bridge", "tower", "moon"}
)

// testPictures is a synthetic but valid pictures file, so the engine's tests do not
// depend on the real content (which the assets test checks).
func testPictures() []byte {
	var b strings.Builder
	b.WriteString("; synthetic pictures for tests\n")
	for i := range Pictures {
		fmt.Fprintf(&b, "== a %s %s number %d\n", testAdjectives[i%len(testAdjectives)], testNouns[i%len(testNouns)], i)
		if i%3 == 0 {
			b.WriteString("ink base=AABBCC #=112233\n")
		}
		fmt.Fprintf(&b, "#%03d#\n|%s|\n", i, strings.Repeat("=", i%20))
	}
	return []byte(b.String())
}

var names6 = []string{"Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"}

func newGame(t testing.TB, players int, seed uint64, opts rules.Options) *Game {
	t.Helper()
	g, err := New(rules.Setup{Names: names6[:players], Seed: seed, Options: opts,
		Content: map[string][]byte{ContentFile: testPictures()}, Now: t0})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g
}

func act(a any) json.RawMessage { return rules.Encode(a) }

func mustApply(t testing.TB, g *Game, seat int, a any, now time.Time) {
	t.Helper()
	if err := g.Apply(seat, act(a), now); err != nil {
		t.Fatalf("seat %d %s: %v", seat, act(a), err)
	}
}

func view(g *Game, seat int) View { return g.View(seat).(View) }

// snapshot is everything any seat can observe, to prove an error changed nothing.
func snapshot(t testing.TB, g *Game) string {
	t.Helper()
	var b strings.Builder
	for s := -1; s < len(g.names); s++ {
		j, err := json.Marshal(g.View(s))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
	}
	res, over := g.Outcome()
	j, _ := json.Marshal(res)
	fmt.Fprintf(&b, "%s%v", j, over)
	return b.String()
}

// guessers lists the seats other than the active one, in clockwise order from it.
func guessers(g *Game) []int {
	var out []int
	for i := 1; i < len(g.names); i++ {
		out = append(out, (g.active+i)%len(g.names))
	}
	return out
}

// wrongPositions lists the positions 1-9 that are not the target.
func wrongPositions(g *Game) []int {
	var out []int
	for i := range 9 {
		if i != g.target {
			out = append(out, i+1)
		}
	}
	return out
}

// conserved checks that no card appears or vanishes.
func conserved(t testing.TB, g *Game) {
	t.Helper()
	n := len(g.pile) + len(g.discarded)
	for _, s := range g.square {
		if s.card >= 0 {
			n++
		}
	}
	for _, h := range g.held {
		n += len(h)
	}
	if n != g.total {
		t.Fatalf("cards: %d in play, want %d", n, g.total)
	}
}
