// Package lexicon tells the bots how related two English words are, so they can read
// what a person types (a Fingertip clue, a Tall Tale story) against the words they know
// the game's pictures by. Its data is an association lexicon generated from WordNet 3.0
// by cmd/lexgen (WordNet's licence is in WORDNET-LICENSE beside it):
//
//	go generate ./rules/lexicon/   # needs Debian's wordnet-base in /usr/share/wordnet
//
// The data is embedded here rather than handed over by the lobby like the other content:
// it is a few megabytes that every bot of every table reads, so it is parsed once per
// process into a read-only table shared by all, where content passed through
// rules.BotSetup would be parsed again for each bot. It imports nothing of the project,
// does no I/O (the embedded bytes are part of the program) and, once parsed, never
// changes, so the rules stay pure and deterministic.
package lexicon

//go:generate go run parlor/cmd/lexgen -wordnet /usr/share/wordnet -content ../../assets/content -out wordnet.txt.gz -licence WORDNET-LICENSE

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"parlor/rules/text"
)

//go:embed wordnet.txt.gz
var data []byte

// Lexicon is a parsed association lexicon. It is read-only and safe to share.
type Lexicon struct {
	ids    map[string]int32
	strong [][]int32 // per lemma: its strong relations, sorted
	weak   [][]int32 // per lemma: its weak relations, sorted
	pos    []string  // per lemma: its parts of speech (n, v, a, r), the most used first
	forms  map[string]string
}

var (
	once   sync.Once
	shared *Lexicon
)

// Default is the embedded lexicon, parsed on first use.
func Default() *Lexicon {
	once.Do(func() {
		l, err := Parse(data)
		if err != nil {
			panic(fmt.Sprintf("lexicon: the embedded lexicon does not parse: %v", err)) // a build error
		}
		shared = l
	})
	return shared
}

// Parse reads a lexicon file (gzip): "lemma<TAB>parts of speech<TAB>strong…<TAB>weak…"
// lines, relations separated by spaces, and "~form<TAB>base" lines for irregular forms; '#' starts a comment.
func Parse(gz []byte) (*Lexicon, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	l := &Lexicon{ids: map[string]int32{}, forms: map[string]string{}}
	type row struct{ pos, strong, weak string }
	var rows []row
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if line[0] == '~' {
			if len(f) != 2 {
				return nil, fmt.Errorf("lexicon: bad form line %q", line)
			}
			l.forms[f[0][1:]] = f[1]
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("lexicon: bad line %q", line)
		}
		l.ids[f[0]] = int32(len(rows))
		rows = append(rows, row{f[1], f[2], f[3]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	ids := func(s string) []int32 {
		var out []int32
		for _, w := range strings.Fields(s) {
			if id, ok := l.ids[w]; ok {
				out = append(out, id)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	l.strong = make([][]int32, len(rows))
	l.weak = make([][]int32, len(rows))
	l.pos = make([]string, len(rows))
	for i, r := range rows {
		l.strong[i], l.weak[i], l.pos[i] = ids(r.strong), ids(r.weak), r.pos
	}
	return l, nil
}

// Len is the number of lemmas.
func (l *Lexicon) Len() int { return len(l.ids) }

// Lemma is the lemma the lexicon knows word by ("leaves" → "leaf", "boats" → "boat"),
// or "" when it knows none. Phrases are written with underscores ("hot_dog").
func (l *Lexicon) Lemma(word string) string {
	word = strings.ToLower(word)
	var irregular []string
	if b, ok := l.forms[word]; ok {
		irregular = []string{b}
	}
	return text.Lemma(word, irregular, func(b string) bool { _, ok := l.ids[b]; return ok })
}

func (l *Lexicon) id(word string) (int32, bool) {
	id, ok := l.ids[l.Lemma(word)]
	return id, ok
}

// Noun reports whether word is mostly used as a noun, so a story template can say
// "a word" of it.
func (l *Lexicon) Noun(word string) bool {
	id, ok := l.id(word)
	return ok && strings.HasPrefix(l.pos[id], "n")
}

// Plural reports whether word is a plural (or other inflected form) of a known lemma.
func (l *Lexicon) Plural(word string) bool {
	w := strings.ToLower(word)
	b := l.Lemma(w)
	return b != "" && b != w
}

// Relation strengths, from one word to another.
const (
	Same   = 1.0  // one word, or forms of one word
	Strong = 0.75 // synonyms, a kind of, a part of, …
	Weak   = 0.5  // in the other's definition, or two steps up
	Shared = 0.45 // the most two words can get for sharing relations
)

// Word is a word looked up once, for comparing it with many others.
type Word struct {
	text string
	id   int32 // -1: the lexicon does not know it
}

// Word looks word up.
func (l *Lexicon) Word(word string) Word {
	w := Word{text: strings.ToLower(word), id: -1}
	if id, ok := l.id(w.text); ok {
		w.id = id
	}
	return w
}

// Words looks every word up.
func (l *Lexicon) Words(words []string) []Word {
	out := make([]Word, len(words))
	for i, w := range words {
		out[i] = l.Word(w)
	}
	return out
}

// Related is how related words a and b are, from 0 (nothing known) to 1 (the same word).
func (l *Lexicon) Related(a, b string) float64 {
	return l.RelatedWords(l.Word(a), l.Word(b))
}

// RelatedWords is Related for words already looked up.
func (l *Lexicon) RelatedWords(a, b Word) float64 {
	if a.text == b.text {
		return Same
	}
	if a.id < 0 || b.id < 0 {
		if text.SameWord(a.text, b.text) {
			return Same
		}
		return 0
	}
	ia, ib := a.id, b.id
	if ia == ib {
		return Same
	}
	sa, sb, wa, wb := l.strong[ia], l.strong[ib], l.weak[ia], l.weak[ib]
	if has(sa, ib) || has(sb, ia) {
		return Strong
	}
	if has(wa, ib) || has(wb, ia) {
		return Weak
	}
	// Words that share relations are near each other ("castle" and "fortress" are both
	// a fortification): shared strong relations count most, and two make the most.
	common := 2*overlap(sa, sb) + overlap(sa, wb) + overlap(wa, sb)
	return Shared * min(1, (float64(common)+0.5*float64(overlap(wa, wb)))/4)
}

func has(sorted []int32, id int32) bool {
	_, ok := slices.BinarySearch(sorted, id)
	return ok
}

// overlap counts the ids two sorted lists share.
func overlap(a, b []int32) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// Fit is how well the words of a clue fit the words something is known by: for every
// clue word, how related the best-matching known word is, averaged over the clue words
// (0 when either list is empty).
func (l *Lexicon) Fit(clue, known []string) float64 {
	return l.FitWords(l.Words(clue), l.Words(known))
}

// FitWords is Fit for words already looked up.
func (l *Lexicon) FitWords(clue, known []Word) float64 {
	if len(clue) == 0 || len(known) == 0 {
		return 0
	}
	sum := 0.0
	for _, c := range clue {
		best := 0.0
		for _, k := range known {
			best = max(best, l.RelatedWords(c, k))
		}
		sum += best
	}
	return sum / float64(len(clue))
}
