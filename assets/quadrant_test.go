package assets_test

import (
	"testing"

	"parlor/assets"
	"parlor/rules"
	"parlor/rules/quadrant"
)

// TestQuadrantContent checks the embedded Quadrant decks: sizes, lengths, no duplicates,
// and that a game of each mode starts from them.
func TestQuadrantContent(t *testing.T) {
	content, err := assets.Load(quadrant.Spec.Content)
	if err != nil {
		t.Fatal(err)
	}
	decks, err := quadrant.ParseDecks(content)
	if err != nil {
		t.Fatal(err)
	}
	if err := decks.CheckSize(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d words, %d criteria", len(decks.Words), len(decks.Criteria))
	for _, c := range []struct {
		mode string
		n    int
	}{{quadrant.ModeCompetitive, 7}, {quadrant.ModeTeam, 14}} {
		opts, err := quadrant.Spec.CheckOptions(rules.Options{quadrant.OptMode: c.mode})
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, c.n)
		for i := range names {
			names[i] = string(rune('A' + i))
		}
		if _, err := quadrant.New(rules.Setup{Names: names, Seed: 1, Options: opts, Content: content}); err != nil {
			t.Fatalf("%s: %v", c.mode, err)
		}
	}
}
