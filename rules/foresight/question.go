package foresight

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"parlor/rules"
)

// The two decks a question can belong to; a table chooses which are in play.
const (
	DeckFamily = "family"
	DeckAdult  = "adult"
)

// Limits on a question's text, in columns (rules.Width), so that it fits the 80-column
// screen.
const (
	MinChoices     = 2
	MaxChoices     = 5
	MaxQuestionLen = 160
	MaxChoiceLen   = 40
)

// ErrBadContent is returned by Parse for a malformed question file.
var ErrBadContent = rules.Sentinel("foresight.bad_content", "foresight: bad question file")

// Question is one card of the deck: a question about the player's own behaviour or
// preferences and its 2–5 answer choices, numbered from 1 in play.
type Question struct {
	Deck    string   `json:"deck"`
	Text    string   `json:"text"`
	Choices []string `json:"choices"`
}

// Parse reads a question file: one question a line, "deck | question | choice | choice …",
// blank lines and lines starting with # are skipped. It checks every rule of the content
// (deck name, 2–5 choices, lengths, no duplicate questions or choices).
func Parse(data []byte) ([]Question, error) {
	var ps rules.Problems
	if !utf8.Valid(data) {
		ps.Add(0, "not UTF-8")
		return nil, ps.Err(ErrBadContent)
	}
	var out []Question
	seen := map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, err := parseLine(line)
		if err != nil {
			ps.Add(i+1, "%v", err)
			continue
		}
		key := normal(q.Text)
		if prev, dup := seen[key]; dup {
			ps.Add(i+1, "repeats the question of line %d", prev)
			continue
		}
		seen[key] = i + 1
		out = append(out, q)
	}
	return out, ps.Err(ErrBadContent) // with problems, out is what read well: see rules.Deck.Check
}

func parseLine(line string) (Question, error) {
	parts := strings.Split(line, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	if len(parts) < 2+MinChoices {
		return Question{}, fmt.Errorf("want deck | question | at least %d choices", MinChoices)
	}
	q := Question{Deck: parts[0], Text: parts[1], Choices: parts[2:]}
	if q.Deck != DeckFamily && q.Deck != DeckAdult {
		return Question{}, fmt.Errorf("deck %q is neither %s nor %s", q.Deck, DeckFamily, DeckAdult)
	}
	if len(q.Choices) > MaxChoices {
		return Question{}, fmt.Errorf("%d choices, at most %d", len(q.Choices), MaxChoices)
	}
	if err := checkText(q.Text, MaxQuestionLen); err != nil {
		return Question{}, fmt.Errorf("question: %v", err)
	}
	seen := map[string]bool{}
	for _, c := range q.Choices {
		if err := checkText(c, MaxChoiceLen); err != nil {
			return Question{}, fmt.Errorf("choice %q: %v", c, err)
		}
		if seen[normal(c)] {
			return Question{}, fmt.Errorf("choice %q appears twice", c)
		}
		seen[normal(c)] = true
	}
	return q, nil
}

func checkText(s string, max int) error {
	if s == "" {
		return errors.New("empty")
	}
	if err := rules.CheckWidth(s, max); err != nil {
		return err
	}
	if c := rules.ControlChar(s); c != "" {
		return errors.New(c)
	}
	return nil
}

// normal folds case, punctuation and spacing so near-identical questions count as duplicates.
func normal(s string) string {
	var b strings.Builder
	for _, r := range rules.Fold(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// InDecks keeps the questions of the decks in play, in file order.
func InDecks(qs []Question, decks []string) []Question {
	var out []Question
	for _, q := range qs {
		for _, d := range decks {
			if q.Deck == d {
				out = append(out, q)
				break
			}
		}
	}
	return out
}
