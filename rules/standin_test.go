package rules_test

import (
	"testing"

	"parlor/rules"
)

func TestStandInLine(t *testing.T) {
	for in, want := range map[string]string{
		"You voted: 3, 1":                   "A bot for you voted: 3, 1",
		"You put a token on Moon (1 of 2).": "A bot for you put a token on Moon (1 of 2).",
		"Ranked: a, b":                      "A bot for you: Ranked: a, b",
	} {
		if got := rules.StandInLine(in); got != want {
			t.Errorf("StandInLine(%q) = %q, want %q", in, got, want)
		}
	}
}
