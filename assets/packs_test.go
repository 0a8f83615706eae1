package assets_test

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"parlor/assets"
	"parlor/internal/testkit/packtest"
	"parlor/rules"
	"parlor/rules/fingertip"
	"parlor/rules/foresight"
	"parlor/rules/quadrant"
	"parlor/rules/talltale"
	"parlor/rules/topfive"
)

// The specs of the games that keep theirs unexported.
var (
	foresightSpec, _ = rules.Lookup("foresight")
	talltaleSpec, _  = rules.Lookup(talltale.ID)
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
			[]int{0, 2, 4, 7}, []string{"this one has 3 (not", "at most 40", "repeats line 1", "repeats line 6"}},
		{"quadrant-words", "Apfel\nBaum\n\nApfel\nÄpfel\nein sehr langes deutsches Kompositum\n",
			[]int{0, 4, 6}, []string{"this one has 3 (not", "repeats line 1", "at most 24"}},
		{"foresight-questions", "family | Tea or coffee? | tea | coffee\nkids | Wrong deck? | a | b\nfamily | Only one? | yes\nfamily | tea or coffee | x | y\n",
			[]int{2, 3, 4}, []string{"neither family nor adult", "at least 2 choices", "repeats the question of line 1"}},
		{"talltale-illustrations", "[red]\nrose | @}-,-- | roses, red flower\napple | (`) | apples\n[purple]\nplum | o | plums\n[red]\napple | ( ) | apples\n",
			[]int{0, 2, 4, 6, 7}, []string{"this one has 2 (not", "names the board colour red", "not a board colour", "appears twice", "repeats line 3"}},
		{"fingertip-pictures", "== a cat\n/\\_/\\\n== a wide thing\n#########################\n== a cat\nsomething\n== empty\n",
			[]int{0, 4, 5, 7}, []string{"this one has 1 (not", "25 columns wide (at most 22)", "repeats line 1", "has no art"}},
		// A first picture without its "== " line (or with "==cat") is not a comment to skip.
		{"fingertip-pictures", "; my pictures\n==a cat\n/\\_/\\\n\n== a dog\no'')}\n",
			[]int{0, 2, 3}, []string{"this one has 1 (not", `before the first picture: a picture starts with "== " and its alt text`, "before the first picture"}},
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
	if len(ps) != 1 || !strings.Contains(ps[0].Text, "a topfive-topics pack needs at least 5 topics, and this one has 3") {
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

// playBots plays a whole game of bots from content and returns its result.
func playBots(t *testing.T, spec *rules.Spec, players int, opts rules.Options, content map[string][]byte) rules.Result {
	t.Helper()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	names := []string{"Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal"}[:players]
	o, err := spec.CheckOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	g, err := spec.New(rules.Setup{Names: names, Seed: 5, Options: o, Content: content, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]rules.Bot, players)
	for s := range bots {
		bots[s] = spec.NewBot(rules.BotSetup{Seat: s, Seed: uint64(s + 1), Options: o, Content: content})
	}
	for step := 0; ; step++ {
		if res, over := g.Outcome(); over {
			return res
		}
		if step > 50000 {
			t.Fatal("the game did not end")
		}
		now = now.Add(500 * time.Millisecond)
		g.Tick(now)
		for s, b := range bots {
			if a := b.Act(g.View(s), now); a != nil {
				if err := g.Apply(s, rules.Encode(a), now); err != nil {
					t.Fatalf("bot %d: %v", s, err)
				}
			}
		}
	}
}

// withPack is the game's built-in content with a pack in place of file (and the built-in
// copy beside it when mixed), as a table that chose the pack starts with.
func withPack(t *testing.T, spec *rules.Spec, file, pack string, mix bool) map[string][]byte {
	t.Helper()
	content, err := assets.Load(spec.Content)
	if err != nil {
		t.Fatal(err)
	}
	if mix {
		content[rules.Builtin(file)] = content[file]
	}
	content[file] = []byte(pack)
	return content
}

// TestGamesPlayWithPacks: bots play a whole game of every game on a pack, alone where the
// pack is big enough and mixed with the built-in deck where it is not, and a pack that is
// too small alone is refused at the start with advice.
func TestGamesPlayWithPacks(t *testing.T) {
	cases := []struct {
		spec    *rules.Spec
		file    string
		pack    string
		mix     bool
		players int
		opts    rules.Options
	}{
		{topfive.Spec, topfive.TopicsFile, packtest.Topics(30), false, 3, nil},
		{topfive.Spec, topfive.TopicsFile, packtest.Topics(6), true, 4, nil},
		{quadrant.Spec, quadrant.WordsFile, packtest.GermanWords, false, 4, nil},
		{quadrant.Spec, quadrant.WordsFile, packtest.JapaneseWords, false, 4, nil},
		{quadrant.Spec, quadrant.CriteriaFile, "leckerer\nteurer\nlauter\nschwerer\nälter\ngrößer\n", false, 4, nil},
		{foresightSpec, foresight.QuestionsFile, packtest.Questions(12), false, 3, rules.Options{"rounds": "5", "decks": "family"}},
		{fingertip.Spec, fingertip.ContentFile, packtest.Pictures(82), false, 3, nil},
		{fingertip.Spec, fingertip.ContentFile, packtest.Pictures(20), true, 6, nil},
		{talltaleSpec, talltale.ContentFile, packtest.Illustrations(25), false, 3, nil},
		{talltaleSpec, talltale.ContentFile, packtest.Illustrations(3), true, 4, nil},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/mix=%v", c.spec.ID, c.file, c.mix), func(t *testing.T) {
			content := withPack(t, c.spec, c.file, c.pack, c.mix)
			if res := playBots(t, c.spec, c.players, c.opts, content); len(res.Scores) != c.players {
				t.Errorf("result %+v", res)
			}
		})
	}
	small := withPack(t, topfive.Spec, topfive.TopicsFile, packtest.Topics(6), false)
	_, err := topfive.Spec.New(rules.Setup{Names: []string{"a", "b", "c"}, Options: topfive.Spec.Defaults(), Content: small})
	if err == nil || !strings.Contains(err.Error(), "6 topics, and a game of 3 players needs 30: choose a bigger pack, or mix this one with the built-in deck") {
		t.Errorf("a small pack alone: %v", err)
	}
}

// TestDocumentedExamples: every example in docs/packs.md parses as a pack of the kind
// its section names, and every kind has an example.
func TestDocumentedExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/packs.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := map[string]int{}
	kind := ""
	for i, part := range strings.Split(string(doc), "```") {
		if i%2 == 0 { // prose: the newest "### kind" heading names the examples after it
			for _, line := range strings.Split(part, "\n") {
				if k, ok := strings.CutPrefix(line, "### "); ok {
					kind = k
				}
			}
			continue
		}
		d, _, ok := rules.LookupDeck(kind)
		if !ok {
			continue // the command examples, before the kinds
		}
		body := strings.TrimPrefix(part, "\n")
		if n, err := d.Count(rules.Rated([]byte(body), false)); err != nil || n == 0 {
			t.Errorf("%s example: %d entries, %v\n%s", kind, n, err, body)
		}
		examples[kind]++
	}
	for _, d := range rules.Decks() {
		if examples[d.Kind] == 0 {
			t.Errorf("docs/packs.md has no example of %s", d.Kind)
		}
	}
}

// TestPackTooSmallWithProblems: a pack with bad lines that would also be too small says
// both at once, so that its owner does not fix the lines only to be refused again.
func TestPackTooSmallWithProblems(t *testing.T) {
	ps := problems(t, "topfive-topics", "one\ntwo\nA topic far, far too long for one line of the screen\n")
	if got := lines(ps); !slices.Equal(got, []int{0, 3}) {
		t.Fatalf("problems at lines %v, want [0 3]: %v", got, ps)
	}
	if !strings.Contains(ps[0].Text, "needs at least 5 topics, and this one has 2 (not counting the lines with problems)") {
		t.Errorf("problem = %q", ps[0].Text)
	}
}
