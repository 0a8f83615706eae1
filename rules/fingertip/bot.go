package fingertip

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode"

	"parlor/rules"
)

// Bot plays Fingertip from its own view: as the active player it gives a one-word clue
// taken from its target's description; as a guesser it points, after a human-like
// pause, at the free card whose description shares most words with the clue.
type Bot struct {
	seat  int
	rng   *rand.Rand
	key   string    // turn and phase the bot last saw
	since time.Time // when it first saw them
	delay time.Duration
}

// NewBot makes a bot for seat.
func NewBot(s rules.BotSetup) *Bot {
	seat, seed := s.Seat, s.Seed
	return &Bot{seat: seat, rng: rand.New(rand.NewPCG(seed, seed^0x5bd1e995))}
}

// Act returns the bot's action for this view, or nil to wait.
func (b *Bot) Act(rv rules.View, now time.Time) any {
	v, ok := rules.ViewAs[View](rv)
	if !ok {
		return nil
	}
	if v.Over || v.Seat != b.seat {
		return nil
	}
	key := v.Phase + "/" + strconv.Itoa(v.Round)
	if key != b.key {
		b.key, b.since = key, now
		// A person reads the square (or the clue) before acting.
		b.delay = 1500*time.Millisecond + time.Duration(b.rng.IntN(3000))*time.Millisecond
	}
	if now.Sub(b.since) < b.delay {
		return nil
	}
	switch {
	case v.Phase == PhaseClue && v.Active == b.seat && v.Target >= 1 && v.Target <= len(v.Square):
		return Clue{Type: TypeClue, Text: b.clueFor(v.Square[v.Target-1].Alt)}
	case v.Phase == PhaseRace && v.InRace:
		if p := b.choose(v); p > 0 {
			return Point{Type: TypePoint, Position: p}
		}
	}
	return nil
}

// clueFor picks one meaningful word of the target's description.
func (b *Bot) clueFor(alt string) string {
	ws := words(alt)
	if len(ws) == 0 {
		return "something"
	}
	return ws[b.rng.IntN(len(ws))]
}

// choose returns the free card (no finger on it) whose description shares most words
// with the clue, at random among ties; 0 if none is free.
func (b *Bot) choose(v View) int {
	clue := map[string]bool{}
	for _, w := range words(v.Clue) {
		clue[w] = true
	}
	best, picks := -1, []int(nil)
	for _, c := range v.Square {
		if c.Empty || c.Finger >= 0 || c.Position < 1 || c.Position > 9 {
			continue
		}
		score := 0
		for _, w := range words(c.Alt) {
			if clue[w] {
				score++
			}
		}
		switch {
		case score > best:
			best, picks = score, []int{c.Position}
		case score == best:
			picks = append(picks, c.Position)
		}
	}
	if len(picks) == 0 {
		return 0
	}
	return picks[b.rng.IntN(len(picks))]
}

var stopWords = map[string]bool{
	"the": true, "and": true, "with": true, "from": true, "into": true, "onto": true,
	"over": true, "under": true, "its": true, "his": true, "her": true, "their": true,
	"that": true, "this": true, "for": true, "are": true, "was": true, "has": true,
	"one": true, "two": true, "three": true, "some": true, "out": true, "off": true,
	"near": true, "behind": true, "above": true, "below": true, "between": true,
	"through": true, "on": true, "in": true, "of": true, "at": true, "by": true, "to": true,
}

// words splits text into lower-case content words with a plural "s" removed, so that
// "keys" in a clue matches "key" in a description.
func words(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(f) > 3 && strings.HasSuffix(f, "s") && !strings.HasSuffix(f, "ss") {
			f = f[:len(f)-1]
		}
		if len(f) < 3 || stopWords[f] || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	return out
}
