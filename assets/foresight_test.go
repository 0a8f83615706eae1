package assets_test

import (
	"testing"

	"parlor/assets"
	"parlor/rules/foresight"
)

// TestForesightQuestions: the question deck parses, has enough questions in every deck
// choice, and no duplicates (Parse rejects those, along with bad lengths and choice counts).
func TestForesightQuestions(t *testing.T) {
	b, err := assets.Read(foresight.QuestionsFile)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := foresight.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 150 {
		t.Errorf("%d questions, want at least 150", len(qs))
	}
	if n := len(foresight.InDecks(qs, []string{foresight.DeckFamily})); n < 150 {
		t.Errorf("%d family questions, want at least 150 for the default deck", n)
	}
	if n := len(foresight.InDecks(qs, []string{foresight.DeckAdult})); n < 30 {
		t.Errorf("%d adult questions, want at least 30 for an adult-only table", n)
	}
	for _, q := range qs {
		if len(q.Choices) < foresight.MinChoices || len(q.Choices) > foresight.MaxChoices {
			t.Errorf("%q has %d choices", q.Text, len(q.Choices))
		}
	}
}

// TestForesightParseRejects: the validator catches what a content writer could get wrong.
func TestForesightParseRejects(t *testing.T) {
	for _, bad := range []string{
		"family | One choice only? | yes",
		"kids | Wrong deck? | yes | no",
		"family | Six choices? | a | b | c | d | e | f",
		"family | Same choice twice? | yes | Yes",
		"family | Twice? | yes | no\nfamily | twice | maybe | no",
		"family | Empty choice? | yes | ",
		"family | A choice far too long for the screen? | yes | this choice goes on and on well past forty characters",
	} {
		if _, err := foresight.Parse([]byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}
