package topfive

import (
	"slices"
	"strings"
	"testing"

	"parlor/rules"
)

// TestGameOverLogSaysTheWinnerOnce: the lobby announces the result in the table's feed,
// so the game's own log does not say it again.
func TestGameOverLogSaysTheWinnerOnce(t *testing.T) {
	g, _ := playGame(t, 5, 3, nil, 0, false)
	res, over := g.Outcome()
	if !over {
		t.Fatal("not over")
	}
	if v := view(g, 0); slices.ContainsFunc(v.Log, func(l string) bool { return strings.Contains(l, res.Summary) }) {
		t.Errorf("the log repeats %q:\n%s", res.Summary, strings.Join(v.Log, "\n"))
	}
}

// TestDuoSaysHowItScores: in duo the prompt says how the pair scores before the first
// reveal, and the breakdown calls it one joint score ("3 points each" read as 6).
func TestDuoSaysHowItScores(t *testing.T) {
	g := newGame(t, []string{"Ann", "Bob"}, rules.Options{OptVariant: VariantDuo}, 1)
	if p := view(g, 0).Prompt; !strings.Contains(p, "a point per topic you both rank alike") {
		t.Errorf("the duo prompt: %q", p)
	}
	g2, _ := playGame(t, 3, 2, rules.Options{OptVariant: VariantDuo}, 0, false)
	last := strings.Join(view(g2, 0).Sheet.Last, "\n")
	if !strings.Contains(last, "to their joint score") || !strings.Contains(last, "Together Sarah and Marie gave") || strings.Contains(last, "each") {
		t.Errorf("the duo breakdown: %q", last)
	}
}
