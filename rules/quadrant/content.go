package quadrant

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
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
var ErrContent = errors.New("quadrant: bad content")

// Decks are the word and criteria decks of a game.
type Decks struct {
	Words    []string // concrete things, one per card
	Criteria []string // subjective criteria, one per card
}

// ParseDecks reads the two content files from content (blank lines and lines starting
// with # are skipped) and checks every card's length, text and uniqueness. It does not
// check the deck sizes: see Decks.CheckSize.
func ParseDecks(content map[string][]byte) (Decks, error) {
	w, err := parseDeck(WordsFile, content, MaxWordLen)
	if err != nil {
		return Decks{}, err
	}
	c, err := parseDeck(CriteriaFile, content, MaxCriterionLen)
	if err != nil {
		return Decks{}, err
	}
	return Decks{Words: w, Criteria: c}, nil
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

// parseDeck reads one file: one card a line.
func parseDeck(name string, content map[string][]byte, maxLen int) ([]string, error) {
	b, ok := content[name]
	if !ok {
		return nil, fmt.Errorf("%w: %s is missing", ErrContent, name)
	}
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("%w: %s is not UTF-8", ErrContent, name)
	}
	var out []string
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if l := utf8.RuneCountInString(line); l > maxLen {
			return nil, fmt.Errorf("%w: %s line %d: %q is %d characters, at most %d", ErrContent, name, n, line, l, maxLen)
		}
		if strings.IndexFunc(line, func(r rune) bool { return unicode.IsControl(r) || !unicode.IsPrint(r) }) >= 0 {
			return nil, fmt.Errorf("%w: %s line %d: %q has a control character", ErrContent, name, n, line)
		}
		key := strings.ToLower(line)
		if first, dup := seen[key]; dup {
			return nil, fmt.Errorf("%w: %s line %d: %q repeats line %d", ErrContent, name, n, line, first)
		}
		seen[key] = n
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrContent, name, err)
	}
	return out, nil
}
