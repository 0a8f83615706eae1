package talltale

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"parlor/rules"
)

// Bot plays Tall Tale from its own view: as narrator it keeps the illustrations that
// need the fewest boards and tells a template story drawing their glyphs and naming
// their colours but none of their forbidden words; as a guesser it puts tokens on
// illustrations whose glyph the story draws or whose name or forbidden forms share a
// word stem with it, else on a board whose colour the story mentions, else anywhere in
// play, after a short human-like delay.
type Bot struct {
	seat  int
	rng   *rand.Rand
	key   string    // what the bot last saw: round, phase and tokens placed
	since time.Time // when it first saw that
	delay time.Duration
}

// NewBot makes a bot for seat.
func NewBot(s rules.BotSetup) *Bot {
	seat, seed := s.Seat, s.Seed
	return &Bot{seat: seat, rng: rand.New(rand.NewPCG(seed, seed^0xb07))}
}

func (b *Bot) wait(min, spread time.Duration) time.Duration {
	return min + time.Duration(b.rng.Int64N(int64(spread)))
}

// Act returns the bot's next action, or nil while it "thinks" or has nothing to do.
func (b *Bot) Act(view rules.View, now time.Time) any {
	v, ok := rules.ViewAs[View](view)
	if !ok {
		return nil
	}
	if v.Over || v.Seat != b.seat {
		return nil
	}
	key := fmt.Sprintf("%d/%s/%d", v.Round, v.Phase, len(v.MyTokens))
	if key != b.key || now.Before(b.since) {
		b.key, b.since = key, now
		switch v.Phase {
		case PhaseDiscard:
			b.delay = b.wait(2*time.Second, 2*time.Second)
		case PhaseStory:
			b.delay = b.wait(5*time.Second, 5*time.Second)
		default:
			b.delay = b.wait(1500*time.Millisecond, 2500*time.Millisecond)
		}
	}
	if now.Sub(b.since) < b.delay {
		return nil
	}
	switch v.Phase {
	case PhaseDiscard:
		if v.Narrator == b.seat && v.Hand != nil && len(v.Hand.Drawn) > 0 {
			return Discard{Type: "discard", Card: b.chooseDiscard(v.Hand.Drawn)}
		}
	case PhaseStory:
		if v.Narrator == b.seat && v.Hand != nil && len(v.Hand.Kept) > 0 {
			// tell has already kept the story clear of forbidden words; confirming means
			// that even a slip can never be refused.
			return Story{Type: "story", Text: b.tell(v.Hand.Kept), Confirm: true}
		}
	case PhaseRace:
		if slices.Contains(v.Racers, b.seat) && len(v.MyTokens) < Tokens {
			if c, ok := b.guess(v); ok {
				return Token{Type: "token", Card: c}
			}
		}
	}
	return nil
}

// chooseDiscard throws away the illustration whose removal leaves the fewest colours.
func (b *Bot) chooseDiscard(drawn []Illustration) int {
	best, bestCols := -1, 99
	for _, d := range b.rng.Perm(len(drawn)) {
		cols := map[string]bool{}
		for i, ill := range drawn {
			if i != d {
				cols[ill.Colour] = true
			}
		}
		if len(cols) < bestCols {
			best, bestCols = drawn[d].ID, len(cols)
		}
	}
	return best
}

var storyTemplates = []string{
	"Once upon a time, %s set off on a long journey together. They came home tired but happy.",
	"In a faraway land, %s became the best of friends. Nobody ever forgot them.",
	"One stormy night, %s knocked at the castle door. The king let them in!",
}

// tell makes a story that names the kept illustrations' colours but none of their words.
func (b *Bot) tell(kept []Illustration) string {
	count := map[string]int{}
	var order []string
	for _, k := range kept {
		if count[k.Colour] == 0 {
			order = append(order, k.Colour)
		}
		count[k.Colour]++
	}
	template := storyTemplates[b.rng.IntN(len(storyTemplates))]
	// The best story draws each illustration's glyph; if a glyph reads as a sentence end
	// or a forbidden word, fall back to colours only, then to no hint at all.
	var drawn, coloured []string
	for _, k := range kept {
		drawn = append(drawn, fmt.Sprintf("a %s %s", k.Colour, k.Glyph))
	}
	for _, col := range order {
		if count[col] == 1 {
			coloured = append(coloured, "a "+col+" thing")
		} else {
			coloured = append(coloured, fmt.Sprintf("%s %s things", []string{"", "one", "two", "three"}[count[col]], col))
		}
	}
	for _, story := range []string{fmt.Sprintf(template, andList(drawn)), fmt.Sprintf(template, andList(coloured))} {
		if storyOK(story, kept) {
			return story
		}
	}
	return "Once upon a time, three old friends went on a trip. The end!"
}

func storyOK(story string, kept []Illustration) bool {
	if Sentences(story) > 2 || len([]rune(story)) > MaxStory {
		return false
	}
	for _, k := range kept {
		if _, bad := FindForbidden(story, k.Forbidden); bad {
			return false
		}
	}
	return true
}

// stopWords are too common to hint at anything.
var stopWords = map[string]bool{"the": true, "and": true, "a": true, "an": true, "of": true, "to": true, "in": true, "on": true, "it": true, "was": true, "is": true, "they": true, "them": true, "with": true, "for": true, "at": true, "one": true, "two": true, "thing": true, "things": true, "upon": true, "time": true, "once": true}

// guess picks an illustration for the next token.
func (b *Bot) guess(v View) (int, bool) {
	story := map[string]bool{}
	for _, w := range words(v.Story) {
		if !stopWords[w] && len(w) > 2 {
			story[Stem(w)] = true
		}
	}
	type choice struct{ id, score int }
	var best []choice
	top := -1
	for _, board := range v.Boards {
		colourHint := story[Stem(board.Colour)]
		for _, ill := range board.Illustrations {
			if slices.Contains(v.MyTokens, ill.ID) {
				continue
			}
			score := 0
			if colourHint {
				score = 1
			}
			if strings.Contains(v.Story, " "+ill.Glyph+" ") || strings.Contains(v.Story, " "+ill.Glyph+",") {
				score += 20
			}
			for _, form := range ill.Forbidden {
				for _, w := range words(form) {
					if len(w) > 2 && story[Stem(w)] {
						score += 10
					}
				}
			}
			if score > top {
				top, best = score, best[:0]
			}
			if score == top {
				best = append(best, choice{ill.ID, score})
			}
		}
	}
	if len(best) == 0 {
		return 0, false
	}
	return best[b.rng.IntN(len(best))].id, true
}
