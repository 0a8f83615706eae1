package fingertip

import (
	"fmt"
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

// knowing makes a clue-giver's view of a square whose pictures the bot knows by exactly
// the given words (made-up words, which the lexicon relates to nothing but themselves),
// with the target at position 1 and players seats, the bot's holding cards.
func knowing(t *testing.T, words [9][]string, players, cards int) (*Bot, View) {
	t.Helper()
	b := NewBot(rules.BotSetup{Seat: 0, Seed: 7})
	v := View{Header: rules.Header{Seat: 0, Phase: PhaseClue}, Active: 0, Target: 1}
	for s := range players {
		p := Player{Seat: s, Name: string(rune('A' + s))}
		if s == 0 {
			p.Cards = cards
		}
		v.Players = append(v.Players, p)
	}
	for i, ws := range words {
		alt := fmt.Sprintf("picture %d", i+1)
		b.sense.known[alt], b.sense.lexWords[alt] = ws, b.sense.lex.Words(ws)
		v.Square = append(v.Square, Card{Position: i + 1, Alt: alt, Finger: -1, TakenBy: -1})
	}
	return b, v
}

// TestBotCluesForACardItCanWin: a wrong card pays only when the target is still found.
// With two guessers, a word the target shares with three other pictures is found by
// neither half the time, which costs a card the bot holds: it gives the word only the
// target has instead (it used to give the shared one). With four guessers the same
// shared word lures one or two of them and is still found, so the bot gives it: a clue
// some, not all, find.
func TestBotCluesForACardItCanWin(t *testing.T) {
	square := [9][]string{{"zorbl", "quemp"}, {"zorbl", "flib"}, {"zorbl", "flob"}, {"zorbl", "flab"},
		{"flub"}, {"frab"}, {"frob"}, {"freb"}, {"frib"}}
	b, v := knowing(t, square, 3, 2)
	if got := b.clueFor(v); got != "quemp" {
		t.Errorf("two guessers, four pictures fit %q: the bot risks its card on it", got)
	}
	square[3] = []string{"flab"} // the target and two others share zorbl
	b, v = knowing(t, square, 5, 2)
	if got := b.clueFor(v); got != "zorbl" {
		t.Errorf("four guessers: the bot gave the plain %q, not the word that lures some", got)
	}
}

// TestGainOfAClue: the clue-giver's expectation under the rules: a plain clue earns
// about nothing, a clue that fits no picture better than another loses the card at stake
// more often than it earns one, and a close decoy earns most.
func TestGainOfAClue(t *testing.T) {
	flat := []float64{0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2}
	plain := []float64{0, 0, 0, 0, 0, 0, 0, 0}
	decoy := []float64{0.9, 0, 0, 0, 0, 0, 0, 0}
	if g := gain(1, plain, 2, 1); g < 0 || g > 0.05 {
		t.Errorf("a plain clue: %.2f", g)
	}
	if g := gain(0.2, flat, 2, 1); g >= 0 {
		t.Errorf("a clue that fits nothing better: %.2f", g)
	}
	if g, p := gain(1, decoy, 2, 1), gain(1, plain, 2, 1); g <= p {
		t.Errorf("a close decoy %.2f, a plain clue %.2f", g, p)
	}
}
