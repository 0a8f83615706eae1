package lexicon

import (
	"strings"
	"unicode"
)

// Words splits text into lower-case words: runs of letters (apostrophes and hyphens
// separate words, so "cat's" and "cat-like" both hold "cat").
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
}

// detachments are WordNet's own rules for turning an inflected word into a base form
// (the "morphy" suffix rules of nouns, verbs and adjectives), longest suffix first.
var detachments = [][2]string{
	{"sses", "ss"}, {"ches", "ch"}, {"shes", "sh"}, {"xes", "x"}, {"zes", "z"},
	{"ies", "y"}, {"men", "man"}, {"ses", "s"}, {"est", ""}, {"est", "e"},
	{"ing", ""}, {"ing", "e"}, {"ed", ""}, {"ed", "e"}, {"es", "e"}, {"es", ""},
	{"er", ""}, {"er", "e"}, {"s", ""},
}

// BaseForms lists word and the base forms its endings may come from ("leaves" gives
// "leaves", "leave", "leaf" via exceptions kept in the lexicon, "leav"…): candidates
// to look up, the word itself first. Forms shorter than three letters are left out.
func BaseForms(word string) []string {
	out := []string{word}
	for _, d := range detachments {
		if base, ok := strings.CutSuffix(word, d[0]); ok {
			if b := base + d[1]; len(b) >= 3 && b != word {
				out = append(out, b)
			}
		}
	}
	// A doubled final consonant: "running" → "runn" → "run".
	for _, b := range out[1:] {
		if n := len(b); n >= 4 && b[n-1] == b[n-2] && !strings.ContainsRune("aeiouls", rune(b[n-1])) {
			out = append(out, b[:n-1])
		}
	}
	return out
}

// SameWord reports whether a and b are forms of one word ("star", "stars"; "leaf",
// "leafy" is not): one is a base form of the other.
func SameWord(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	if a == b {
		return true
	}
	for _, f := range BaseForms(a) {
		if f == b {
			return true
		}
	}
	for _, f := range BaseForms(b) {
		if f == a {
			return true
		}
	}
	return false
}
