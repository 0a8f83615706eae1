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
	ids   map[string]int32
	rel   [][]int32 // per lemma: its relations, id<<1 for a strong one, id<<1|1 for a weak one, sorted
	pos   []string  // per lemma: its parts of speech (n, v, a, r), the most used first
	forms map[string]string
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
	rel := func(strong, weak string) []int32 {
		var out []int32
		for kind, s := range []string{strong, weak} {
			for _, w := range strings.Fields(s) {
				if id, ok := l.ids[w]; ok {
					out = append(out, id<<1|int32(kind))
				}
			}
		}
		slices.Sort(out)
		return slices.Clip(slices.Compact(out))
	}
	l.rel = make([][]int32, len(rows))
	l.pos = make([]string, len(rows))
	for i, r := range rows {
		l.rel[i], l.pos[i] = rel(r.strong, r.weak), r.pos
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
	id   int32  // -1: the lexicon does not know it
	near relSet // its relations, laid out to be found by id
}

// Word looks word up.
func (l *Lexicon) Word(word string) Word {
	w := strings.ToLower(word)
	id, ok := l.id(w)
	if !ok {
		return Word{text: w, id: -1}
	}
	return l.lemmaWord(w, id)
}

// lemmaWord is text, known as the lemma id.
func (l *Lexicon) lemmaWord(text string, id int32) Word {
	return Word{text: text, id: id, near: newRelSet(l.rel[id])}
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
	rb := l.rel[ib]
	switch direct := a.near.kinds(ib) | kinds(rb, ia); {
	case direct&strong != 0:
		return Strong
	case direct&weak != 0:
		return Weak
	}
	// Words that share relations are near each other ("castle" and "fortress" are both
	// a fortification): a shared relation strong on both sides counts 2, strong on one
	// side 1, weak on both ½, and four make the most. Counted in halves.
	halves := 0
	for _, v := range rb {
		if k := a.near.kinds(v >> 1); k != 0 {
			halves += sharedHalves[k][strong<<(v&1)]
			if halves >= 8 {
				return Shared
			}
		}
	}
	return Shared * float64(halves) / 8
}

// kind is a set of relation strengths.
type kind uint8

const (
	strong kind = 1 << iota
	weak
)

// sharedHalves is, in halves, what a relation shared with these strengths on either
// side counts: 2 for strong with strong, 1 for strong with weak, ½ for weak with weak.
var sharedHalves = func() (t [4][4]int) {
	for a := range kind(4) {
		for b := range kind(4) {
			for _, k := range [][3]int{{int(strong), int(strong), 4}, {int(strong), int(weak), 2}, {int(weak), int(strong), 2}, {int(weak), int(weak), 1}} {
				if int(a)&k[0] != 0 && int(b)&k[1] != 0 {
					t[a][b] += k[2]
				}
			}
		}
	}
	return t
}()

// kinds is how a lemma's relations (rel) hold id: strong, weak, both or not at all.
func kinds(rel []int32, id int32) kind {
	i, _ := slices.BinarySearch(rel, id<<1)
	return kindsAt(rel, i, id)
}

// kindsAt reads id's entries, which start at rel[i] if there are any, and gives their
// strengths.
func kindsAt(rel []int32, i int, id int32) kind {
	var k kind
	for ; i < len(rel) && rel[i]>>1 == id; i++ {
		k |= strong << (rel[i] & 1)
	}
	return k
}

// relSet is a lemma's relations as a hash set of ids: (id+1)<<2 | its kinds in each
// slot, 0 for an empty one, a power of two of slots at most a quarter full, found by linear
// probing. Comparing one word with many (a story's word with every word a bot knows
// the pictures by) looks each relation of the other word up in it. Written here because
// a Go map of a few dozen ids costs several times as much per lookup, and walking the
// two sorted lists side by side mispredicts a branch at every step; this was half of a
// Tall Tale bot's time.
type relSet []int32

func newRelSet(rel []int32) relSet {
	n := 16
	for n < 4*len(rel) {
		n *= 2
	}
	s := make(relSet, n)
	for _, v := range rel {
		id := v >> 1
		i := s.slot(id)
		s[i] = (id+1)<<2 | s[i]&3 | int32(strong<<(v&1))
	}
	return s
}

// slot is the slot that holds id, or the empty one where it would go.
func (s relSet) slot(id int32) int {
	mask := len(s) - 1
	for i := int(uint32(id)*2654435761>>7) & mask; ; i = (i + 1) & mask {
		if v := s[i]; v == 0 || v>>2 == id+1 {
			return i
		}
	}
}

// kinds is how the set holds id: strong, weak, both or not at all.
func (s relSet) kinds(id int32) kind {
	if len(s) == 0 {
		return 0
	}
	return kind(s[s.slot(id)] & 3)
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
