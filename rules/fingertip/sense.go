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
// that also fits one or two other pictures well enough to lure someone onto them, but
// fits none of them better than the target.
func (s *sense) clue(target string, others []string) string {
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
		var near []float64
		for _, o := range others {
			near = append(near, s.lex.FitWords(lw, s.looked(o)))
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(near)))
		score := mine
		if len(near) > 0 {
			// Reward one or two decoys, punish a decoy that fits as well as the target.
			score += 1.8 * near[0]
			if len(near) > 1 {
				score += 0.6 * near[1]
			}
			score -= 2 * math.Max(0, near[0]-mine)
		}
		all = append(all, scored{w, score + 0.1*s.temper.Opinion("clue/"+w)})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
	return all[0].word
}
