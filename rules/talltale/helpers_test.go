package talltale

import (
	"encoding/json"
	"testing"
	"time"

	"parlor/internal/testkit/contenttest"
	"parlor/rules"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func content(t testing.TB) map[string][]byte {
	return contenttest.Load(t, ContentFile, MeaningFile)
}

func newGame(t testing.TB, players int, seed uint64, opts rules.Options) *Game {
	t.Helper()
	names := []string{"Ann", "Bob", "Cat", "Dan", "Eve", "Fay"}[:players]
	g, err := New(rules.Setup{Names: names, Seed: seed, Options: opts, Content: content(t), Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func act(a any) json.RawMessage { return rules.Encode(a) }

func mustApply(t testing.TB, g *Game, seat int, a any) {
	t.Helper()
	if err := g.Apply(seat, act(a), t0); err != nil {
		t.Fatalf("seat %d %+v: %v", seat, a, err)
	}
}

// snapshot marshals every seat's view, the spectator's and the outcome.
func snapshot(t testing.TB, g *Game) string {
	t.Helper()
	var all []any
	for s := -1; s < len(g.names); s++ {
		all = append(all, g.View(s))
	}
	res, over := g.Outcome()
	all = append(all, res, over)
	b, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// setRound puts the game into the race with the given kept illustrations, as if the
// narrator had drawn them plus discard and told a clean story.
func setRound(t testing.TB, g *Game, kept []int, discard int) {
	t.Helper()
	g.drawn = append([]int{discard}, kept...)
	mustApply(t, g, g.narrator, Discard{Type: "discard", Card: discard})
	mustApply(t, g, g.narrator, Story{Type: "story", Text: "Once upon a time there was a long walk."})
}

func view(g *Game, seat int) View { return g.View(seat).(View) }
