package foresight

import (
	"testing"

	"parlor/rules"
	"parlor/rules/rulestest"
)

// The rules contract, as every game keeps it (package rulestest), with the secrets of
// Foresight: no seat's view depends on another seat's submission before the reveal.
// Games are five questions long.
func TestContract(t *testing.T) {
	rulestest.Run(t, ID, rulestest.Config{
		Pauses: []string{PhaseReveal},
		Tables: []rulestest.Table{{Options: rules.Options{"rounds": "5"}}, {Options: rules.Options{"rounds": "5"}, Players: 4}},
		Secrets: func(t *testing.T, g rules.Game) {
			for seat := rules.Spectator; seat < len(g.(*Game).names); seat++ {
				checkNoLeak(t, g.(*Game), seat, false)
			}
		},
	})
}
