package server

import (
	"os"
	"strings"
	"testing"

	"parlor/rules"
)

// docs/api.md has a row for every op the API takes, table operations included, and
// lists every code of the table's errors: a new operation or error comes with its words.
func TestTheAPIPageListsEveryOpAndCode(t *testing.T) {
	page, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range apiOps {
		if !strings.Contains(string(page), "| `"+op+"` |") {
			t.Errorf("docs/api.md has no row for the op %q", op)
		}
	}
	for _, e := range rules.Sentinels() {
		if strings.HasPrefix(e.Code(), "lobby.") && !strings.Contains(string(page), "| `"+e.Code()+"` |") {
			t.Errorf("docs/api.md does not list the error code %q", e.Code())
		}
	}
}
