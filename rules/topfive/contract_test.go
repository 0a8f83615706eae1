package topfive

import (
	"testing"

	"parlor/rules"
	"parlor/rules/rulestest"
)

// The rules contract, as every game keeps it (package rulestest), with the secrets of
// Top Five: a seat sees its own ranking only, and the Player of Honour's one step at a
// time.
func TestContract(t *testing.T) {
	rulestest.Run(t, ID, rulestest.Config{
		Pauses:  []string{PhaseResults},
		Secrets: func(t *testing.T, g rules.Game) { checkSecrets(t, g.(*Game)) },
	})
}
