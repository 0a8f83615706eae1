// Package text splits what people write into words and finds the base forms of words,
// the same way for the bots, the lexicon generator and the content tests.
package text

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Words splits text into lower-case words: runs of letters (apostrophes and hyphens
// separate words, so "cat's" and "cat-like" both hold "cat"). Accents are composed first
// (NFC), so a letter typed with a combining accent does not split its word.
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(norm.NFC.String(text)), func(r rune) bool { return !unicode.IsLetter(r) })
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

// Lemma finds the base form of word that known accepts: word itself, one of irregular
// (its irregular base forms, such as "mouse" for "mice"), or a regular base form; ""
// when known accepts none.
func Lemma(word string, irregular []string, known func(string) bool) string {
	if known(word) {
		return word
	}
	for _, b := range irregular {
		if known(b) {
			return b
		}
	}
	for _, b := range BaseForms(word)[1:] {
		if known(b) {
			return b
		}
	}
	return ""
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

// stopwords are too common to relate anything: articles, pronouns, auxiliaries, and the
// filler words of dictionary definitions.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the of to in on at by for with from into onto as or and but not no nor
		is are was were be been being has have had do does did can could may might must shall should will would
		it its this that these those which who whom whose what when where why how than then there here
		some any all each every other another such one two three more most less least much many few very
		used use using usually especially often something someone somebody thing things person people kind sort
		type part form way made make makes having also etc eg ie esp like similar
		i me my we our you your he him his she her they them their us just so too up down out over
		about again once only own same get got go went come came said say says let lets
		don won isn aren didn doesn wasn couldn shouldn wouldn very really`) {
		stopwords[w] = true
	}
}

// Stopword reports whether w (lower case) is too common to carry meaning.
func Stopword(w string) bool { return stopwords[w] }

// ContentWords are the words of text that carry meaning: no stopwords, no one- or
// two-letter words.
func ContentWords(text string) []string {
	var out []string
	for _, w := range Words(text) {
		if len(w) > 2 && !stopwords[w] {
			out = append(out, w)
		}
	}
	return out
}
