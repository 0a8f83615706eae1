package talltale

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"parlor/rules"
)

// fold is the form forbidden words are compared in: case, accents and Unicode
// normalisation ignored (rules.Plain).
func fold(s string) string { return rules.Plain(s) }

// words splits s into folded words (rules.Words). Apostrophes and hyphens separate
// words, so "cat's" and "cat-like" both contain the whole word "cat"; a decomposed
// accent stays inside its word.
func words(s string) []string { return rules.Words(s) }

// FindForbidden returns the first of forms that story contains as a whole word (or run
// of whole words), ignoring case, accents and Unicode normalisation, and whether there
// was one. A form in a script written without spaces (Japanese, Chinese, Thai…) is found
// anywhere in the story, since such text has no word boundaries to match.
func FindForbidden(story string, forms []string) (string, bool) {
	sw := words(story)
	joined := strings.Join(sw, " ")
	for _, f := range forms {
		fw := words(f)
		if len(fw) == 0 {
			continue
		}
		if rules.Unspaced(f) {
			if strings.Contains(joined, strings.Join(fw, " ")) {
				return f, true
			}
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

// MaxStory is the longest story, in characters.
const MaxStory = 280

// CleanStory makes player text safe to show: valid UTF-8, no control or formatting
// characters (so no escape sequences), line breaks and runs of spaces made single spaces.
func CleanStory(s string) string {
	s = strings.ToValidUTF8(s, "")
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

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
