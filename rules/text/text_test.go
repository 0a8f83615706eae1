package text

import (
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	if got := Words("A cat's cat-like DREAM, 3 times!"); !slices.Equal(got, []string{"a", "cat", "s", "cat", "like", "dream", "times"}) {
		t.Fatalf("Words = %v", got)
	}
	if got := Words("Un cafe\u0301 noir"); !slices.Equal(got, []string{"un", "café", "noir"}) {
		t.Fatalf("Words with a combining accent = %v", got)
	}
}

func TestSameWord(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"star", "stars", true}, {"Boxes", "box", true}, {"cherries", "cherry", true},
		{"running", "run", true}, {"baked", "bake", true}, {"calm", "calm", true},
		{"star", "start", false}, {"leaf", "leafy", false}, {"sea", "season", false},
	} {
		if got := SameWord(c.a, c.b); got != c.same {
			t.Errorf("SameWord(%q, %q) = %v", c.a, c.b, got)
		}
	}
}
