package fingertip

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRulesPageStory plays the situations the rules page describes (it has no numbered
// worked example): a plain clue found at once gains the clue-giver nothing; an
// ambiguous clue lures players onto wrong cards, which the clue-giver collects.
func TestRulesPageStory(t *testing.T) {
	g := newGame(t, 4, 31, nil)
	a := g.active
	// Turn 1: too plain, the first guesser finds it at once.
	mustApply(t, g, a, Clue{Type: TypeClue, Text: g.pics[2*g.square[g.target].card+g.square[g.target].side].Alt}, t0)
	first := guessers(g)[0]
	mustApply(t, g, first, Point{Type: TypePoint, Position: g.target + 1}, t0.Add(time.Second))
	want := []int{0, 0, 0, 0}
	want[first] = 1
	if got := view(g, -1).Scores; !slices.Equal(got, want) {
		t.Fatalf("after a plain clue: %v, want %v", got, want)
	}
	g.Tick(t0.Add(time.Second + RevealTime))
	// Turn 2: the next seat clockwise is active; an ambiguous clue lures two players.
	b := g.active
	if b != (a+1)%4 {
		t.Fatalf("active %d after %d", b, a)
	}
	now := t0.Add(10 * time.Second)
	mustApply(t, g, b, Clue{Type: TypeClue, Text: "maybe"}, now)
	gs, wrong := guessers(g), wrongPositions(g)
	mustApply(t, g, gs[0], Point{Type: TypePoint, Position: wrong[0]}, now)
	mustApply(t, g, gs[1], Point{Type: TypePoint, Position: wrong[1]}, now)
	mustApply(t, g, gs[2], Point{Type: TypePoint, Position: g.target + 1}, now)
	want[b] += 2
	want[gs[2]]++
	if got := view(g, -1).Scores; !slices.Equal(got, want) {
		t.Fatalf("after an ambiguous clue: %v, want %v", got, want)
	}
	conserved(t, g)
}

// TestRulesTextsSayNobodyTakesWhenNobodyFinds: the rules on '?', the lobby's paragraph
// and the API page all say what the engine does when nobody finds the target: the wrong
// cards are discarded with it (they were once said to go to the active player).
func TestRulesTextsSayNobodyTakesWhenNobodyFinds(t *testing.T) {
	api, err := os.ReadFile("../../docs/games/fingertip.md")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"rules.md": Spec.Rules, "HowToPlay": Spec.HowToPlay, "docs/games/fingertip.md": string(api)} {
		flat := strings.Join(strings.Fields(text), " ")
		if !strings.Contains(flat, "discarded with the target") {
			t.Errorf("%s does not say the wrong cards are discarded with the target", name)
		}
		if strings.Contains(flat, "after taking the wrong cards") {
			t.Errorf("%s still has the active player take the wrong cards when nobody finds the target", name)
		}
	}
}
