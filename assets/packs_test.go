package assets_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"parlor/assets"
	"parlor/rules"
	_ "parlor/rules/fingertip"
	_ "parlor/rules/foresight"
	_ "parlor/rules/quadrant"
	_ "parlor/rules/talltale"
	_ "parlor/rules/topfive"
)

// problems checks a pack of kind and returns its problems as "line: text" strings.
func problems(t *testing.T, kind, text string) []rules.Problem {
	t.Helper()
	d, _, ok := rules.LookupDeck(kind)
	if !ok {
		t.Fatalf("no deck of kind %s", kind)
	}
	_, err := d.Check([]byte(text))
	var ce *rules.ContentError
	if !errors.As(err, &ce) {
		t.Fatalf("%s: want a *rules.ContentError, got %v", kind, err)
	}
	return ce.Problems
}

// lines is the line number of each problem, in order.
func lines(ps []rules.Problem) []int {
	var out []int
	for _, p := range ps {
		out = append(out, p.Line)
	}
	return out
}

// TestPackProblemsHaveLineNumbers: every kind reports every problem of a pack at once,
// each with its line.
func TestPackProblemsHaveLineNumbers(t *testing.T) {
	cases := []struct {
		kind, text string
		lines      []int
		says       []string
	}{
		{"topfive-topics", "Cats\nA topic far, far too long for one line of the screen\n# comment\ncats\nDogs\nCafé\nCafe\u0301\n",
			[]int{2, 4, 7}, []string{"at most 40", "repeats line 1", "repeats line 6"}},
		{"quadrant-words", "Apfel\nBaum\n\nApfel\nÄpfel\nein sehr langes deutsches Kompositum\n",
			[]int{4, 6}, []string{"repeats line 1", "at most 24"}},
		{"foresight-questions", "family | Tea or coffee? | tea | coffee\nkids | Wrong deck? | a | b\nfamily | Only one? | yes\nfamily | tea or coffee | x | y\n",
			[]int{2, 3, 4}, []string{"neither family nor adult", "at least 2 choices", "repeats the question of line 1"}},
		{"talltale-illustrations", "[red]\nrose | @}-,-- | roses, red flower\napple | (`) | apples\n[purple]\nplum | o | plums\n[red]\napple | ( ) | apples\n",
			[]int{2, 4, 6, 7}, []string{"names the board colour red", "not a board colour", "appears twice", "repeats line 3"}},
		{"fingertip-pictures", "== a cat\n/\\_/\\\n== a wide thing\n#########################\n== a cat\nsomething\n== empty\n",
			[]int{4, 5, 7}, []string{"25 columns wide (at most 22)", "repeats line 1", "has no art"}},
	}
	for _, c := range cases {
		ps := problems(t, c.kind, c.text)
		if !slices.Equal(lines(ps), c.lines) {
			t.Errorf("%s: problems at lines %v, want %v: %v", c.kind, lines(ps), c.lines, ps)
			continue
		}
		for i, p := range ps {
			if !strings.Contains(p.Text, c.says[i]) {
				t.Errorf("%s line %d: %q does not say %q", c.kind, p.Line, p.Text, c.says[i])
			}
		}
	}
}

// TestPackTooSmall: a valid pack with fewer entries than one round needs is refused.
func TestPackTooSmall(t *testing.T) {
	ps := problems(t, "topfive-topics", "one\ntwo\nthree\n")
	if len(ps) != 1 || !strings.Contains(ps[0].Text, "3 topics, and a topfive-topics pack needs at least 5") {
		t.Errorf("problems = %v", ps)
	}
}

// TestBuiltinFilesArePacks: every built-in content file passes as a pack of its kind, so
// the documented format is the built-in one.
func TestBuiltinFilesArePacks(t *testing.T) {
	for _, d := range rules.Decks() {
		b, err := assets.Read(d.File)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := d.Check(b); err != nil || n < d.Min {
			t.Errorf("%s: %d entries, %v", d.Kind, n, err)
		}
	}
}
