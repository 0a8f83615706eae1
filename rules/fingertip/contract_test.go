package fingertip

import (
	"testing"

	"parlor/rules"
	"parlor/rules/rulestest"
)

// The rules contract, as every game keeps it (package rulestest), with the secret of
// Fingertip: only the active player sees the target before the turn ends.
func TestContract(t *testing.T) {
	rulestest.Run(t, ID, rulestest.Config{
		Secrets: func(t *testing.T, g rules.Game) { checkNoLeak(t, g.(*Game)) },
	})
}
