package fingertip

import (
	"testing"
	"time"

	"parlor/rules"
)

func TestBotCluesAfterAPause(t *testing.T) {
	g := newGame(t, 3, 21, nil)
	b := NewBot(rules.BotSetup{Seat: g.active, Seed: 1})
	if a := b.Act(g.View(g.active), t0); a != nil {
		t.Fatal("the bot answered without a pause")
	}
	if a := b.Act(g.View(g.active), t0.Add(clueReaction.Least-time.Millisecond)); a != nil {
		t.Fatal("the bot answered sooner than a person thinks of a clue")
	}
	a, ok := b.Act(g.View(g.active), t0.Add(30*time.Second)).(Clue)
	if !ok {
		t.Fatal("no clue after the pause")
	}
	if a.Text == "" {
		t.Fatal("an empty clue")
	}
	// Guessers and spectators give no clue.
	if a := NewBot(rules.BotSetup{Seat: guessers(g)[0], Seed: 1}).Act(g.View(guessers(g)[0]), t0.Add(time.Hour)); a != nil {
		t.Fatalf("guesser bot acted in the clue phase: %v", a)
	}
}

func TestBotPointsAtTheCardTheClueDescribes(t *testing.T) {
	content := realContent(t)
	pics, err := ParsePictures(content[ContentFile])
	if err != nil {
		t.Fatal(err)
	}
	for first := 0; first+9 <= len(pics); first += 9 {
		v := View{Clue: pics[first+4].Alt}
		for p := range 9 {
			v.Square = append(v.Square, Card{Position: p + 1, Alt: pics[first+p].Alt, Finger: -1})
		}
		if p := NewBot(rules.BotSetup{Seat: 1, Seed: uint64(first), Content: content}).choose(v); p != 5 {
			t.Errorf("clue %q: the bot chose %q", v.Clue, v.Square[p-1].Alt)
		}
	}
	g := newGame(t, 3, 22, nil)
	mustApply(t, g, g.active, Clue{Type: TypeClue, Text: view(g, -1).Square[4].Alt}, t0)
	seat := guessers(g)[0]
	b := NewBot(rules.BotSetup{Seat: seat, Seed: 3})
	b.Act(g.View(seat), t0)
	if a := b.Act(g.View(seat), t0.Add(raceReaction.Least-time.Millisecond)); a != nil {
		t.Fatal("the bot pointed sooner than a person reads the clue")
	}
	if _, ok := b.Act(g.View(seat), t0.Add(45*time.Second)).(Point); !ok {
		t.Fatal("the bot did not point after its pause")
	}
	// A card under another finger is never chosen.
	g.square[4].finger = guessers(g)[1]
	for range 20 {
		if p := b.choose(view(g, seat)); p == 5 || p == 0 {
			t.Fatalf("bot chose %d", p)
		}
	}
}
