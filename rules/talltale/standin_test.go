package talltale

import (
	"slices"
	"strings"
	"testing"
)

// A story a bot tells for an absent narrator is the bot's for everyone: the view says so
// and the table's log line names the bot; the next round's story is the narrator's again.
func TestAStandInsStoryIsTheBots(t *testing.T) {
	g := newGame(t, 3, 5, nil)
	g.drawn = []int{0, 1, 2, 3}
	mustApply(t, g, g.narrator, Discard{Type: "discard", Card: 0})
	if err := g.ApplyStandIn(g.narrator, act(Story{Type: "story", Text: "Once upon a time there was a long walk."}), t0); err != nil {
		t.Fatal(err)
	}
	narrator := g.names[g.narrator]
	for seat := -1; seat < 3; seat++ {
		v := view(g, seat)
		if !v.StoryBot || !slices.Contains(v.Log, "A bot for "+narrator+": \"The end of the story!\" Race!") {
			t.Fatalf("seat %d: story by a bot %v, log %q", seat, v.StoryBot, v.Log)
		}
	}
	next := (g.narrator + 1) % 3
	g.startRound(t0, next, g.othersThan(next))
	if view(g, 0).StoryBot {
		t.Fatal("the next round's story is still the bot's")
	}
	for _, l := range view(g, 0).Log {
		if strings.HasPrefix(l, "You ") {
			t.Errorf("a line of the bot's move reads as the player's: %q", l)
		}
	}
}
