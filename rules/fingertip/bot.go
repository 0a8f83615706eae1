package fingertip

import (
	"math"
	"strconv"
	"time"

	"parlor/rules"
	"parlor/rules/meaning"
	"parlor/rules/text"
)

// Bot plays Fingertip from its own view: as the active player it gives a one-word clue
// it associates with its target that may lure someone onto another picture but is
// still likely found (a wrong card pays only when the target is found);
// as a guesser it points, after a human-like pause, at the free card that the clue (a
// person's or a bot's) fits best in its own reading.
type Bot struct {
	seat   int
	temper meaning.Temperament
	sense  *sense
	key    string    // turn and phase the bot last saw
	since  time.Time // when it first saw them
	delay  time.Duration
}

// NewBot makes a bot for a seat.
func NewBot(s rules.BotSetup) *Bot {
	temper := meaning.NewTemperament(rules.Skill(s.Options), s.Seed)
	return &Bot{seat: s.Seat, temper: temper, sense: newSense(s.Content[MeaningFile], temper)}
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
		b.delay = meaning.Hurried(b.reaction(v, key), now, v.Deadline)
	}
	if now.Sub(b.since) < b.delay {
		return nil
	}
	switch {
	case v.Phase == PhaseClue && v.Active == b.seat && v.Target >= 1 && v.Target <= len(v.Square):
		return Clue{Type: TypeClue, Text: b.clueFor(v)}
	case v.Phase == PhaseRace && v.InRace:
		if p := b.choose(v); p > 0 {
			return Point{Type: TypePoint, Position: p}
		}
	}
	return nil
}

// How long people take in Fingertip, from when a step shows on their screen: to think
// of a clue for the target while the others look over the square, and, in the race, to
// read the clue and find the card it fits among nine (a newcomer lost to a bot that
// pointed 3 s after the clue, before the "Point at" prompt had shown).
var (
	clueReaction = meaning.Reaction{Median: 6 * time.Second, Least: 3 * time.Second}
	raceReaction = meaning.Reaction{Median: 12 * time.Second, Least: 5 * time.Second}
)

// reaction is how long the bot takes over the step of the view (key names it); in the
// race, the longer the closer the clue fits the card it would choose and the next best.
func (b *Bot) reaction(v View, key string) time.Duration {
	if v.Phase != PhaseRace || !v.InRace {
		return b.temper.React(key, clueReaction, 0.5)
	}
	clue := text.ContentWords(v.Clue)
	if len(clue) == 0 {
		clue = text.Words(v.Clue)
	}
	best, second := math.Inf(-1), math.Inf(-1)
	for _, c := range v.Square {
		if c.Empty || c.Finger >= 0 {
			continue
		}
		switch f := b.sense.fit(clue, c.Alt); {
		case f > best:
			best, second = f, best
		case f > second:
			second = f
		}
	}
	return b.temper.React(key, raceReaction, meaning.Hardness(best, second, 0.3))
}

// clueFor picks the clue for the view's target.
func (b *Bot) clueFor(v View) string {
	var others []string
	for _, c := range v.Square {
		if !c.Empty && c.Position != v.Target {
			others = append(others, c.Alt)
		}
	}
	guessers, stake := len(v.Players)-1, 0.0
	if v.Seat >= 0 && v.Seat < len(v.Players) && v.Players[v.Seat].Cards > 0 {
		stake = 1 // the card it would give back if nobody found the target
	}
	return b.sense.clue(v.Square[v.Target-1].Alt, others, guessers, stake)
}

// choose returns the free card (no finger on it) the clue fits best in the bot's
// reading; 0 if none is free.
func (b *Bot) choose(v View) int {
	clue := text.ContentWords(v.Clue)
	if len(clue) == 0 {
		clue = text.Words(v.Clue)
	}
	best, pick := math.Inf(-1), 0
	for _, c := range v.Square {
		if c.Empty || c.Finger >= 0 || c.Position < 1 || c.Position > 9 {
			continue
		}
		if f := b.sense.fit(clue, c.Alt); f > best {
			best, pick = f, c.Position
		}
	}
	return pick
}
