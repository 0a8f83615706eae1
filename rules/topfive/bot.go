package topfive

import (
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"parlor/rules"
)

// Bot plays one seat of Top Five from its own view. It ranks by a rough idea of what
// people like (words such as "rain" or "Monday" pull a topic down, "holiday" or "cake"
// pull it up) plus a taste of its own, and puts its marker on the extreme guess (rank 1
// or rank 5) it feels strongest about.
type Bot struct {
	seat  int
	rng   *rand.Rand
	taste map[string]float64 // the bot's own leanings, drawn once per topic

	seen  string    // round and phase the bot last saw
	since time.Time // when it first saw them
	delay time.Duration
}

// NewBot makes a bot for seat, seeded for its own choices.
func NewBot(s rules.BotSetup) *Bot {
	seat, seed := s.Seat, s.Seed
	return &Bot{seat: seat, rng: rand.New(rand.NewPCG(seed, seed^0xb07)), taste: map[string]float64{}}
}

// Act returns the bot's action for its newest view, or nil to wait (it takes a few
// seconds to "think", like a person would).
func (b *Bot) Act(view rules.View, now time.Time) any {
	v, ok := rules.ViewAs[View](view)
	if !ok {
		return nil
	}
	if v.Over || v.Seat < 0 || v.Seat >= len(v.Submitted) {
		return nil
	}
	key := v.Phase + "#" + strconv.Itoa(v.Round)
	if key != b.seen {
		b.seen, b.since = key, now
		b.delay = time.Duration(1500+b.rng.IntN(3500)) * time.Millisecond
	}
	due := !now.Before(b.since.Add(b.delay)) ||
		(!v.Deadline.IsZero() && v.Deadline.Sub(now) < 3*time.Second)
	switch v.Phase {
	case PhaseRanking:
		if v.Submitted[v.Seat] || len(v.Topics) != Hand || !due {
			return nil
		}
		return b.rank(v)
	case PhaseResults:
		if v.Seat < len(v.Ready) && !v.Ready[v.Seat] && due {
			return Ready{Type: TypeReady}
		}
	}
	return nil
}

// rank builds a legal ranking: by common appeal, nudged by the bot's own taste when it
// is the one being guessed (or in duo), with only a little noise when guessing.
func (b *Bot) rank(v View) Rank {
	own := v.Role != RoleGuesser
	score := make([]float64, Hand)
	for i, t := range v.Topics {
		score[i] = appeal(t)
		if own {
			if _, ok := b.taste[t]; !ok {
				b.taste[t] = b.rng.NormFloat64() * 1.2
			}
			score[i] += b.taste[t]
		} else {
			score[i] += b.rng.NormFloat64() * 0.4
		}
	}
	idx := []int{0, 1, 2, 3, 4}
	sort.SliceStable(idx, func(a, c int) bool { return score[idx[a]] > score[idx[c]] })
	var ranks [Hand]int
	for r, i := range idx {
		ranks[i] = r + 1
	}
	if own {
		return NewRank(ranks, -1)
	}
	// The simple rule: the surest guess is the extreme that stands out most.
	top, bottom := idx[0], idx[Hand-1]
	marker := top
	if -appeal(v.Topics[bottom]) > appeal(v.Topics[top]) {
		marker = bottom
	}
	return NewRank(ranks, marker)
}

// Words that make a topic more or less liked by most people.
var (
	liked = []string{"holiday", "cake", "beach", "ice cream", "sleep", "pizza", "chocolate",
		"puppy", "puppies", "kitten", "sunny", "birthday", "weekend", "breakfast", "music", "friend",
		"nap", "snow day", "fresh", "warm", "picnic", "party", "dance", "movie", "game", "garden",
		"surprise", "bake", "baking", "sunset", "stars", "laugh", "gift", "festival"}
	disliked = []string{"rain", "monday", "traffic", "queue", "waiting", "stuck", "lost", "dentist",
		"alarm", "cold", "late", "broken", "spill", "flat", "homework", "chores", "mosquito",
		"delay", "wet", "noisy", "burnt", "forget", "forgot", "losing", "sunburn", "hiccup",
		"ironing", "tax", "wasp", "cramp", "splinter", "soggy", "jam", "power cut", "dead battery",
		"no signal", "stubbing", "paperwork", "cancel", "lecture", "crowd"}
)

// appeal is the bot's guess of how much people in general like a topic.
func appeal(topic string) float64 {
	t := strings.ToLower(topic)
	s := 0.0
	for _, w := range liked {
		if strings.Contains(t, w) {
			s++
		}
	}
	for _, w := range disliked {
		if strings.Contains(t, w) {
			s--
		}
	}
	return s
}
