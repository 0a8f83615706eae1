package rules_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parlor/packs"
	"parlor/rules"
	"parlor/rules/fingertip"
	"parlor/rules/foresight"
	"parlor/rules/quadrant"
	"parlor/rules/talltale"
	"parlor/rules/topfive"
)

// TestContentLimitsCountColumns feeds every limit on shown text a line of wide
// characters: as many characters as the limit allows, twice as many columns. Each is
// refused with its width, so a pack in Japanese cannot run past the room its screen keeps;
// the same line cut to the limit's columns is taken.
func TestContentLimitsCountColumns(t *testing.T) {
	wide := func(cols int) string { return strings.Repeat("漢", cols/2) + strings.Repeat("a", cols%2) }
	tf := func(s string) error { _, err := topfive.ParseTopics([]byte(s + "\n")); return err }
	quadWord := func(s string) error { _, err := quadrant.ParseWords([]byte(s + "\n")); return err }
	quadCriterion := func(s string) error { _, err := quadrant.ParseCriteria([]byte(s + "\n")); return err }
	fsQuestion := func(s string) error {
		_, err := foresight.Parse([]byte("family | " + s + " | yes | no\n"))
		return err
	}
	fsChoice := func(s string) error {
		_, err := foresight.Parse([]byte("family | Would you? | " + s + " | no\n"))
		return err
	}
	ttName := func(s string) error {
		_, err := talltale.ParseIllustrations([]byte("[red]\n" + s + " | o | x\n"))
		return err
	}
	ftAlt := func(s string) error {
		_, err := fingertip.ParsePictures([]byte("== " + s + "\n#\n"))
		return err
	}
	ftClue := func(s string) error { _, err := fingertip.CheckClue(s); return err }
	packName := func(s string) error { _, err := packs.CheckName(s); return err }
	for _, c := range []struct {
		what  string
		max   int
		check func(string) error
	}{
		{"Top Five topic", topfive.MaxTopicWidth, tf},
		{"Quadrant word", quadrant.MaxWordLen, quadWord},
		{"Quadrant criterion", quadrant.MaxCriterionLen, quadCriterion},
		{"Foresight question", foresight.MaxQuestionLen, fsQuestion},
		{"Foresight choice", foresight.MaxChoiceLen, fsChoice},
		{"Tall Tale illustration's name", talltale.MaxNameLen, ttName},
		{"Fingertip picture's alt text", fingertip.AltMax, ftAlt},
		{"Fingertip clue", fingertip.ClueMax, ftClue},
		{"pack name", packs.MaxNameLen, packName},
	} {
		if err := c.check(wide(c.max)); err != nil {
			t.Errorf("%s %d columns wide: %v", c.what, c.max, err)
		}
		over := strings.Repeat("漢", c.max) // c.max characters, 2×c.max columns
		err := c.check(over)
		if err == nil {
			t.Errorf("%s of %d wide characters (%d columns, at most %d) was taken", c.what, c.max, rules.Width(over), c.max)
			continue
		}
		if want := fmt.Sprintf("%d columns wide (at most %d", 2*c.max, c.max); !strings.Contains(err.Error(), want) {
			t.Errorf("%s: the error %q does not say %q", c.what, err, want)
		}
	}
}

// ControlChar says which character a check refused, and where.
func TestControlCharSaysWhichAndWhere(t *testing.T) {
	for s, want := range map[string]string{
		"Six\tth":   "a tab (U+0009) at column 4",
		"漢\x1b[2J":  "an escape character, which starts terminal escape sequences (U+001B) at column 3",
		"rtl\u202e": "a right-to-left or left-to-right control (U+202E) at column 4",
		"fine":      "",
	} {
		if got := rules.ControlChar(s); got != want {
			t.Errorf("ControlChar(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestWidthIsTheGraphemeWidth: Width's short way for ASCII gives ansi.StringWidth's
// width, on ASCII with escape sequences and control characters, and on text that is
// not ASCII (where it is ansi.StringWidth itself).
func TestWidthIsTheGraphemeWidth(t *testing.T) {
	pieces := []string{
		"a", "Z", " ", "~", "\x1b[31m", "\x1b[0m", "\x1b]8;;http://x\x07", "\x1b]8;;\x1b\\",
		"\t", "\r\n", "\r", "\n", "\x7f", "\x00", "\x1b", "[", "e\u0301", "漢", "🙂",
		"👍🏽", "🇫🇷", "1\ufe0f\u20e3", "\u200d", "é", "\x9b", "Ａ",
	}
	r := rand.New(rand.NewPCG(3, 4))
	ascii := 0
	for range 20000 {
		s := ""
		for range r.IntN(12) {
			if r.IntN(3) == 0 {
				s += string(rune(r.IntN(128))) // any ASCII byte, controls too
			} else {
				s += pieces[r.IntN(len(pieces))]
			}
		}
		if got, want := rules.Width(s), ansi.StringWidth(s); got != want {
			t.Fatalf("Width(%q) = %d, ansi.StringWidth gives %d", s, got, want)
		}
		if isASCII(s) {
			ascii++
		}
	}
	if ascii < 1000 {
		t.Fatalf("only %d of the strings tried were ASCII", ascii)
	}
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
