// Command lexgen writes the bots' association lexicon (rules/lexicon/wordnet.txt.gz) from
// WordNet 3.0's database files, for the words of the games' content and their
// neighbourhood. It is run by `go generate ./rules/lexicon/` after installing Debian's
// wordnet-base package (apt-get install wordnet-base: /usr/share/wordnet).
//
// What it reads of WordNet (see WordNet's wndb(5) and wninput(5) manual pages):
//
//   - data.noun, data.verb, data.adj, data.adv: one synset a line,
//     "offset lex_filenum ss_type w_cnt word lex_id [word lex_id…] p_cnt
//     [pointer_symbol offset pos source/target]… [frames] | gloss"; w_cnt is two hex
//     digits, p_cnt three decimal digits; adjective words may end in a marker such as
//     "(a)"; lines starting with two spaces are the licence header.
//   - index.noun, …: "lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt
//     offset…", the offsets in order of how often the sense is used.
//   - noun.exc, verb.exc, adj.exc: "inflected base…", the irregular forms.
//
// For every lemma it keeps the words of the lemma's first senses (synonyms), of the
// synsets they point to (hypernyms, a few hyponyms, meronyms and holonyms, attributes,
// similar and derived words) as "strong" relations, and the content words of the
// glosses and of the grand-hypernyms as "weak" ones, and adds as weak relations the words
// the content's annotation files (*.meaning) name together, associations WordNet lacks. It keeps the lemmas of the game
// vocabulary (every word of every content file), the lemmas they relate to, and the
// lemmas that relate to them, and lists for each only relations inside that set.
package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"parlor/rules/text"
)

func main() {
	wn := flag.String("wordnet", "/usr/share/wordnet", "WordNet 3.0 database folder (Debian: wordnet-base)")
	content := flag.String("content", "../../assets/content", "the games' content folder, whose words make the vocabulary")
	out := flag.String("out", "wordnet.txt.gz", "the lexicon file to write")
	licence := flag.String("licence", "WORDNET-LICENSE", "where to copy WordNet's licence")
	flag.Parse()
	db, err := load(*wn)
	if err != nil {
		log.Fatal(err)
	}
	vocab, err := vocabulary(*content, db)
	if err != nil {
		log.Fatal(err)
	}
	together, err := annotated(*content, db)
	if err != nil {
		log.Fatal(err)
	}
	db.together = together
	n, err := db.write(*out, vocab)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*licence, []byte(db.licence), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d vocabulary lemmas, %d lemmas written to %s", len(vocab), n, *out)
}

type key struct {
	pos byte
	off int
}

type pointer struct {
	sym    string
	target key
}

type synset struct {
	words []string
	ptrs  []pointer
	gloss string
}

type database struct {
	synsets map[key]*synset
	senses  map[string][]key        // lemma → its synsets, most used first, nouns first
	tagged  map[string]map[byte]int // lemma → part of speech → how often its senses were seen in a corpus
	exc     map[string][]string
	licence string
	// together links the words one annotation line of the content names together (a
	// picture's description and the words it brings to mind): associations WordNet
	// lacks, such as "smoke" and "fire".
	together map[string][]string
}

var files = []struct {
	name string
	pos  byte
}{{"noun", 'n'}, {"verb", 'v'}, {"adj", 'a'}, {"adv", 'r'}}

func load(dir string) (*database, error) {
	db := &database{synsets: map[key]*synset{}, senses: map[string][]key{}, tagged: map[string]map[byte]int{}, exc: map[string][]string{}}
	for _, f := range files {
		if err := db.readData(filepath.Join(dir, "data."+f.name), f.pos); err != nil {
			return nil, err
		}
		if err := db.readIndex(filepath.Join(dir, "index."+f.name), f.pos); err != nil {
			return nil, err
		}
		if f.pos != 'r' {
			if err := db.readExc(filepath.Join(dir, f.name+".exc")); err != nil {
				return nil, err
			}
		}
	}
	return db, nil
}

func posOf(s string) byte {
	if s == "s" {
		return 'a'
	}
	return s[0]
}

func lines(path string, each func(line string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if err := each(sc.Text()); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	return sc.Err()
}

// lemma normalises a WordNet word: lower case, the adjective marker cut off.
func lemma(w string) string {
	if i := strings.IndexByte(w, '('); i > 0 {
		w = w[:i]
	}
	return strings.ToLower(w)
}

func (db *database) readData(path string, pos byte) error {
	return lines(path, func(line string) error {
		if strings.HasPrefix(line, "  ") {
			if pos == 'n' {
				db.licence += strings.TrimRight(strings.TrimPrefix(strings.TrimLeft(line, " 0123456789"), " "), " ") + "\n"
			}
			return nil
		}
		body, gloss, _ := strings.Cut(line, " | ")
		f := strings.Fields(body)
		if len(f) < 4 {
			return fmt.Errorf("short synset line")
		}
		off, err := strconv.Atoi(f[0])
		if err != nil {
			return err
		}
		wcnt, err := strconv.ParseInt(f[3], 16, 32)
		if err != nil {
			return err
		}
		s := &synset{gloss: gloss}
		i := 4
		for range wcnt {
			s.words = append(s.words, lemma(f[i]))
			i += 2
		}
		pcnt, err := strconv.Atoi(f[i])
		if err != nil {
			return err
		}
		i++
		for range pcnt {
			toff, err := strconv.Atoi(f[i+1])
			if err != nil {
				return err
			}
			s.ptrs = append(s.ptrs, pointer{sym: f[i], target: key{posOf(f[i+2]), toff}})
			i += 4
		}
		db.synsets[key{pos, off}] = s
		return nil
	})
}

func (db *database) readIndex(path string, pos byte) error {
	return lines(path, func(line string) error {
		if strings.HasPrefix(line, "  ") {
			return nil
		}
		f := strings.Fields(line)
		pcnt, err := strconv.Atoi(f[3])
		if err != nil {
			return err
		}
		tags, err := strconv.Atoi(f[4+pcnt+1])
		if err != nil {
			return err
		}
		if db.tagged[f[0]] == nil {
			db.tagged[f[0]] = map[byte]int{}
		}
		db.tagged[f[0]][pos] = tags + 1 // +1: a part of speech never seen still counts
		for _, o := range f[4+pcnt+2:] {
			off, err := strconv.Atoi(o)
			if err != nil {
				return err
			}
			db.senses[f[0]] = append(db.senses[f[0]], key{pos, off})
		}
		return nil
	})
}

func (db *database) readExc(path string) error {
	return lines(path, func(line string) error {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] != f[1] {
			db.exc[f[0]] = append(db.exc[f[0]], f[1:]...)
		}
		return nil
	})
}

// base finds the lemma a word of running text stands for, or "".
func (db *database) base(w string) string {
	return text.Lemma(w, db.exc[w], func(b string) bool { return db.senses[b] != nil })
}

// Pointer kinds: the strong relations (synonyms come from the synset itself).
var strongPointers = map[string]bool{
	"@": true, "@i": true, "~": true, "#m": true, "#s": true, "#p": true,
	"%m": true, "%s": true, "%p": true, "=": true, "&": true, "+": true, "\\": true, "^": true, "*": true, ">": true,
}

const (
	sensesPerLemma = 2  // the most used senses of each lemma
	hyponymsPerSet = 6  // a few examples of a general word, not all of them
	maxStrong      = 30 // listed relations per lemma
	maxWeak        = 60
)

// relations are the strong and weak relations of a lemma, in order of strength.
func (db *database) relations(l string) (strong, weak []string) {
	seenS, seenW := map[string]bool{l: true}, map[string]bool{l: true}
	addS := func(w string) {
		if !seenS[w] {
			seenS[w] = true
			strong = append(strong, w)
		}
	}
	addW := func(w string) {
		if !seenW[w] && !seenS[w] {
			seenW[w] = true
			weak = append(weak, w)
		}
	}
	perPos := map[byte]int{}
	for _, k := range db.senses[l] {
		if perPos[k.pos] >= sensesPerLemma {
			continue
		}
		perPos[k.pos]++
		s := db.synsets[k]
		if s == nil {
			continue
		}
		for _, w := range s.words {
			addS(w)
		}
		hypos := 0
		for _, p := range s.ptrs {
			if !strongPointers[p.sym] {
				continue
			}
			if p.sym == "~" {
				if hypos++; hypos > hyponymsPerSet {
					continue
				}
			}
			t := db.synsets[p.target]
			if t == nil {
				continue
			}
			for _, w := range t.words {
				addS(w)
			}
			if p.sym == "@" || p.sym == "@i" {
				for _, gp := range t.ptrs {
					if gp.sym == "@" {
						if g := db.synsets[gp.target]; g != nil {
							for _, w := range g.words {
								addW(w)
							}
						}
					}
				}
			}
		}
		gloss, _, _ := strings.Cut(s.gloss, ";") // the definition, not the examples
		for _, w := range text.Words(gloss) {
			if text.Stopword(w) || len(w) < 3 {
				continue
			}
			if b := db.base(w); b != "" && !text.Stopword(b) {
				addW(b)
			}
		}
	}
	for _, w := range db.together[l] {
		addW(w)
	}
	return strong, weak
}

// vocabulary collects the lemmas of every word (and two- and three-word phrase) of the
// content files.
func vocabulary(dir string, db *database) (map[string]bool, error) {
	v := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".md") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			ws := text.Words(line)
			for i := range ws {
				if b := db.base(ws[i]); b != "" && len(ws[i]) > 2 && !text.Stopword(b) {
					v[b] = true
				}
				for n := 2; n <= 3 && i+n <= len(ws); n++ {
					if p := strings.Join(ws[i:i+n], "_"); db.senses[p] != nil {
						v[p] = true
					}
				}
			}
		}
		return nil
	})
	return v, err
}

// annotated reads the content's annotation files (*.meaning): the lemmas of each line's
// name and associated words, linked to each other.
func annotated(dir string, db *database) (map[string][]string, error) {
	links := map[string][]string{}
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*.meaning"))
	if err != nil {
		return nil, err
	}
	for _, path := range paths {
		err := lines(path, func(line string) error {
			if strings.HasPrefix(line, "#") {
				return nil
			}
			var ls []string
			for _, f := range strings.Fields(line) {
				if strings.IndexFunc(f, unicode.IsDigit) >= 0 {
					continue // an attribute value, not a word
				}
				for _, w := range text.Words(f) {
					if b := db.base(w); b != "" && !text.Stopword(b) && len(w) > 2 && !slices.Contains(ls, b) {
						ls = append(ls, b)
					}
				}
			}
			for _, a := range ls {
				for _, b := range ls {
					if a != b && !slices.Contains(links[a], b) {
						links[a] = append(links[a], b)
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return links, nil
}

// partsOfSpeech lists the lemma's parts of speech (n, v, a, r), the most used first.
func (db *database) partsOfSpeech(l string) string {
	ps := []byte("nvar")
	ps = slices.DeleteFunc(ps, func(p byte) bool { return db.tagged[l][p] == 0 })
	slices.SortStableFunc(ps, func(a, b byte) int { return db.tagged[l][b] - db.tagged[l][a] })
	return string(ps)
}

// write keeps the vocabulary, its relations and what relates to it, and writes the
// lexicon: "lemma<TAB>parts of speech<TAB>strong…<TAB>weak…" lines, then "~inflected<TAB>base" lines for
// the irregular forms of kept lemmas. It returns the number of lemmas written.
func (db *database) write(path string, vocab map[string]bool) (int, error) {
	type rel struct{ strong, weak []string }
	all := map[string]rel{}
	keep := map[string]bool{}
	for l := range db.senses {
		if strings.ContainsAny(l, "_.") && !vocab[l] {
			continue // people type single words; phrases are kept only from the content
		}
		s, w := db.relations(l)
		all[l] = rel{s, w}
		if vocab[l] {
			keep[l] = true
			continue
		}
		for _, x := range s {
			if vocab[x] {
				keep[l] = true
				break
			}
		}
	}
	for l := range vocab {
		for _, x := range all[l].strong {
			if _, ok := all[x]; ok {
				keep[x] = true
			}
		}
		for _, x := range all[l].weak {
			if _, ok := all[x]; ok {
				keep[x] = true
			}
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriter(zw)
	fmt.Fprintln(bw, "# Association lexicon for the parlor bots, generated by cmd/lexgen from WordNet 3.0")
	fmt.Fprintln(bw, "# (see WORDNET-LICENSE). lemma<TAB>parts of speech<TAB>strong relations<TAB>weak relations; ~form<TAB>base.")
	lemmas := make([]string, 0, len(keep))
	for l := range keep {
		if _, ok := all[l]; ok {
			lemmas = append(lemmas, l)
		}
	}
	sort.Strings(lemmas)
	within := func(ws []string, max int) string {
		var out []string
		for _, w := range ws {
			if keep[w] && len(out) < max {
				out = append(out, w)
			}
		}
		return strings.Join(out, " ")
	}
	for _, l := range lemmas {
		fmt.Fprintf(bw, "%s\t%s\t%s\t%s\n", l, db.partsOfSpeech(l), within(all[l].strong, maxStrong), within(all[l].weak, maxWeak))
	}
	forms := make([]string, 0, len(db.exc))
	for form := range db.exc {
		forms = append(forms, form)
	}
	sort.Strings(forms)
	for _, form := range forms {
		bases := slices.DeleteFunc(slices.Clone(db.exc[form]), func(b string) bool { return !keep[b] })
		if len(bases) > 0 {
			fmt.Fprintf(bw, "~%s\t%s\n", form, bases[0])
		}
	}
	if err := bw.Flush(); err != nil {
		return 0, err
	}
	if err := zw.Close(); err != nil {
		return 0, err
	}
	return len(lemmas), f.Close()
}
