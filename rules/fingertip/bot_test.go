package fingertip

import (
	"slices"
	"testing"
	"time"

	"parlor/rules"
)

func TestBotClueComesFromTarget(t *testing.T) {
	g := newGame(t, 3, 21, nil)
	b := NewBot(rules.BotSetup{Seat: g.active, Seed: 1})
	if a := b.Act(g.View(g.active), t0); a != nil {
		t.Fatal("the bot answered without a pause")
	}
	a, ok := b.Act(g.View(g.active), t0.Add(5*time.Second)).(Clue)
	if !ok {
		t.Fatal("no clue after the pause")
	}
	if !slices.Contains(words(view(g, g.active).Square[g.target].Alt), a.Text) {
		t.Fatalf("clue %q is not a word of %q", a.Text, view(g, g.active).Square[g.target].Alt)
	}
	// Guessers and spectators give no clue.
	if a := NewBot(rules.BotSetup{Seat: guessers(g)[0], Seed: 1}).Act(g.View(guessers(g)[0]), t0.Add(time.Hour)); a != nil {
		t.Fatalf("guesser bot acted in the clue phase: %v", a)
	}
}

func TestBotPointsByWordOverlap(t *testing.T) {
	g := newGame(t, 3, 22, nil)
	alt := view(g, -1).Square[4].Alt // "a <adjective> <noun> number <n>"
	mustApply(t, g, g.active, Clue{Type: TypeClue, Text: alt}, t0)
	seat := guessers(g)[0]
	b := NewBot(rules.BotSetup{Seat: seat, Seed: 3})
	b.Act(g.View(seat), t0)
	a, ok := b.Act(g.View(seat), t0.Add(5*time.Second)).(Point)
	if !ok || a.Position != 5 {
		t.Fatalf("bot pointed %+v, want card 5 (%q)", a, alt)
	}
	// A card under another finger is never chosen.
	g.square[4].finger = guessers(g)[1]
	for range 20 {
		if p := b.choose(view(g, seat)); p == 5 || p == 0 {
			t.Fatalf("bot chose %d", p)
		}
	}
}

func TestWords(t *testing.T) {
	got := words("Two keys on the Old door, keys!")
	if !slices.Equal(got, []string{"key", "old", "door"}) {
		t.Fatalf("%v", got)
	}
}
