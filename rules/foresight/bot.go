package foresight

import (
	"math/rand/v2"
	"strconv"
	"time"

	"parlor/rules"
)

// Bot plays a seat from its own view: it answers at random, predicts each opponent's most
// common earlier answer (at random until it has seen one), and wagers modestly.
type Bot struct {
	seat    int
	r       *rand.Rand
	seen    map[int]bool  // rounds whose reveal is already in history
	history map[int][]int // per opponent seat: how often each choice number was their answer
	step    string        // the round and phase the bot last saw, to time its "thinking"
	since   time.Time
	delay   time.Duration
}

// NewBot makes a bot for seat, seeded for its own choices.
func NewBot(s rules.BotSetup) *Bot {
	seat, seed := s.Seat, s.Seed
	return &Bot{
		seat:    seat,
		r:       rand.New(rand.NewPCG(seed, seed^0x626f74)),
		seen:    map[int]bool{},
		history: map[int][]int{},
	}
}

// Act returns the bot's next action for its newest view, or nil to wait.
func (b *Bot) Act(view rules.View, now time.Time) any {
	var v View
	switch x := view.(type) {
	case View:
		v = x
	case *View:
		if x == nil {
			return nil
		}
		v = *x
	default:
		return nil
	}
	b.remember(v.Reveal)
	seat := v.Seat
	if v.Over || seat < 0 || seat >= len(v.Names) || seat >= len(v.Scores) || seat >= len(v.Submitted) || seat >= len(v.Ready) {
		return nil
	}
	// Think for a few seconds like a person would, counted from when the step began.
	if step := v.Phase + "/" + strconv.Itoa(v.Round); step != b.step {
		b.step, b.since = step, now
		b.delay = time.Duration(1500+b.r.IntN(3500)) * time.Millisecond
	}
	if now.Sub(b.since) < b.delay {
		return nil
	}
	switch {
	case v.Phase == PhaseAnswering && !v.Submitted[seat] && len(v.Choices) >= MinChoices:
		return b.submission(v)
	case v.Phase == PhaseReveal && !v.Ready[seat]:
		return Ready{Type: TypeReady}
	}
	return nil
}

// remember adds a revealed round's answers to the bot's history.
func (b *Bot) remember(r *Reveal) {
	if r == nil || b.seen[r.Round] {
		return
	}
	b.seen[r.Round] = true
	for _, p := range r.Players {
		if p.Answer < 1 {
			continue
		}
		counts := b.history[p.Seat]
		for len(counts) <= p.Answer {
			counts = append(counts, 0)
		}
		counts[p.Answer]++
		b.history[p.Seat] = counts
	}
}

// submission builds a legal submission: modest wagers within every restriction.
func (b *Bot) submission(v View) Submit {
	k := len(v.Choices)
	seat := v.Seat
	points := v.Scores[seat]
	s := Submit{Type: TypeSubmit, Answer: 1 + b.r.IntN(k)}
	budget := points / 4 / 25 * 25
	hundred := false // one 100 in column A at most
	for o := range v.Names {
		if o == seat {
			continue
		}
		choice, sure := b.predict(o, k)
		p := Prediction{Seat: o, Choice: choice}
		if points > 0 {
			a := []int{0, 25, 25, 50}[b.r.IntN(4)]
			if sure {
				a = []int{25, 50, 50, 100}[b.r.IntN(4)]
			}
			bw := []int{0, 0, 25}[b.r.IntN(3)]
			if a == MaxWager && hundred {
				a = 50
			}
			hundred = hundred || a == MaxWager
			if a <= budget {
				p.A, budget = a, budget-a
			}
			if bw <= budget {
				p.B, budget = bw, budget-bw
			}
		}
		s.Predictions = append(s.Predictions, p)
	}
	// With 0 points, a single small bet keeps the bot in the game.
	if points <= 0 && len(s.Predictions) > 0 && b.r.IntN(2) == 0 {
		s.Predictions[b.r.IntN(len(s.Predictions))].A = 25
	}
	if Check(s, seat, len(v.Names), k, points) != nil {
		for i := range s.Predictions {
			s.Predictions[i].A, s.Predictions[i].B = 0, 0
		}
	}
	return s
}

// predict is the opponent's most common earlier answer that fits this question (ties and
// no history: at random); sure reports a clear habit worth a bigger wager.
func (b *Bot) predict(o, k int) (choice int, sure bool) {
	counts := b.history[o]
	best, bestN, total := 0, 0, 0
	for c := 1; c < len(counts) && c <= k; c++ {
		total += counts[c]
		if counts[c] > bestN || (counts[c] == bestN && bestN > 0 && b.r.IntN(2) == 0) {
			best, bestN = c, counts[c]
		}
	}
	if best == 0 {
		return 1 + b.r.IntN(k), false
	}
	return best, total >= 3 && bestN*3 >= total*2
}
