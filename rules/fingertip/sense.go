package fingertip

import (
	"math"
	"slices"
	"sort"
	"strings"

	"parlor/rules/lexicon"
	"parlor/rules/meaning"
	"parlor/rules/text"
)

// sense is a bot's feel for the pictures: the words a picture brings to mind (its
// description and the annotated associations), of which each bot knows its own share,
// and the lexicon to read any clue, a person's included, against them.
type sense struct {
	meanings []byte // the pictures' annotation file, read a picture at a time
	temper   meaning.Temperament
	lex      *lexicon.Lexicon
	known    map[string][]string       // picture alt text → the words this bot knows it by
	lexWords map[string][]lexicon.Word // the same, looked up in the lexicon
}

func newSense(meanings []byte, temper meaning.Temperament) *sense {
	return &sense{meanings: meanings, temper: temper, lex: lexicon.Default(), known: map[string][]string{}, lexWords: map[string][]lexicon.Word{}}
}

// words are the words this bot knows the picture described by alt by: the description's
// content words, and its own share of the picture's associations.
func (s *sense) words(alt string) []string {
	if ws, ok := s.known[alt]; ok {
		return ws
	}
	ws := text.ContentWords(alt)
	if e, ok := meaning.Find(s.meanings, alt); ok {
		ws = append(ws, s.temper.Recalled(e)...)
	}
	s.known[alt], s.lexWords[alt] = ws, s.lex.Words(ws)
	return ws
}

// looked are words(alt), looked up in the lexicon.
func (s *sense) looked(alt string) []lexicon.Word {
	s.words(alt)
	return s.lexWords[alt]
}

// fit is how well clue words fit the picture described by alt, in this bot's reading:
// the lexicon's fit plus the bot's own stable hunch about this clue and picture.
func (s *sense) fit(clue []string, alt string) float64 {
	return s.lex.FitWords(s.lex.Words(clue), s.looked(alt)) + 0.15*s.temper.Opinion(alt+"/"+strings.Join(clue, " "))
}

// clue picks the clue-giver's one-word clue for target among the square's pictures: a
// word the bot associates with the target, never a form of a word of its description,
// that it expects to earn the most cards against guessers (see gain). stake is what a
// turn nobody wins costs it: the card it gives back, if it holds any.
func (s *sense) clue(target string, others []string, guessers int, stake float64) string {
	banned := text.ContentWords(target)
	var candidates []string
	for _, w := range s.words(target) {
		if !slices.ContainsFunc(banned, func(b string) bool { return text.SameWord(w, b) }) {
			candidates = append(candidates, w)
		}
	}
	if len(candidates) == 0 {
		return "something"
	}
	type scored struct {
		word  string
		score float64
	}
	var all []scored
	for _, w := range candidates {
		lw := []lexicon.Word{s.lex.Word(w)}
		mine := s.lex.FitWords(lw, s.looked(target))
		near := make([]float64, len(others))
		for i, o := range others {
			near[i] = s.lex.FitWords(lw, s.looked(o))
		}
		all = append(all, scored{w, gain(mine, near, guessers, stake) + 0.05*s.temper.Opinion("clue/"+w)})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
	return all[0].word
}

// guessSpread is how far apart two fits must be for a guesser to prefer the better one
// clearly: people read a clue differently, so a picture that fits a little less is still
// chosen now and then. (Of the spreads tried in all-bot games, 0.12 earned the most.)
const guessSpread = 0.12

// gain is the cards a clue is expected to earn the clue-giver, from how well it fits the
// target (mine) and each other picture of the square (others), under the rule that the
// wrong cards are taken only when the target is found. The guessers point one after
// another, each at a free picture with a chance that grows with its fit; every wrong
// picture before the target is a card, and a race nobody wins costs stake. So a plain
// clue earns nothing, a clue that fits several pictures as well as the target risks more
// than it earns when there are few guessers, and the best clue lures one or two guessers
// before someone finds the target.
func gain(mine float64, others []float64, guessers int, stake float64) float64 {
	others = others[:min(len(others), 8)] // a square has eight others; the table below doubles with each
	n := len(others)
	weight := func(f float64) float64 { return math.Exp(f / guessSpread) }
	wt := weight(mine)
	w := make([]float64, n)
	for i, f := range others {
		w[i] = weight(f)
	}
	// memo[k<<n|mask] is the gain to come with k guessers left and the others in mask
	// pointed at wrongly (as many cards as mask has bits).
	memo := make([]float64, (guessers+1)<<n)
	known := make([]bool, len(memo))
	var from func(mask, k, wrong int) float64
	from = func(mask, k, wrong int) float64 {
		if k == 0 {
			return -stake
		}
		at := k<<n | mask
		if known[at] {
			return memo[at]
		}
		total := wt
		for i := range w {
			if mask&(1<<i) == 0 {
				total += w[i]
			}
		}
		v := wt / total * float64(wrong)
		for i := range w {
			if mask&(1<<i) == 0 {
				v += w[i] / total * from(mask|1<<i, k-1, wrong+1)
			}
		}
		memo[at], known[at] = v, true
		return v
	}
	return from(0, max(guessers, 0), 0)
}
