package talltale

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"parlor/rules"
	"parlor/rules/meaning"
	"parlor/rules/text"
)

// Bot plays Tall Tale from its own view: as narrator it keeps the illustrations that
// need the fewest boards and tells a template story that hints at each with a word it
// associates with it, never naming it; as a racer it reads the story (a person's or a
// bot's) through the lexicon and puts its tokens on the illustrations the story's words
// point at most, after a short human-like delay.
type Bot struct {
	seat   int
	rng    *rand.Rand
	temper meaning.Temperament
	sense  *sense
	// readStory is the story the bot last read and the illustrations it read it over,
	// reading its scores per illustration.
	readStory string
	reading   map[int]float64
	key       string    // what the bot last saw: round, phase and tokens placed
	since     time.Time // when it first saw that
	delay     time.Duration
}

// NewBot makes a bot for a seat.
func NewBot(s rules.BotSetup) *Bot {
	temper := meaning.NewTemperament(rules.Skill(s.Options), s.Seed)
	return &Bot{seat: s.Seat, rng: rand.New(rand.NewPCG(s.Seed, s.Seed^0xb07)), temper: temper,
		sense: newSense(s.Content[MeaningFile], temper)}
}

func (b *Bot) wait(min, spread time.Duration) time.Duration {
	return b.temper.Think(min + time.Duration(b.rng.Int64N(int64(spread))))
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
		case PhaseRace:
			b.delay = meaning.Hurried(b.raceReaction(v, key), now, v.Deadline)
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
			return Story{Type: "story", Text: b.tell(v), Confirm: true}
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

// How long people take over a token in the race, from the story (or their last token)
// on their screen: the first after reading the story, a little longer the longer it is,
// and finding an illustration it hints at among the boards; each next one after finding
// another. A bot that placed its token a second after the story left people no chance.
var (
	firstTokenReaction = meaning.Reaction{Median: 5 * time.Second, Least: 3 * time.Second}
	nextTokenReaction  = meaning.Reaction{Median: 4 * time.Second, Least: 2 * time.Second}
)

// The first token's reaction grows by these for every word of the story.
const (
	readMedianPerWord = 300 * time.Millisecond
	readLeastPerWord  = 100 * time.Millisecond
)

// raceReaction is how long the bot takes over its next token (key names the step): the
// longer, the closer the story fits the two illustrations it would choose between.
func (b *Bot) raceReaction(v View, key string) time.Duration {
	if !slices.Contains(v.Racers, b.seat) || len(v.MyTokens) >= Tokens {
		return 0
	}
	r := nextTokenReaction
	if len(v.MyTokens) == 0 {
		words := time.Duration(len(text.Words(v.Story)))
		r = meaning.Reaction{Median: firstTokenReaction.Median + words*readMedianPerWord,
			Least: firstTokenReaction.Least + words*readLeastPerWord}
	}
	b.guess(v) // reads the story, once
	best, second := math.Inf(-1), math.Inf(-1)
	for _, board := range v.Boards {
		for _, ill := range board.Illustrations {
			f, ok := b.reading[ill.ID]
			switch {
			case !ok || slices.Contains(v.MyTokens, ill.ID):
			case f > best:
				best, second = f, best
			case f > second:
				second = f
			}
		}
	}
	return b.temper.React(key, r, meaning.Hardness(best, second, 0.3))
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

// tell makes the narrator's story: hints at the kept illustrations, none of their words.
func (b *Bot) tell(v View) string {
	var inPlay []Illustration
	for _, board := range v.Boards {
		inPlay = append(inPlay, board.Illustrations...)
	}
	if story := b.sense.tell(v.Hand.Kept, inPlay, b.rng.IntN(len(storyTemplates))); story != "" {
		return story
	}
	return "Once upon a time, three old friends went on a trip. The end!"
}

func storyOK(story string, kept []Illustration) bool {
	if Sentences(story) > 2 || StoryWidth(story) > MaxStory {
		return false
	}
	for _, k := range kept {
		if _, bad := FindForbidden(story, k.Forbidden); bad {
			return false
		}
	}
	return true
}

// guess picks an illustration for the next token: the one the story's words point at
// most, in the bot's reading, among those it has no token on; a colour the story names
// counts a little for that board.
func (b *Bot) guess(v View) (int, bool) {
	var inPlay []Illustration
	seen := v.Story
	for _, board := range v.Boards {
		inPlay = append(inPlay, board.Illustrations...)
		for _, ill := range board.Illustrations {
			seen += fmt.Sprint(" ", ill.ID)
		}
	}
	// A reading holds for one story over one set of illustrations: the same story may
	// be told again in another round (people repeat themselves), over others.
	if b.readStory != seen || b.reading == nil {
		story := text.ContentWords(v.Story)
		b.readStory, b.reading = seen, b.sense.read(story, inPlay)
		for _, board := range v.Boards {
			if slices.Contains(story, board.Colour) {
				for _, ill := range board.Illustrations {
					b.reading[ill.ID] += 0.2
				}
			}
		}
	}
	best, pick := math.Inf(-1), -1
	for _, board := range v.Boards {
		for _, ill := range board.Illustrations {
			if f, ok := b.reading[ill.ID]; ok && f > best && !slices.Contains(v.MyTokens, ill.ID) {
				best, pick = f, ill.ID
			}
		}
	}
	return pick, pick >= 0
}
