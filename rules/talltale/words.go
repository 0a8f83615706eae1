package talltale

import (
	"fmt"
	"strings"
	"unicode"

	"parlor/rules"
)

// fold is the form forbidden words are compared in: case, accents and Unicode
// normalisation ignored (rules.Plain).
func fold(s string) string { return rules.Plain(s) }

// words splits s into folded words (rules.Words). Apostrophes and hyphens separate
// words, so "cat's" and "cat-like" both contain the whole word "cat"; a decomposed
// accent stays inside its word.
func words(s string) []string { return rules.Words(s) }

// ForbiddenUse is a forbidden form a story holds, and the illustration it names.
type ForbiddenUse struct{ Word, Name string }

// ForbiddenIn finds every forbidden form of the kept illustrations in a story, in the
// order of the illustrations and of their forms: the narrator is told them all, though
// the penalty is paid once however many there are.
func ForbiddenIn(story string, kept []Illustration) []ForbiddenUse {
	var out []ForbiddenUse
	for _, k := range kept {
		for _, f := range k.Forbidden {
			if w, ok := FindForbidden(story, []string{f}); ok {
				out = append(out, ForbiddenUse{w, k.Name})
			}
		}
	}
	return out
}

// ForbiddenList names uses for a sentence: `"apples" (for apple) and "car" (for car)`,
// the first few of them and how many more.
func ForbiddenList(uses []ForbiddenUse, few int) string {
	var named []string
	for _, u := range uses[:min(few, len(uses))] {
		named = append(named, fmt.Sprintf("%q (for %s)", u.Word, u.Name))
	}
	if more := len(uses) - len(named); more > 0 {
		named = append(named, fmt.Sprintf("%d more", more))
	}
	return rules.List(named)
}

// PenaltyWords is what sending a story with uses costs, in words: "2 points", and
// "(once, not per word)" when there are several.
func PenaltyWords(uses []ForbiddenUse) string {
	cost := fmt.Sprintf("%d points", Penalty)
	if len(uses) > 1 {
		cost += " (once, not per word)"
	}
	return cost
}

// FindForbidden returns the first of forms that story contains as a whole word (or run
// of whole words), ignoring case, accents and Unicode normalisation, and whether there
// was one. A form in a script written without spaces (Japanese, Chinese, Thai…) is found
// anywhere in the story, since such text has no word boundaries to match.
func FindForbidden(story string, forms []string) (string, bool) {
	sw := words(story)
	joined := strings.Join(sw, " ")
	for _, f := range forms {
		fw := words(f)
		if len(fw) == 0 {
			continue
		}
		if rules.Unspaced(f) {
			if strings.Contains(joined, strings.Join(fw, " ")) {
				return f, true
			}
			continue
		}
		for i := 0; i+len(fw) <= len(sw); i++ {
			match := true
			for j := range fw {
				if sw[i+j] != fw[j] {
					match = false
					break
				}
			}
			if match {
				return f, true
			}
		}
	}
	return "", false
}

// MaxStory is the longest story, in terminal columns (a wide character such as 你 takes two).
const MaxStory = 280

// StoryWidth is how much room a story takes on screen, the measure MaxStory limits.
func StoryWidth(story string) int { return rules.Width(story) }

// Sentences counts the sentences of a story the way a reader would. A run of '.', '!'
// or '?' (with any closing quotes or brackets) ends a sentence only when a space and more
// text follow it, except where it plainly does not:
//   - a full stop after a title or a Latin abbreviation ("Dr. Bee", "e.g. a cat"), after
//     an initial ("J. R. R. Tolkien") or a dotted acronym ("the U.S. Navy");
//   - after "etc.", "Jr." and the like unless a capital letter follows;
//   - an ellipsis ("...", "…") or a '!'/'?' followed by a small letter ("Wait... what?",
//     "Who? asked Bo");
//   - a full stop with no space after it (3.5, parlor.example).
//
// A final mark is not a new sentence. No library in the module's pinned set segments
// sentences, and the rule has to be this game's own anyway: lenient where a reader would
// hesitate, since refusing a fair story is worse than letting a long one through.
func Sentences(story string) int {
	rs := []rune(story)
	n := 0
	text := false // the sentence being read has a letter or digit
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			text = true
			continue
		}
		if !isStop(r) {
			continue
		}
		j := i
		for j < len(rs) && (isStop(rs[j]) || isCloser(rs[j])) {
			j++
		}
		next := j
		for next < len(rs) && (unicode.IsSpace(rs[next]) || isOpener(rs[next])) {
			next++
		}
		spaced := j < len(rs) && unicode.IsSpace(rs[j])
		if text && spaced && next < len(rs) && endsSentence(rs[:i], rs[i:j], rs[next]) {
			n++
			text = false
		}
		i = j - 1
	}
	if text {
		n++
	}
	return n
}

func isStop(r rune) bool   { return r == '.' || r == '!' || r == '?' || r == '…' }
func isCloser(r rune) bool { return strings.ContainsRune(`"')]}’”»`, r) }
func isOpener(r rune) bool { return strings.ContainsRune(`"'([{‘“«`, r) }

// Abbreviations a full stop follows without ending the sentence: titles before a name and
// Latin ones inside a sentence; and those that end it only before a capital letter.
var (
	neverEnds = wordSet("mr mrs ms mx dr prof st mt sgt capt lt col gen rev hon sen gov pres fr " +
		"e.g i.e eg ie vs cf approx viz ca")
	endsBeforeCapital = wordSet("etc jr sr inc ltd co corp a.m p.m am pm al")
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// endsSentence decides whether the marks stop, after the text before, end a sentence
// when next is the first letter of what follows.
func endsSentence(before, stop []rune, next rune) bool {
	if strings.ContainsRune(string(stop), '…') || strings.Count(string(stop), ".") >= 2 {
		return unicode.IsUpper(next)
	}
	if last := lastStop(stop); last == '!' || last == '?' {
		return !unicode.IsLower(next)
	}
	k := len(before)
	for k > 0 && (unicode.IsLetter(before[k-1]) || before[k-1] == '.') {
		k--
	}
	word := string(before[k:])
	lower := strings.ToLower(word)
	switch {
	case word == "":
		return true
	case endsBeforeCapital[lower]:
		return unicode.IsUpper(next)
	case initial(word), neverEnds[lower]:
		return false
	}
	return true
}

func lastStop(stop []rune) rune {
	for i := len(stop) - 1; i >= 0; i-- {
		if isStop(stop[i]) {
			return stop[i]
		}
	}
	return 0
}

// initial reports a single capital letter ("J") or dotted single letters ("U.S"): a
// name's initial or an acronym. "I" alone is the pronoun.
func initial(word string) bool {
	parts := strings.Split(word, ".")
	for _, p := range parts {
		if r := []rune(p); len(r) != 1 {
			return false
		}
	}
	if len(parts) == 1 {
		r := []rune(word)[0]
		return unicode.IsUpper(r) && r != 'I'
	}
	return true
}

// Stem cuts a folded word to a rough stem, so "cats", "catty" and "cat" meet: it drops
// common English endings and keeps at most five letters. The bot uses it to read stories.
func Stem(word string) string {
	w := fold(word)
	for _, suf := range []string{"ing", "ies", "es", "ed", "s", "y", "e"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			w = strings.TrimSuffix(w, suf)
			break
		}
	}
	if r := []rune(w); len(r) > 5 {
		w = string(r[:5])
	}
	return w
}
