package talltale

import (
	"testing"

	"parlor/rules"
	"parlor/rules/rulestest"
)

// The rules contract, as every game keeps it (package rulestest), with the secrets of
// Tall Tale: the narrator's hand and each racer's tokens before the reveal. The
// narrator's time limit is on, so that it runs out now and then.
func TestContract(t *testing.T) {
	rulestest.Run(t, ID, rulestest.Config{
		Tables:  []rulestest.Table{{Options: rules.Options{OptTimer: "60s"}}},
		Secrets: func(t *testing.T, g rules.Game) { checkSecrets(t, g.(*Game)) },
	})
}
