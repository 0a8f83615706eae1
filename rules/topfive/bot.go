package topfive

import (
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"parlor/rules"
	"parlor/rules/meaning"
)

// Bot plays one seat of Top Five from its own view. It has a taste of its own (the
// common taste, varied by its seed) over the topics' attributes, and ranks by it as the
// Player of Honour. As a Guesser it ranks by what it has learned of the Player of
// Honour's taste: its own taste at first, then moved towards every ranking of theirs it
// has seen revealed in this game. It puts its marker on the extreme guess (rank 1 or 5)
// it is surest of. Topics without attributes (a custom deck) are judged by their words.
type Bot struct {
	seat     int
	rng      *rand.Rand
	temper   meaning.Temperament
	meanings []byte                    // the topics' annotation file
	attrs    map[string]meaning.Values // topic → its attributes, as read so far
	mine     taste                     // the bot's own taste
	theirs   map[int]*taste            // what it has learned of each Player of Honour's taste
	learned  int                       // the last round whose reveal it has learned from
	taste    map[string]float64        // its own leanings on unannotated topics

	seen  string    // round and phase the bot last saw
	since time.Time // when it first saw them
	delay time.Duration
}

// NewBot makes a bot for a seat, seeded for its own taste and choices.
func NewBot(s rules.BotSetup) *Bot {
	return &Bot{seat: s.Seat, rng: rand.New(rand.NewPCG(s.Seed, s.Seed^0xb07)),
		temper:   meaning.NewTemperament(rules.Skill(s.Options), s.Seed),
		meanings: s.Content[MeaningFile], attrs: map[string]meaning.Values{},
		mine: ownTaste(s.Seed), theirs: map[int]*taste{}, taste: map[string]float64{}}
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
	b.learn(v)
	key := v.Phase + "#" + strconv.Itoa(v.Round)
	if key != b.seen {
		b.seen, b.since = key, now
		b.delay = b.temper.Think(time.Duration(1500+b.rng.IntN(3500)) * time.Millisecond)
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

// attributes reads a topic's attributes, once.
func (b *Bot) attributes(topic string) (meaning.Values, bool) {
	if a, ok := b.attrs[topic]; ok {
		return a, a != meaning.Values{}
	}
	e, _ := meaning.Find(b.meanings, topic)
	b.attrs[topic] = e.Attrs
	return e.Attrs, e.Attrs != meaning.Values{}
}

// learn takes in the Player of Honour's ranking once the reveal has shown all of it.
func (b *Bot) learn(v View) {
	if v.Honour < 0 || v.Honour == b.seat || len(v.Reveal) < Hand || v.Round <= b.learned || len(v.Topics) != Hand {
		return
	}
	b.learned = v.Round
	topics := make([]meaning.Values, Hand)
	ranks := make([]int, Hand)
	for _, row := range v.Reveal {
		if row.Topic < 0 || row.Topic >= Hand {
			return
		}
		a, ok := b.attributes(v.Topics[row.Topic])
		if !ok {
			return
		}
		topics[row.Topic], ranks[row.Topic] = a, row.Rank
	}
	t := b.theirs[v.Honour]
	if t == nil {
		c := b.mine
		t = &c
		b.theirs[v.Honour] = t
	}
	t.learn(topics, ranks)
}

// rank builds a legal ranking: by the bot's own taste as Player of Honour (or in duo),
// by what it knows of the Player of Honour's taste as a Guesser, each with a little of
// the bot's own hesitation.
func (b *Bot) rank(v View) Rank {
	own := v.Role != RoleGuesser
	judge := &b.mine
	if t := b.theirs[v.Honour]; !own && t != nil {
		judge = t
	}
	score := make([]float64, Hand)
	for i, t := range v.Topics {
		if a, ok := b.attributes(t); ok {
			score[i] = judge.like(a) + b.temper.Opinion(strconv.Itoa(v.Round)+"/"+t)
			continue
		}
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
	// The surest guess is the extreme that stands furthest from its neighbour.
	marker := idx[0]
	if score[idx[Hand-2]]-score[idx[Hand-1]] > score[idx[0]]-score[idx[1]] {
		marker = idx[Hand-1]
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
