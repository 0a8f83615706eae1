package topfive

import (
	"strings"
	"unicode/utf8"

	"parlor/rules"
)

// Deck limits: the embedded deck must hold MinTopics; a topic fits on one line of the screen.
const (
	MinTopics     = 200
	MaxTopicWidth = 40 // columns (rules.Width)
)

// ErrBadTopics wraps every problem found in a topic deck.
var ErrBadTopics = rules.Sentinel("topfive.bad_topics", "topfive: bad topic deck")

// ParseTopics reads a deck: one topic per line; blank lines and lines starting with '#'
// are skipped. It rejects invalid UTF-8, control characters, topics over MaxTopicWidth
// and duplicates (ignoring case and accents), listing every problem with its line in a
// *rules.ContentError. The size of a deck is the game's to check: see New.
func ParseTopics(b []byte) ([]string, error) {
	var ps rules.Problems
	if !utf8.Valid(b) {
		ps.Add(0, "not valid UTF-8")
		return nil, ps.Err(ErrBadTopics)
	}
	seen := map[string]int{}
	var out []string
	for i, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if c := rules.ControlChar(t); c != "" {
			ps.Add(i+1, "%s", c)
			continue
		}
		if err := rules.CheckWidth(t, MaxTopicWidth); err != nil {
			ps.Add(i+1, "%q is %v", t, err)
			continue
		}
		key := rules.Fold(t)
		if first, dup := seen[key]; dup {
			ps.Add(i+1, "%q repeats line %d", t, first)
			continue
		}
		seen[key] = i + 1
		out = append(out, t)
	}
	return out, ps.Err(ErrBadTopics) // with problems, out is what read well: see rules.Deck.Check
}
