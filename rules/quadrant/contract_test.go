package quadrant

import (
	"testing"

	"parlor/rules"
	"parlor/rules/rulestest"
)

// The rules contract, as every game keeps it (package rulestest), with the secrets of
// Quadrant: a seat sees its own number and votes only, and the team ballot only its team.
func TestContract(t *testing.T) {
	rulestest.Run(t, ID, rulestest.Config{
		Pauses: []string{PhaseScoring},
		Secrets: func(t *testing.T, g rules.Game) {
			for seat := rules.Spectator; seat < len(g.(*Game).names); seat++ {
				checkView(t, g.(*Game), seat)
			}
		},
	})
}
