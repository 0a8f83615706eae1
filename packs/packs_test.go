package packs_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"parlor/packs"
	"parlor/rules"
	_ "parlor/rules/quadrant"
	"parlor/store"
)

// TestNormalize: a file from any editor reads the same: no byte-order mark, Unix line
// ends, composed accents; control characters and invalid UTF-8 are refused by line.
func TestNormalize(t *testing.T) {
	got, err := packs.Normalize([]byte("\uFEFFCafe\u0301\r\nNaïve\r\n"))
	if err != nil || string(got) != "Café\nNaïve\n" {
		t.Errorf("Normalize = %q, %v", got, err)
	}
	_, err = packs.Normalize([]byte("ok\nbad\x07bell\nfine\n\xff\xfe\nrtl\u202eover\n"))
	var ce *rules.ContentError
	if !errors.As(err, &ce) || len(ce.Problems) != 3 || ce.Problems[0].Line != 2 || ce.Problems[1].Line != 4 || ce.Problems[2].Line != 5 {
		t.Errorf("Normalize of a bad file: %v", err)
	}
}

// TestInvisibleCharactersAreDropped: zero-width spaces, joiners between letters' words,
// word joiners, a byte-order mark within a line and soft hyphens show as nothing: a pack
// of them was stored as five blank topics, and "Co\u00adpy" beside "Copy" as two. They go,
// as from everything else players send (the project's one sanitiser); spaces inside a
// line stay (pictures are drawn with them).
func TestInvisibleCharactersAreDropped(t *testing.T) {
	got, err := packs.Normalize([]byte("\u200b\n\u200b\u200b\n\u2060x\nCo\u00adpy\n\ufeffBOM\n  /\\_/\\  \n"))
	if err != nil || string(got) != "\n\nx\nCopy\nBOM\n  /\\_/\\  \n" {
		t.Errorf("Normalize = %q, %v", got, err)
	}
	lib := &packs.Library{Store: store.NewMemory()}
	_, err = lib.Add(context.Background(), "SHA256:ann", false, "quadrant-words", "Copies", []byte("Copy\nCo\u00adpy\n\u2060Copy\nApfel\nBirne\nKirsche\n"))
	if err == nil || !strings.Contains(err.Error(), "Copy") {
		t.Errorf("a pack of look-alike words was stored: %v", err)
	}
}

// TestAddStoresComposedText: a pack written with combining accents is stored composed,
// so its entries compare and measure as they look.
func TestAddStoresComposedText(t *testing.T) {
	lib := &packs.Library{Store: store.NewMemory()}
	ctx := context.Background()
	words := "Cafe\u0301\nApfel\nBirne\nKirsche\nPflaume\n"
	p, err := lib.Add(ctx, "SHA256:ann", false, "quadrant-words", "  Obst   und  Café ", []byte(words))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "Obst und Café" || !strings.HasPrefix(string(p.Content), "Café\n") || p.Entries != 5 {
		t.Errorf("stored %q: %q, %d entries", p.Name, p.Content, p.Entries)
	}
	if _, err := lib.Add(ctx, "SHA256:ann", false, "quadrant-words", "Dup", []byte(words+"café\n")); err == nil || !strings.Contains(err.Error(), "repeats line 1") {
		t.Errorf("a composed and a decomposed café are one word: %v", err)
	}
	if _, err := lib.Add(ctx, "guest:1", true, "quadrant-words", "Mine", []byte(words)); !errors.Is(err, packs.ErrGuest) {
		t.Errorf("guest: %v", err)
	}
	for _, name := range []string{strings.Repeat("n", packs.MaxNameLen+1), "Built-in", "mix: Obst", "MIX:Obst", "\x07\u200b"} {
		if _, err := lib.Add(ctx, "SHA256:ann", false, "quadrant-words", name, []byte(words)); err == nil {
			t.Errorf("the name %q was taken", name)
		}
	}
}

// TestPackNamesAreCleanedAsPlayerNamesAre: a pack's name goes through the one sanitiser:
// an emoji family is split into its pictures as in a player's name (it was refused as
// "control characters"), escape sequences go, and a name of invisible characters only is
// empty.
func TestPackNamesAreCleanedAsPlayerNamesAre(t *testing.T) {
	for in, want := range map[string]string{
		"🎉 Party 👩\u200d👩\u200d👧":   "🎉 Party 👩👩👧",
		"Red \x1b[31mzone":          "Red zone",
		"  Obst   und  Cafe\u0301 ": "Obst und Café",
	} {
		if got, err := packs.CheckName(in); err != nil || got != want {
			t.Errorf("CheckName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := packs.CheckName("\u200b\u2060"); !errors.Is(err, packs.ErrEmptyName) {
		t.Errorf("an invisible name: %v", err)
	}
}

// TestPackNamesIgnoreCase: a player who kept "Office life" finds it as "office life",
// and adding "office LIFE" replaces it (under the new spelling) rather than keeping two
// packs that look alike in every list.
func TestPackNamesIgnoreCase(t *testing.T) {
	ctx := context.Background()
	lib := &packs.Library{Store: store.NewMemory()}
	words := []byte("Stapler\nCoffee mug\nWhiteboard\nPrinter\nDesk plant\nLanyard\n")
	if _, err := lib.Add(ctx, "SHA256:ann", false, "quadrant-words", "Office life", words); err != nil {
		t.Fatal(err)
	}
	p, err := lib.Mine(ctx, "SHA256:ann", "office life")
	if err != nil || p.Name != "Office life" {
		t.Fatalf("Mine(office life) = %q, %v", p.Name, err)
	}
	if _, err := lib.Add(ctx, "SHA256:ann", false, "quadrant-words", "office LIFE", append(words, "Paperclip\n"...)); err != nil {
		t.Fatal(err)
	}
	mine, err := lib.Store.PacksOf(ctx, "SHA256:ann")
	if err != nil || len(mine) != 1 || mine[0].Name != "office LIFE" || mine[0].Entries != 7 {
		t.Fatalf("after adding under another case: %+v, %v", mine, err)
	}
	if err := lib.Remove(ctx, "SHA256:ann", "OFFICE life"); err != nil {
		t.Fatal(err)
	}
	if mine, _ := lib.Store.PacksOf(ctx, "SHA256:ann"); len(mine) != 0 {
		t.Fatalf("after remove: %+v", mine)
	}
}

// TestUTF16IsNamed: a file saved as UTF-16 (some Windows editors) is one problem that
// says what to do, not "not UTF-8" and a control character on every line.
func TestUTF16IsNamed(t *testing.T) {
	text := "Stapler\r\nCoffee mug\r\nWhiteboard\r\n"
	var le []byte
	le = append(le, 0xFF, 0xFE)
	for _, r := range text {
		le = append(le, byte(r), 0)
	}
	_, err := packs.Normalize(le)
	var ce *rules.ContentError
	if !errors.As(err, &ce) || len(ce.Problems) != 1 || !strings.Contains(ce.Problems[0].Text, "UTF-16") {
		t.Errorf("Normalize of UTF-16: %v", err)
	}
}
