package talltale

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// accents maps accented Latin letters to their plain letter, so that "Café" matches
// "cafe". The standard library has no Unicode normalisation, and the module pins no
// golang.org/x/text, so the common Latin-1 and Latin Extended-A letters are listed here.
var accents = map[rune]string{}

func init() {
	groups := map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "d": "ďđ", "e": "èéêëēĕėęě", "g": "ĝğġģ",
		"h": "ĥħ", "i": "ìíîïĩīĭįı", "j": "ĵ", "k": "ķ", "l": "ĺļľŀł", "n": "ñńņňŉ",
		"o": "òóôõöøōŏő", "r": "ŕŗř", "s": "śŝşšſ", "t": "ţťŧ", "u": "ùúûüũūŭůűų",
		"w": "ŵ", "y": "ýÿŷ", "z": "źżž", "ae": "æ", "oe": "œ", "ss": "ß", "th": "þ",
	}
	for plain, letters := range groups {
		for _, r := range letters {
			accents[r] = plain
		}
	}
}

// fold lowercases s and strips accents: the form forbidden words are compared in.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if p, ok := accents[r]; ok {
			b.WriteString(p)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// words splits s into folded words: runs of letters and digits. Apostrophes and hyphens
// separate words, so "cat's" and "cat-like" both contain the whole word "cat".
func words(s string) []string {
	return strings.FieldsFunc(fold(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// FindForbidden returns the first of forms that story contains as a whole word (or run
// of whole words), ignoring case and accents, and whether there was one.
func FindForbidden(story string, forms []string) (string, bool) {
	sw := words(story)
	for _, f := range forms {
		fw := words(f)
		if len(fw) == 0 {
			continue
		}
		for i := 0; i+len(fw) <= len(sw); i++ {
			match := true
			for j := range fw {
				if sw[i+j] != fw[j] {
					match = false
					break
				}
			}
			if match {
				return f, true
			}
		}
	}
	return "", false
}

// MaxStory is the longest story, in terminal columns (a wide character such as 你 takes two).
const MaxStory = 280

// StoryWidth is how much room a story takes on screen, the measure MaxStory limits.
func StoryWidth(story string) int { return ansi.StringWidth(story) }

// Sentences counts the sentences of a story: a run of '.', '!' or '?' ends a sentence
// when more text follows it, so "Wait... what?" is two sentences and a final full stop
// is not a third.
func Sentences(story string) int {
	n := 0
	inEnd := false
	text := false
	for _, r := range story {
		switch {
		case r == '.' || r == '!' || r == '?':
			if text {
				inEnd = true
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if inEnd {
				n++
				inEnd = false
			}
			text = true
		}
	}
	if text {
		n++
	}
	return n
}

// Stem cuts a folded word to a rough stem, so "cats", "catty" and "cat" meet: it drops
// common English endings and keeps at most five letters. The bot uses it to read stories.
func Stem(word string) string {
	w := fold(word)
	for _, suf := range []string{"ing", "ies", "es", "ed", "s", "y", "e"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			w = strings.TrimSuffix(w, suf)
			break
		}
	}
	if r := []rune(w); len(r) > 5 {
		w = string(r[:5])
	}
	return w
}
