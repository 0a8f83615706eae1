package docs_test

import (
	"strings"
	"testing"

	"parlor/docs"
	_ "parlor/games"
	"parlor/rules"
)

// Every pack kind has its section, which "pack help KIND" prints: the format and an
// example, without the page's markup.
func TestEveryPackKindHasItsHelp(t *testing.T) {
	for _, d := range rules.Decks() {
		text, ok := docs.PackKind(d.Kind)
		if !ok {
			t.Errorf("packs.md has no section on %s", d.Kind)
			continue
		}
		if len(strings.Split(text, "\n")) < 5 || strings.Contains(text, "```") || strings.Contains(text, "### ") {
			t.Errorf("%s's help:\n%s", d.Kind, text)
		}
	}
	if _, ok := docs.PackKind("nope"); ok {
		t.Error("a kind that does not exist has help")
	}
	text, _ := docs.PackKind("topfive-topics")
	if !strings.Contains(text, "One topic a line.") || !strings.Contains(text, "    Monday stand-ups") {
		t.Errorf("topfive-topics:\n%s", text)
	}
}
