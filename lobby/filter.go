package lobby

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/mtibben/confusables"

	"parlor/rules"
)

// The family filter: on a table whose Content is family, names, chat and the free text
// of game actions (a Fingertip clue, a Tall Tale story) must hold no word of a list. The
// list is matched as the games match their forbidden words (rules.Plain: case, accents
// and Unicode forms ignored, whole words), and also through look-alike letters and the
// usual digit and symbol stand-ins, so "Shït", "SH1T", "$hit" and a Cyrillic "ѕhіt" are
// all caught. A line with a listed word is refused with ErrFiltered, which says which
// word; nothing is masked, so nobody reads a line other than the one its writer sent.

//go:embed filterwords.txt
var builtinFilterWords string

// ErrFiltered refuses text with a word the family filter lists, at a family table.
var ErrFiltered = rules.Sentinel("lobby.filtered", "the family filter does not allow that word at this table")

// WordFilter is a compiled word list. The zero value and nil filter nothing.
type WordFilter struct {
	single map[string]string // one-word entries, by key, to the entry as listed
	multi  []filterEntry     // entries of several words, and those of unspaced scripts
}

type filterEntry struct {
	word     string   // as listed
	keys     []string // its words' keys
	unspaced bool     // found anywhere in the text, not as whole words
}

// BuiltinFilter is the family filter's built-in English list.
func BuiltinFilter() *WordFilter {
	f, err := ParseFilterWords(strings.NewReader(builtinFilterWords))
	if err != nil {
		panic("lobby: the built-in filter list: " + err.Error())
	}
	return f
}

// ParseFilterWords reads a word list: one word or phrase a line, in any language; blank
// lines and lines starting with # are skipped. A list with no word is an error (a wrong
// file would otherwise filter nothing without a word said).
func ParseFilterWords(r io.Reader) (*WordFilter, error) {
	f := &WordFilter{single: map[string]string{}}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		keys := filterKeys(line)
		if len(keys) == 0 {
			continue
		}
		n++
		switch {
		case rules.Unspaced(line):
			f.multi = append(f.multi, filterEntry{word: line, keys: keys, unspaced: true})
		case len(keys) == 1:
			f.single[keys[0]] = line
		default:
			f.multi = append(f.multi, filterEntry{word: line, keys: keys})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("filter words: %w", err)
	}
	if n == 0 {
		return nil, fmt.Errorf("filter words: the list has no word")
	}
	return f, nil
}

// Len is how many entries the list has.
func (f *WordFilter) Len() int {
	if f == nil {
		return 0
	}
	return len(f.single) + len(f.multi)
}

// Find returns the first listed word text holds, as the text writes it where it can (the
// entry as listed for a phrase), and whether there was one.
func (f *WordFilter) Find(text string) (string, bool) {
	if f.Len() == 0 || text == "" {
		return "", false
	}
	words, keys := filterWords(text)
	for i, k := range keys {
		if _, ok := f.single[k]; ok {
			return words[i], true
		}
	}
	var joined string
	for _, e := range f.multi {
		if e.unspaced {
			if joined == "" {
				joined = strings.Join(keys, " ")
			}
			if strings.Contains(joined, strings.Join(e.keys, " ")) {
				return e.word, true
			}
			continue
		}
		for i := 0; i+len(e.keys) <= len(keys); i++ {
			match := true
			for j := range e.keys {
				if keys[i+j] != e.keys[j] {
					match = false
					break
				}
			}
			if match {
				return e.word, true
			}
		}
	}
	return "", false
}

// filterKeys is the keys of the words of s.
func filterKeys(s string) []string {
	_, keys := filterWords(s)
	return keys
}

// filterWords splits s into words as written (spaces apart) and their keys: each
// space-separated token, its surrounding punctuation trimmed, with digit and symbol
// stand-ins read as letters, split into rules.Words, each word in its look-alike
// skeleton (confusables), folded again. A capital I and a small l look alike to the
// skeleton, a digit 1 too, so l and i are one letter in a key.
func filterWords(s string) (words, keys []string) {
	for _, tok := range strings.Fields(s) {
		tok = strings.TrimFunc(tok, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.M, r) && r != '$' && r != '@'
		})
		if tok == "" {
			continue
		}
		for _, w := range rules.Words(leet.Replace(rules.Plain(tok))) {
			words = append(words, tok)
			keys = append(keys, strings.ReplaceAll(rules.Plain(confusables.Skeleton(w)), "l", "i"))
		}
	}
	return words, keys
}

// leet reads the digits and symbols that stand in for letters inside a word.
var leet = strings.NewReplacer("0", "o", "1", "i", "3", "e", "4", "a", "5", "s", "7", "t", "8", "b", "$", "s", "@", "a", "!", "i")
