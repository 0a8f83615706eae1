package talltale

import (
	"errors"
	"strings"
	"testing"
)

func TestParseIllustrations(t *testing.T) {
	deck, err := readBoards(content(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(deck) != 100 {
		t.Fatalf("%d illustrations", len(deck))
	}
	for i, ill := range deck {
		if ill.ID != i || ill.Colour != Colours[i/PerBoard] {
			t.Errorf("%d: %+v", i, ill)
		}
	}
}

func TestParseIllustrationsRejects(t *testing.T) {
	good := string(content(t)[ContentFile])
	cases := map[string]string{
		"empty":          "",
		"no section":     "cat | =^.^= | cats\n",
		"duplicate":      strings.Replace(good, "apple | (`) | apples", "fish | (`) | apples", 1),
		"missing glyph":  strings.Replace(good, "apple | (`) | apples", "apple | apples", 1),
		"no forms":       strings.Replace(good, "apple | (`) | apples", "apple | (`) | ", 1),
		"long glyph":     strings.Replace(good, "apple | (`) | apples", "apple | (``````````) | apples", 1),
		"short board":    strings.Replace(good, "apple | (`) | apples\n", "", 1),
		"wrong order":    strings.Replace(good, "[blue]", "[green]", 1),
		"non-ascii":      strings.Replace(good, "apple | (`) | apples", "apple | (é) | apples", 1),
		"repeated forms": strings.Replace(good, "apple | (`) | apples", "apple | (`) | apples, Apples", 1),
	}
	for name, text := range cases {
		if _, err := readBoards(map[string][]byte{ContentFile: []byte(text)}); !errors.Is(err, ErrContent) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestFindForbidden(t *testing.T) {
	cases := []struct {
		story string
		forms []string
		want  string
		ok    bool
	}{
		{"A cat sat.", []string{"cat", "cats"}, "cat", true},
		{"Two CATS sat.", []string{"cat", "cats"}, "cats", true},
		{"A category of things.", []string{"cat", "cats"}, "", false},
		{"The cat's hat.", []string{"cat"}, "cat", true},
		{"Un Café noir.", []string{"cafe"}, "cafe", true},
		{"A cafe noir.", []string{"café"}, "café", true},
		{"The fire engine came.", []string{"fire truck", "fire engine"}, "fire engine", true},
		{"The fire was engine-like.", []string{"fire engine"}, "", false},
		{"An AEROPLANE!", []string{"airplane", "aeroplane"}, "aeroplane", true},
		{"scattered", []string{"cat"}, "", false},
		// Any language: a decomposed accent (e + U+0301) stays inside its word…
		{"Un cafe\u0301 noir.", []string{"café"}, "café", true},
		{"Le cafe\u0301ier pousse.", []string{"cafe"}, "", false},
		{"Un éclair au chocolat.", []string{"e\u0301clair"}, "e\u0301clair", true},
		// …case folds the Unicode way, and compatibility forms meet their letters…
		{"DIE STRASSE IST LANG.", []string{"Straße"}, "Straße", true},
		{"Ein Mädchen lacht.", []string{"MÄDCHEN"}, "MÄDCHEN", true},
		{"Σοφία γράφει.", []string{"ΣΟΦΊΑ"}, "ΣΟΦΊΑ", true},
		{"ｶﾀﾅ", []string{"カタナ"}, "カタナ", true},
		// …and words of a script written without spaces are found inside the text.
		{"黒い猫が寝ている。", []string{"猫"}, "猫", true},
		{"犬が走る。", []string{"猫"}, "", false},
		{"ねこがいる", []string{"ねこ"}, "ねこ", true},
		{"がっこうへいく", []string{"かっこう"}, "", false},
	}
	for _, c := range cases {
		got, ok := FindForbidden(c.story, c.forms)
		if got != c.want || ok != c.ok {
			t.Errorf("FindForbidden(%q, %v) = %q, %v; want %q, %v", c.story, c.forms, got, ok, c.want, c.ok)
		}
	}
}

func TestSentencesAndClean(t *testing.T) {
	for story, want := range map[string]int{
		"A cat.":                 1,
		"A cat":                  1,
		"A cat. A dog.":          2,
		"A cat. A dog. A bird.":  3,
		"Wait... what?!":         1,
		"Hello!!! ":              1,
		"":                       0,
		"A cat sat... and sat.":  1,
		"The end. 3 more cats!":  2,
		"One? Two! Three.":       3,
		"…":                      0,
		"An owl, a pear; a kite": 1,
	} {
		if got := Sentences(story); got != want {
			t.Errorf("Sentences(%q) = %d, want %d", story, got, want)
		}
	}
	for _, c := range realSentences {
		if got := Sentences(c.story); got != c.want {
			t.Errorf("Sentences(%q) = %d, want %d", c.story, got, c.want)
		}
	}
	if got := StoryWidth("你好 cat"); got != 8 {
		t.Errorf("StoryWidth = %d, want 8 columns", got)
	}
}

// realSentences are stories as players write them: abbreviations, initials, decimals,
// ellipses and quotes that must not count as sentence ends, and real ends that must.
var realSentences = []struct {
	story string
	want  int
}{
	{"Dr. Bee paid 3.5 coins for sweet gold!", 1},
	{"Mr. and Mrs. Smith flew to St. Louis at 6 p.m. on a Tuesday.", 1},
	{"J. R. R. Tolkien wrote about a ring. It was very small.", 2},
	{"I packed fruit, e.g. apples and pears, for the trip.", 1},
	{"Bring snacks, i.e. anything crunchy. The hike is long.", 2},
	{"We saw lions, tigers, etc. and then went home.", 1},
	{"We saw lions, tigers, etc. Then we went home.", 2},
	{"The temperature dropped to -3.5 degrees overnight.", 1},
	{"It cost $2.99... but it was worth every cent.", 1},
	{"I waited and waited… Nobody came.", 2},
	{"\"Who's there?\" asked the cat. Nobody answered.", 2},
	{"\"Stop!\" The dog froze. The cat laughed.", 3},
	{"She works for the U.S. Navy on a big grey ship.", 1},
	{"Prof. Plum met Capt. Hook at 10 a.m. sharp.", 1},
	{"Version 2.0 of the robot danced. Everyone cheered!", 2},
	{"Hmm... what was that? A ghost, maybe.", 2},
	{"It rained. It poured. It flooded.", 3},
	{"The king sat down. The queen stood up. The jester fell over!", 3},
	{"Is it hot? Is it cold? Nobody knows.", 3},
	{"Martin Luther King Jr. had a dream.", 1},
	{"Smith et al. found a tiny bottle in the sea.", 1},
	{"A cat named Mr. Whiskers (aka the boss) ran off. He came back at 5 a.m. Then he slept.", 3},
	{"Wow!!! That was fast. So fast!", 3},
	{"I. I think so.", 2},
}
