package topfive

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Deck limits: the embedded deck must hold MinTopics; a topic fits on one line of the screen.
const (
	MinTopics     = 200
	MaxTopicRunes = 40
)

// ErrBadTopics wraps every problem found in a topic deck.
var ErrBadTopics = errors.New("topfive: bad topic deck")

// ParseTopics reads a deck: one topic per line; blank lines and lines starting with '#'
// are skipped. It rejects invalid UTF-8, control characters, topics over MaxTopicRunes,
// duplicates (ignoring case) and decks smaller than MinTopics.
func ParseTopics(b []byte) ([]string, error) {
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("%w: not valid UTF-8", ErrBadTopics)
	}
	seen := map[string]int{}
	var out []string
	for i, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.ContainsFunc(t, unicode.IsControl) {
			return nil, fmt.Errorf("%w: line %d has a control character", ErrBadTopics, i+1)
		}
		if n := utf8.RuneCountInString(t); n > MaxTopicRunes {
			return nil, fmt.Errorf("%w: line %d is %d characters long (at most %d): %q", ErrBadTopics, i+1, n, MaxTopicRunes, t)
		}
		key := strings.ToLower(t)
		if first, dup := seen[key]; dup {
			return nil, fmt.Errorf("%w: line %d repeats line %d: %q", ErrBadTopics, i+1, first, t)
		}
		seen[key] = i + 1
		out = append(out, t)
	}
	if len(out) < MinTopics {
		return nil, fmt.Errorf("%w: %d topics, need at least %d", ErrBadTopics, len(out), MinTopics)
	}
	return out, nil
}
