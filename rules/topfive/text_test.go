package topfive

import (
	"slices"
	"strings"
	"testing"
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
