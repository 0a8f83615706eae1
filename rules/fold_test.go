package rules

import (
	"slices"
	"testing"
)

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Cafe\u0301": "café",    // a decomposed accent composes
		"STRASSE":    "strasse", // full case folding…
		"Straße":     "strasse", // …meets ß
		"ｶﾀｶﾅ":       "カタカナ",    // half-width kana are kana
		"ﬁsh":        "fish",    // a ligature is its letters
		"schön":      "schön",   // accents still count
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"Cafe\u0301": "cafe",
		"Ἀθῆναι":     "αθηναι",
		"Ёлка":       "елка",
		"がっこう":       "がっこう", // a voiced kana keeps its mark
	} {
		if got := Plain(in); got != want {
			t.Errorf("Plain(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Words("Un cafe\u0301-crème, s'il vous plaît"); !slices.Equal(got, []string{"un", "cafe", "creme", "s", "il", "vous", "plait"}) {
		t.Errorf("Words = %q", got)
	}
}

func TestMix(t *testing.T) {
	got := Mix([]string{"Apfel", "Birne"}, []string{"apfel", "Kirsche", "BIRNE"}, Fold)
	if !slices.Equal(got, []string{"Apfel", "Birne", "Kirsche"}) {
		t.Errorf("Mix = %q", got)
	}
}

func TestRated(t *testing.T) {
	file := "Cats\nTequila shots [adult]\nDogs  \n== a cat\n/\\_/\\\n== a bar [adult]\n|__|\n\n== a dog\no-o\n"
	if got := string(Rated([]byte(file), true)); got != "Cats\n\nDogs  \n== a cat\n/\\_/\\\n\n\n\n== a dog\no-o\n" {
		t.Errorf("family: %q", got)
	}
	if got := string(Rated([]byte(file), false)); got != "Cats\nTequila shots\nDogs  \n== a cat\n/\\_/\\\n== a bar\n|__|\n\n== a dog\no-o\n" {
		t.Errorf("everything: %q", got)
	}
}
