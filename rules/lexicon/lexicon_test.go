package lexicon

import (
	"testing"
)

func TestDefaultLexicon(t *testing.T) {
	l := Default()
	if l.Len() < 10000 {
		t.Fatalf("only %d lemmas", l.Len())
	}
	for w, want := range map[string]string{"boats": "boat", "leaves": "leaf", "mice": "mouse", "Sailor": "sailor", "xqzzy": ""} {
		if got := l.Lemma(w); got != want {
			t.Errorf("Lemma(%q) = %q, want %q", w, got, want)
		}
	}
}

func TestRelated(t *testing.T) {
	l := Default()
	near := [][2]string{
		{"sailor", "ship"}, {"owl", "nocturnal"}, {"boats", "boat"}, {"lighthouse", "beacon"},
		{"honey", "bee"}, {"castle", "fortress"}, {"kitten", "cat"}, {"ocean", "sea"}, {"umbrella", "canopy"},
	}
	far := [][2]string{{"banana", "volcano"}, {"sailor", "cheese"}, {"owl", "tractor"}, {"pizza", "snowflake"}}
	for _, p := range near {
		if r := l.Related(p[0], p[1]); r < 0.3 {
			t.Errorf("Related(%q, %q) = %.2f, want related", p[0], p[1], r)
		}
		if l.Related(p[0], p[1]) != l.Related(p[1], p[0]) {
			t.Errorf("Related(%q, %q) is not symmetric", p[0], p[1])
		}
	}
	for _, p := range far {
		if r := l.Related(p[0], p[1]); r > 0.2 {
			t.Errorf("Related(%q, %q) = %.2f, want unrelated", p[0], p[1], r)
		}
	}
	if l.Related("unknownword", "ship") != 0 {
		t.Error("an unknown word is related")
	}
}

func TestFit(t *testing.T) {
	l := Default()
	sea := l.Fit([]string{"sailor", "waves"}, []string{"ship", "sea", "lighthouse"})
	farm := l.Fit([]string{"sailor", "waves"}, []string{"tractor", "barn", "cow"})
	if sea <= farm {
		t.Fatalf("a sea clue fits the sea (%.2f) no better than the farm (%.2f)", sea, farm)
	}
	if l.Fit(nil, []string{"x"}) != 0 || l.Fit([]string{"x"}, nil) != 0 {
		t.Fatal("empty lists fit")
	}
}

func TestParseRefusesBadData(t *testing.T) {
	if _, err := Parse([]byte("not gzip")); err == nil {
		t.Fatal("Parse accepted bytes that are not gzip")
	}
}

func BenchmarkRelated(b *testing.B) {
	l := Default()
	for range b.N {
		l.Related("sailor", "lighthouse")
	}
}

func TestPartsOfSpeech(t *testing.T) {
	l := Default()
	for w, noun := range map[string]bool{"honey": true, "claws": true, "spicy": false, "quickly": false, "xqzzy": false} {
		if l.Noun(w) != noun {
			t.Errorf("Noun(%q) = %v", w, !noun)
		}
	}
	if !l.Plural("claws") || l.Plural("claw") || l.Plural("xqzzys") {
		t.Error("Plural is wrong")
	}
}
