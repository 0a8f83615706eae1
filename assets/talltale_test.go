package assets_test

import (
	"slices"
	"strings"
	"testing"

	"parlor/assets"
	"parlor/rules/talltale"
)

// TestTallTaleIllustrations validates the 100 illustrations: 4 colours of 25, short
// unique names, ASCII glyphs, forbidden forms that hold the name, no colour word among
// them (narrators may name a board's colour) and no form that is another illustration.
func TestTallTaleIllustrations(t *testing.T) {
	b, err := assets.Read(talltale.ContentFile)
	if err != nil {
		t.Fatal(err)
	}
	deck, err := talltale.ParseIllustrations(b)
	if err != nil {
		t.Fatal(err)
	}
	if deck, err = talltale.Boards(deck); err != nil {
		t.Fatal(err)
	}
	if len(deck) != 100 {
		t.Fatalf("%d illustrations, want 100", len(deck))
	}
	perColour := map[string]int{}
	names := map[string]int{}
	for _, ill := range deck {
		perColour[ill.Colour]++
		names[strings.ToLower(ill.Name)] = ill.ID
	}
	for _, c := range talltale.Colours {
		if perColour[c] != 25 {
			t.Errorf("%s has %d illustrations", c, perColour[c])
		}
	}
	if len(names) != 100 {
		t.Errorf("%d distinct names", len(names))
	}
	for _, ill := range deck {
		if !slices.Contains(ill.Forbidden, ill.Name) || len(ill.Forbidden) < 2 {
			t.Errorf("%s: forms %v", ill.Name, ill.Forbidden)
		}
		for _, f := range ill.Forbidden {
			for _, c := range talltale.Colours {
				if _, hit := talltale.FindForbidden(f, []string{c}); hit {
					t.Errorf("%s: form %q holds the colour %q", ill.Name, f, c)
				}
			}
			if id, ok := names[strings.ToLower(f)]; ok && id != ill.ID {
				t.Errorf("%s: form %q is another illustration", ill.Name, f)
			}
		}
	}
}
