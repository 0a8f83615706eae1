package foresight

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"parlor/rules"
	"parlor/rules/lexicon"
	"parlor/rules/meaning"
	"parlor/rules/text"
)

// Bot plays a seat from its own view. It answers by a character of its own (a stable
// liking for some words of the answers over others: the cautious, the lazy, the sweet
// tooth), predicts each opponent from what it has seen them answer in this game (answers
// worded like their earlier ones, or their habit of a position), like itself until it
// has seen anything, and wagers more where it is surer.
type Bot struct {
	seat    int
	r       *rand.Rand
	temper  meaning.Temperament
	lex     *lexicon.Lexicon
	seen    map[int]bool           // rounds whose reveal is already in history
	history map[int][]int          // per opponent seat: how often each choice number was their answer
	chosen  map[int][]lexicon.Word // per opponent seat: the words of the answers they chose
	step    string                 // the round and phase the bot last saw, to time its "thinking"
	since   time.Time
	delay   time.Duration
}

// NewBot makes a bot for seat, seeded for its own choices.
func NewBot(s rules.BotSetup) *Bot {
	seat, seed := s.Seat, s.Seed
	return &Bot{
		seat:    seat,
		r:       rand.New(rand.NewPCG(seed, seed^0x626f74)),
		temper:  meaning.NewTemperament(rules.Skill(s.Options), seed),
		lex:     lexicon.Default(),
		seen:    map[int]bool{},
		history: map[int][]int{},
		chosen:  map[int][]lexicon.Word{},
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
	if v.Phase == PhaseReveal && v.Reveal != nil && v.Reveal.Round == v.Round {
		b.remember(v.Reveal, v.Choices)
	} else {
		b.remember(v.Reveal, nil)
	}
	seat := v.Seat
	if v.Over || seat < 0 || seat >= len(v.Names) || seat >= len(v.Scores) || seat >= len(v.Submitted) || seat >= len(v.Ready) {
		return nil
	}
	// Think for a few seconds like a person would, counted from when the step began.
	if step := v.Phase + "/" + strconv.Itoa(v.Round); step != b.step {
		b.step, b.since = step, now
		b.delay = b.temper.Think(time.Duration(1500+b.r.IntN(3500)) * time.Millisecond)
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

// remember adds a revealed round's answers to the bot's history, and the words of the
// chosen answers when the round's choices are known.
func (b *Bot) remember(r *Reveal, choices []string) {
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
		if p.Answer <= len(choices) {
			b.chosen[p.Seat] = append(b.chosen[p.Seat], b.lex.Words(text.ContentWords(choices[p.Answer-1]))...)
		}
	}
}

// submission builds a legal submission: modest wagers within every restriction.
func (b *Bot) submission(v View) Submit {
	k := len(v.Choices)
	seat := v.Seat
	points := v.Scores[seat]
	s := Submit{Type: TypeSubmit, Answer: b.answer(v.Choices)}
	// A quarter of its points, but up to 50 when it has fewer than 200: with a quarter
	// alone a bot below 100 could not wager at all, and a table of such bots played on
	// for ever, nobody nearer the 1,200 that ends the game.
	budget := max(points/4, min(points, 50)) / 25 * 25
	hundred := false // one 100 in column A at most
	for o := range v.Names {
		if o == seat {
			continue
		}
		choice, sure := b.predict(o, v.Choices)
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

// liking is how much the bot's character likes an answer: its stable leaning on each of
// the answer's words.
func (b *Bot) liking(choice string) float64 {
	ws := text.ContentWords(choice)
	if len(ws) == 0 {
		return 0
	}
	sum := 0.0
	for _, w := range ws {
		if l := b.lex.Lemma(w); l != "" {
			w = l
		}
		sum += b.temper.Opinion("likes/" + w)
	}
	return sum / float64(len(ws))
}

// answer is the choice (1-based) the bot's character likes best.
func (b *Bot) answer(choices []string) int {
	best, pick := math.Inf(-1), 1
	for i, c := range choices {
		if l := b.liking(c); l > best {
			best, pick = l, i+1
		}
	}
	return pick
}

// predict guesses opponent o's answer among choices: the answer worded most like the
// answers o chose before, with o's habit of a position counting too; before it has seen
// o answer, the bot expects o to answer like itself. sure reports a clear lead worth a
// bigger wager.
func (b *Bot) predict(o int, choices []string) (choice int, sure bool) {
	k := len(choices)
	if k < 1 {
		return 1, false
	}
	counts := b.history[o]
	total := 0
	for c := 1; c < len(counts); c++ {
		total += counts[c]
	}
	if total == 0 {
		return b.answer(choices), false
	}
	score := make([]float64, k)
	for c := range k {
		if c+1 < len(counts) {
			score[c] = float64(counts[c+1]) / float64(total)
		}
		score[c] += b.lex.FitWords(b.lex.Words(text.ContentWords(choices[c])), b.chosen[o])
		score[c] += 0.1 * b.temper.Opinion(fmt.Sprint("predict/", o, "/", choices[c]))
	}
	best, second := 0, -1
	for c := 1; c < k; c++ {
		if score[c] > score[best] {
			best, second = c, best
		} else if second < 0 || score[c] > score[second] {
			second = c
		}
	}
	lead := score[best]
	if second >= 0 {
		lead -= score[second]
	}
	return best + 1, total >= 3 && lead > 0.3
}
