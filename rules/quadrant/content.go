package quadrant

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"parlor/rules"
)

// Content file names, as the lobby loads them from assets.
const (
	WordsFile    = "quadrant/words.txt"
	CriteriaFile = "quadrant/criteria.txt"
	// The bots' meaning model: every word's attributes, every criterion's weights on them.
	WordsMeaningFile    = "quadrant/words.meaning"
	CriteriaMeaningFile = "quadrant/criteria.meaning"
)

// Limits of the content decks, from the rules page and the screen's room.
const (
	MinWords        = 200
	MinCriteria     = 100
	MaxWordLen      = 24
	MaxCriterionLen = 32
)

// ErrContent reports a content file that cannot be used.
var ErrContent = rules.Sentinel("quadrant.content", "quadrant: bad content")

// Decks are the word and criteria decks of a game.
type Decks struct {
	Words    []string // concrete things, one per card
	Criteria []string // subjective criteria, one per card
	// How many of each come first from the table's own file: a mixed pack's cards, which
	// the game plays first (rules.Shuffle); all of them when nothing was mixed in.
	OwnWords, OwnCriteria int
}

// ParseDecks reads the two content files from content (blank lines and lines starting
// with # are skipped) and checks every card's length, text and uniqueness. When the host
// mixed a pack with the built-in decks, the built-in cards of that file (under
// rules.Builtin) join the pack's. It does not check the deck sizes: see Decks.CheckSize.
func ParseDecks(content map[string][]byte) (Decks, error) {
	w, ownW, err := mixedDeck(WordsFile, content, MaxWordLen)
	if err != nil {
		return Decks{}, err
	}
	c, ownC, err := mixedDeck(CriteriaFile, content, MaxCriterionLen)
	if err != nil {
		return Decks{}, err
	}
	return Decks{Words: w, Criteria: c, OwnWords: ownW, OwnCriteria: ownC}, nil
}

// CheckSize reports decks smaller than the rules page asks for.
func (d Decks) CheckSize() error {
	if len(d.Words) < MinWords {
		return fmt.Errorf("%w: %d words, at least %d needed", ErrContent, len(d.Words), MinWords)
	}
	if len(d.Criteria) < MinCriteria {
		return fmt.Errorf("%w: %d criteria, at least %d needed", ErrContent, len(d.Criteria), MinCriteria)
	}
	return nil
}

// ParseWords reads a word deck (a pack of kind quadrant-words), listing every problem
// with its line in a *rules.ContentError.
func ParseWords(b []byte) ([]string, error) { return parseDeck(b, MaxWordLen) }

// ParseCriteria reads a criteria deck (a pack of kind quadrant-criteria).
func ParseCriteria(b []byte) ([]string, error) { return parseDeck(b, MaxCriterionLen) }

// mixedDeck reads one of the files (rules.ReadDeck), with the built-in cards after the
// pack's when the host mixed them; own is how many come from the file itself.
func mixedDeck(name string, content map[string][]byte, maxLen int) (out []string, own int, err error) {
	if _, ok := content[name]; !ok {
		return nil, 0, fmt.Errorf("%w: %s is missing", ErrContent, name)
	}
	out, own, err = rules.ReadDeck(content, name, func(b []byte) ([]string, error) { return parseDeck(b, maxLen) }, rules.Fold)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	return out, own, nil
}

// parseDeck reads one file: one card a line.
func parseDeck(b []byte, maxLen int) ([]string, error) {
	var ps rules.Problems
	if !utf8.Valid(b) {
		ps.Add(0, "not UTF-8")
		return nil, ps.Err(ErrContent)
	}
	var out []string
	seen := map[string]int{}
	for i, line := range strings.Split(string(b), "\n") {
		n := i + 1
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := rules.CheckWidth(line, maxLen); err != nil {
			ps.Add(n, "%q is %v", line, err)
			continue
		}
		if c := rules.ControlChar(line); c != "" {
			ps.Add(n, "%s", c)
			continue
		}
		key := rules.Fold(line)
		if first, dup := seen[key]; dup {
			ps.Add(n, "%q repeats line %d", line, first)
			continue
		}
		seen[key] = n
		out = append(out, line)
	}
	return out, ps.Err(ErrContent) // with problems, out is what read well: see rules.Deck.Check
}
