package rules

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Problem is one thing wrong in a content file: its line (0 for the file as a whole) and
// what is wrong, in words a player who wrote the file can act on.
type Problem struct {
	Line int    `json:"line,omitempty"`
	Text string `json:"text"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s", p.Line, p.Text)
	}
	return p.Text
}

// ContentError lists every problem found in one content file, so that whoever wrote it can
// fix them all at once. Kind is the game's sentinel error (errors.Is matches it).
type ContentError struct {
	Kind     error
	Problems []Problem
}

// Error is the sentinel's text, then every problem on a line of its own.
func (e *ContentError) Error() string {
	var b strings.Builder
	b.WriteString(e.Kind.Error())
	if len(e.Problems) == 1 {
		b.WriteString(": " + e.Problems[0].String())
		return b.String()
	}
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

// Unwrap lets errors.Is find the game's sentinel.
func (e *ContentError) Unwrap() error { return e.Kind }

// Problems collects the problems of one content file while a parser reads it.
type Problems struct {
	list []Problem
}

// Add notes a problem at line (0: the whole file).
func (ps *Problems) Add(line int, format string, args ...any) {
	ps.list = append(ps.list, Problem{Line: line, Text: fmt.Sprintf(format, args...)})
}

// Len is how many problems ps lists.
func (ps *Problems) Len() int { return len(ps.list) }

// Err is nil without problems, otherwise a *ContentError of kind listing them all.
func (ps *Problems) Err(kind error) error {
	if len(ps.list) == 0 {
		return nil
	}
	return &ContentError{Kind: kind, Problems: append([]Problem(nil), ps.list...)}
}

// Deck is a content file that players may replace with a pack of their own, in the same
// format: a game lists its decks in Spec.Decks.
type Deck struct {
	Kind string `json:"kind"` // the pack kind players name, e.g. "topfive-topics"
	File string `json:"-"`    // the content file a pack of this kind stands in for, e.g. "topfive/topics.txt"
	What string `json:"what"` // what the entries are, in the plural, e.g. "topics"
	// Min is the fewest entries a pack of this kind may hold: what one round needs. A
	// whole game may need more; the game says so when it starts.
	Min int `json:"min"`
	// Count parses a pack in the file's format: how many entries it holds, and a
	// *ContentError listing every problem with its line (with how many entries read well).
	Count func(b []byte) (int, error) `json:"-"`
}

// Builtin names the built-in copy of a content file in Setup.Content when a table plays
// a pack mixed with the built-in deck: Content[file] holds the pack and
// Content[Builtin(file)] the built-in deck, and the game plays with both.
func Builtin(file string) string { return file + "#builtin" }

// Mix appends to pack the entries of more whose key is not already there: a pack mixed
// with the built-in deck, the pack's own entries winning over built-in duplicates.
func Mix[T any](pack, more []T, key func(T) string) []T {
	seen := make(map[string]bool, len(pack)+len(more))
	for _, x := range pack {
		seen[key(x)] = true
	}
	out := append([]T(nil), pack...)
	for _, x := range more {
		if k := key(x); !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

// TooSmall is the advice a game gives when a table's deck has too few entries for it.
const TooSmall = "choose a bigger pack, or mix this one with the built-in deck"

// SmallDeckError is a table's deck with too few entries for the game: what it has and
// what the game needs, then TooSmall. A game wraps it in its own content error, whose
// words ("quadrant: bad content") are for logs; the lobby tells the host this one.
type SmallDeckError struct{ Have string }

func (e *SmallDeckError) Error() string { return e.Have + ": " + TooSmall }

// SmallDeck is a *SmallDeckError saying what the deck has and the game needs.
func SmallDeck(format string, args ...any) error {
	return &SmallDeckError{Have: fmt.Sprintf(format, args...)}
}

// ErrPack is the sentinel of problems found only when a file is used as a pack.
var ErrPack = Sentinel("rules.pack", "bad pack")

// Check parses b as a pack of this deck: the number of entries, or a *ContentError
// listing every problem (the game's, and too few entries for one round).
// A pack with problems that would be too small without them is told both at once, so
// that its owner does not mend the lines only to be refused again.
func (d Deck) Check(b []byte) (int, error) {
	n, err := d.Count(Rated(b, false))
	var ce *ContentError
	if err != nil && !errors.As(err, &ce) {
		return 0, err
	}
	switch {
	case n >= d.Min && err != nil:
		return 0, err
	case n >= d.Min:
		return n, nil
	}
	var ps Problems
	besides := ""
	if ce != nil {
		besides = " (not counting the lines with problems)"
	}
	ps.Add(0, "a %s pack needs at least %d %s, and this one has %d%s", d.Kind, d.Min, d.What, n, besides)
	if ce != nil {
		for _, p := range ce.Problems {
			ps.Add(p.Line, "%s", p.Text)
		}
		return 0, ps.Err(ce.Kind)
	}
	return n, ps.Err(ErrPack)
}

// Decks lists the decks of every registered game, ordered by kind.
func Decks() []Deck {
	var out []Deck
	for _, g := range Games() {
		out = append(out, g.Decks...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}

// LookupDeck finds a deck by its pack kind, and the game it belongs to.
func LookupDeck(kind string) (Deck, *Spec, bool) {
	for _, g := range Games() {
		for _, d := range g.Decks {
			if d.Kind == kind {
				return d, g, true
			}
		}
	}
	return Deck{}, nil, false
}

// Counter turns a content parser into a Deck.Count.
func Counter[T any](parse func([]byte) ([]T, error)) func([]byte) (int, error) {
	return func(b []byte) (int, error) {
		entries, err := parse(b)
		return len(entries), err
	}
}

// ReadDeck parses a game's deck file from content with parse and, when the host mixed a
// pack with the built-in deck (Builtin), the built-in copy too, merged with Mix by key.
// own is how many entries come first from the file itself (the pack's): every entry
// when nothing was mixed in. A missing file reads as an empty one, which the game then
// finds too small.
func ReadDeck[T any](content map[string][]byte, file string, parse func([]byte) ([]T, error), key func(T) string) (deck []T, own int, err error) {
	deck, err = parse(content[file])
	if err != nil {
		return nil, 0, err
	}
	own = len(deck)
	if b, ok := content[Builtin(file)]; ok {
		more, err := parse(b)
		if err != nil {
			return nil, 0, fmt.Errorf("the built-in %s: %w", file, err)
		}
		deck = Mix(deck, more, key)
	}
	return deck, own, nil
}

// Shuffle orders a deck for play with r: its first own entries (a mixed pack's, see
// ReadDeck) shuffled first, then the rest, so that a table that mixed a small pack with
// the built-in deck plays the pack's entries first; the built-in cards fill what the
// game needs beyond them. With own = len(deck) it is r.Shuffle of the whole deck.
func Shuffle[T any](r *rand.Rand, deck []T, own int) {
	own = min(max(own, 0), len(deck))
	for _, part := range [][]T{deck[:own], deck[own:]} {
		if len(part) > 0 {
			r.Shuffle(len(part), func(i, j int) { part[i], part[j] = part[j], part[i] })
		}
	}
}

// AdultTag at the end of a line marks a deck's entry as not family-friendly: a table set
// to family-friendly content leaves it out, any other table plays it without the tag. On
// the first line of a block (a Fingertip picture's "== " line) it marks the whole block.
const AdultTag = "[adult]"

// Rated is a content file as a table plays it: with family true, entries tagged AdultTag
// are left out, otherwise only their tags are. Lines keep their numbers, so a parser's
// problems still point at the right line.
func Rated(b []byte, family bool) []byte {
	lines := strings.Split(string(b), "\n")
	dropping := false // inside a tagged block
	for i, l := range lines {
		if strings.HasPrefix(l, "== ") {
			dropping = false
		}
		base, tagged := strings.CutSuffix(strings.TrimRight(l, " \t\r"), AdultTag)
		switch {
		case tagged && family:
			lines[i] = ""
			dropping = strings.HasPrefix(l, "== ")
		case tagged:
			lines[i] = strings.TrimRight(base, " \t")
		case dropping:
			lines[i] = ""
		}
	}
	return []byte(strings.Join(lines, "\n"))
}
