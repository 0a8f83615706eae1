package rulestest_test

import (
	"testing"

	"parlor/internal/testkit/testgame"
	"parlor/rules"
	"parlor/rules/rulestest"
)

// The kit on the platform's tiny test game, timed and not: what docs/adding-a-game.md
// asks of a new game's one test.
func TestTheTestGameKeepsTheContract(t *testing.T) {
	rulestest.Run(t, testgame.ID, rulestest.Config{
		Tables: []rulestest.Table{{Options: rules.Options{"timer": "30s"}}, {Options: rules.Options{"rounds": "3"}, Players: 4}},
		Secrets: func(t *testing.T, g rules.Game) {
			for seat := rules.Spectator; seat < 4; seat++ {
				v, _ := rules.ViewAs[testgame.View](g.View(seat))
				if v.Note == testgame.Secret && v.Mine == 0 {
					t.Fatalf("seat %d reads a pick that is not its own", seat)
				}
			}
		},
	})
}
