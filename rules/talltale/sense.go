package talltale

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"parlor/rules/lexicon"
	"parlor/rules/meaning"
	"parlor/rules/text"
)

// sense is a bot's feel for the illustrations: the words each brings to mind (its name,
// its forbidden forms and the annotated associations, of which each bot thinks of its own
// share), and the lexicon to read any story, a person's included, against them.
type sense struct {
	meanings []byte // the illustrations' annotation file, read one at a time
	temper   meaning.Temperament
	lex      *lexicon.Lexicon
	known    map[int]knowing // by illustration id
}

// knowing is how a bot knows an illustration: its words, looked up in the lexicon, and
// their stems.
type knowing struct {
	words []string
	lex   []lexicon.Word
	stems []string
}

func newSense(meanings []byte, temper meaning.Temperament) *sense {
	return &sense{meanings: meanings, temper: temper, lex: lexicon.Default(), known: map[int]knowing{}}
}

// associations are the annotated words of ill this bot thinks of.
func (s *sense) associations(ill Illustration) []string {
	e, _ := meaning.Find(s.meanings, ill.Name)
	return s.temper.Recalled(e)
}

// knowing is how this bot knows ill: by its name and forms, and its associations.
func (s *sense) knowing(ill Illustration) knowing {
	if k, ok := s.known[ill.ID]; ok {
		return k
	}
	var ws []string
	for _, f := range append([]string{ill.Name}, ill.Forbidden...) {
		for _, w := range text.Words(f) {
			if !slices.Contains(ws, w) {
				ws = append(ws, w)
			}
		}
	}
	ws = append(ws, s.associations(ill)...)
	k := knowing{words: ws, lex: s.lex.Words(ws)}
	for _, w := range ws {
		k.stems = append(k.stems, Stem(w))
	}
	s.known[ill.ID] = k
	return k
}

// read scores every illustration in play by how strongly the story's words point at
// it, in this bot's reading. A story hints at each illustration with a word or two, so
// an illustration scores by its best word (and a little by its second), and a word
// counts less for an illustration when it points at another one more ("cherries" is
// about the cherry, not the watermelon); the bot's own stable hunch is added.
func (s *sense) read(story []string, inPlay []Illustration) map[int]float64 {
	rel := make([][]float64, len(story)) // rel[w][i]: story word w to illustration i
	top := make([]float64, len(story))
	for w, word := range story {
		rel[w] = make([]float64, len(inPlay))
		lw, stem := s.lex.Word(word), Stem(word)
		for i, ill := range inPlay {
			r := 0.0
			k := s.knowing(ill)
			for j, kw := range k.lex {
				r = max(r, s.lex.RelatedWords(lw, kw))
				if len(word) > 3 && len(k.words[j]) > 3 && stem == k.stems[j] {
					r = max(r, 0.9) // word play: "hearty" for heart, "foxy" for fox
				}
			}
			rel[w][i] = r
			top[w] = max(top[w], r)
		}
	}
	out := make(map[int]float64, len(inPlay))
	for i, ill := range inPlay {
		best, second := 0.0, 0.0
		for w := range story {
			e := rel[w][i] - 0.5*(top[w]-rel[w][i])
			if e > best {
				best, second = e, best
			} else if e > second {
				second = e
			}
		}
		out[ill.ID] = best + 0.3*second + 0.12*s.temper.Opinion(fmt.Sprint(ill.ID, "/", strings.Join(story, " ")))
	}
	return out
}

// storyTemplates are one- or two-sentence stories with three slots, filled with bare
// words ("romance", "coins", "something golden"), which read well as a list whatever
// the word; the templates' own words are kept plain so they hint at no illustration.
var storyTemplates = []string{
	"Grandma's old diary is full of %s, %s and %s, and she still won't tell us why.",
	"The traveller's tale was all about %s, %s and %s. Nobody in the village believed a word.",
	"The wizard's shopping list said: %s, %s and %s. Nobody dared to ask why.",
	"In my dream there was %s, then %s, and finally %s.",
	"My uncle's favourite song is about %s, %s and %s, and he sings it all day long.",
	"The old map showed three marks: %s, %s and %s. We followed them all the way home.",
}

// hint picks the word the narrator tells ill by: one of its associations (never a
// forbidden form of the kept illustrations, never another illustration's name) that
// points at ill more than at anything else in play, but not by a mile, so that some
// racers find it and others do not.
func (s *sense) hint(ill Illustration, kept, inPlay []Illustration) (string, bool) {
	best, bestScore := "", math.Inf(-1)
	for _, w := range s.associations(ill) {
		if !s.speakable(w, kept, inPlay) {
			continue
		}
		mine, other := 0.0, 0.0
		lw := []lexicon.Word{s.lex.Word(w)}
		for _, o := range inPlay {
			f := s.lex.FitWords(lw, s.knowing(o).lex)
			if o.ID == ill.ID {
				mine = f
			} else {
				other = max(other, f)
			}
		}
		score := mine + 0.5*other - 2*math.Max(0, other-mine+0.1)
		if s.lex.Noun(w) {
			score += 0.3 // a noun reads best in a story's list
		}
		score += 0.1 * s.temper.Opinion("hint/"+w)
		if score > bestScore {
			best, bestScore = w, score
		}
	}
	return best, best != ""
}

// speakable: w names none of the kept illustrations (a penalty) nor any illustration in
// play (it would point at the wrong one), and is a plain word.
func (s *sense) speakable(w string, kept, inPlay []Illustration) bool {
	for _, k := range kept {
		if _, bad := FindForbidden(w, k.Forbidden); bad {
			return false
		}
	}
	for _, o := range inPlay {
		for _, n := range text.Words(o.Name) {
			if text.SameWord(w, n) {
				return false
			}
		}
	}
	return !slices.Contains(Colours, w)
}

// phrase puts w in a story slot: a noun as it is ("romance", "coins"), any other word
// as "something golden".
func (s *sense) phrase(w string) string {
	if s.lex.Noun(w) {
		return w
	}
	return "something " + w
}

// tell writes the narrator's story: a template whose three slots hint at the kept
// illustrations, one word each. It returns "" when no story passes the checks.
func (s *sense) tell(kept, inPlay []Illustration, pick int) string {
	var slots []string
	for _, k := range kept {
		w, ok := s.hint(k, kept, inPlay)
		if !ok {
			w = "mystery"
		}
		slots = append(slots, s.phrase(w))
	}
	for len(slots) < 3 {
		slots = append(slots, "surprises")
	}
	for i := range storyTemplates {
		t := storyTemplates[(pick+i)%len(storyTemplates)]
		story := fmt.Sprintf(t, slots[0], slots[1], slots[2])
		if storyOK(story, kept) {
			return story
		}
	}
	return ""
}
