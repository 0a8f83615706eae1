package rules

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// folder is Unicode full case folding ("Straße" and "STRASSE" meet), language-neutral.
var folder = cases.Fold()

// Fold is the form in which two entries of a deck count as the same, in any script:
// compatibility-normalised (NFKC: a half-width ｶ is a カ, a ligature ﬁ is fi, e followed
// by a combining acute is é) and case-folded ("Straße" and "STRASSE" meet). Accents
// still count: German "schon" and "schön" are different words.
func Fold(s string) string {
	return norm.NFC.String(folder.String(norm.NFKC.String(s)))
}

// Plain is Fold with the accents of Latin, Greek and Cyrillic letters dropped ("Café",
// "cafe" and "cafe" with a combining accent are all "cafe"), for matching what a player
// types loosely. Marks that are part of a letter in other scripts stay, so Japanese が
// does not become か.
func Plain(s string) string {
	d := norm.NFD.String(Fold(s))
	var b strings.Builder
	b.Grow(len(d))
	var base rune
	for _, r := range d {
		mark := unicode.Is(unicode.Mn, r)
		if mark && accented(base) {
			continue
		}
		if !mark {
			base = r
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

// accented reports whether r is a letter of a script whose accents are dropped by Fold.
func accented(r rune) bool {
	return unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic)
}

// Words splits text into plain words (see Plain): runs of letters, digits and the marks that belong
// to them (so a decomposed accent never splits a word). Apostrophes, hyphens and other
// punctuation separate words.
func Words(s string) []string {
	return strings.FieldsFunc(Plain(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.M, r)
	})
}

// Unspaced reports whether s holds letters of a script written without spaces between
// words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar): such text has no whole words to
// match, so a form is found anywhere in it.
func Unspaced(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
	}) >= 0
}
