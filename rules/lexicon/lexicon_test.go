package lexicon

import (
	"math/rand/v2"
	"slices"
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

// TestRelatedIsTheFourListsFormula holds RelatedWords, which walks one list of
// relations per lemma, to the formula it stands for, worked out here on the lemma's
// strong and weak relations as two lists: a direct relation first, else shared
// relations (strong with strong counting 2, strong with weak 1, weak with weak ½, four
// making the most).
func TestRelatedIsTheFourListsFormula(t *testing.T) {
	l := Default()
	lists := func(id int32) (strong, weak []int32) {
		for _, v := range l.rel[id] {
			if v&1 == 0 {
				strong = append(strong, v>>1)
			} else {
				weak = append(weak, v>>1)
			}
		}
		return strong, weak
	}
	count := func(a, b []int32) (n float64) {
		for _, x := range a {
			if slices.Contains(b, x) {
				n++
			}
		}
		return n
	}
	want := func(ia, ib int32) float64 {
		sa, wa := lists(ia)
		sb, wb := lists(ib)
		switch {
		case ia == ib:
			return Same
		case slices.Contains(sa, ib) || slices.Contains(sb, ia):
			return Strong
		case slices.Contains(wa, ib) || slices.Contains(wb, ia):
			return Weak
		}
		return Shared * min(1, (2*count(sa, sb)+count(sa, wb)+count(wa, sb)+0.5*count(wa, wb))/4)
	}
	r := rand.New(rand.NewPCG(1, 2))
	n := int32(len(l.rel))
	kinds := map[float64]int{}
	check := func(ia, ib int32) {
		a, b := l.lemmaWord("a", ia), l.lemmaWord("b", ib)
		got, w := l.RelatedWords(a, b), want(ia, ib)
		if got != w {
			t.Fatalf("RelatedWords(%d, %d) = %v, want %v", ia, ib, got, w)
		}
		kinds[got]++
	}
	for range 20000 {
		ia := r.Int32N(n)
		check(ia, r.Int32N(n))
		// And a lemma near it, so that direct and shared relations come up too.
		if rel := l.rel[ia]; len(rel) > 0 {
			near := rel[r.IntN(len(rel))] >> 1
			check(ia, near)
			if rel2 := l.rel[near]; len(rel2) > 0 {
				check(ia, rel2[r.IntN(len(rel2))]>>1)
			}
		}
	}
	if len(kinds) < 5 {
		t.Fatalf("the pairs tried gave only these relatednesses: %v", kinds)
	}
}

// BenchmarkRelatedWords compares words already looked up, as a bot reading a story does.
func BenchmarkRelatedWords(b *testing.B) {
	l := Default()
	story := l.Words([]string{"sailor", "storm", "castle", "golden", "whisper", "orchard"})
	known := l.Words([]string{"lighthouse", "ship", "fortress", "crown", "secret", "apple", "tree", "wave"})
	for b.Loop() {
		for _, s := range story {
			for _, k := range known {
				l.RelatedWords(s, k)
			}
		}
	}
}
