// Package foresight is the engine of Foresight, a prediction-and-wager game: each round
// everyone answers a question about themselves, predicts every opponent's answer and wagers
// points on their predictions (column A) and on being foreseen by others (column B).
package foresight

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"parlor/rules"
)

// Points of the game.
const (
	StartPoints  = 600
	TargetPoints = 1200
)

// Phases of a round.
const (
	PhaseAnswering = "answering" // everyone submits in secret
	PhaseReveal    = "reveal"    // the round's results are shown
	PhaseOver      = "over"
)

// QuestionsFile is the asset holding the question deck.
const QuestionsFile = "foresight/questions.txt"

// logLines is how many recent events a view carries.
const logLines = 8

// Game is one game of Foresight.
type Game struct {
	names     []string
	deck      []Question // shuffled; questions[next:] are still to come
	next      int
	question  Question
	round     int
	limit     int           // round limit; 0 means none
	why       string        // why the game ended, once it has
	timer     time.Duration // submission time limit; 0 means none
	revealFor time.Duration
	phase     string
	deadline  time.Time   // the reveal's end; the answering's is clock's
	clock     rules.Timer // the time to submit; each seat's own deadline is its Pace's
	points    []int
	sheet     rules.Sheet
	subs      []*Submit // this round's submissions; nil = not yet
	ready     []bool
	last      *Reveal
	winners   []int
	log       []event
	standIn   rules.StandInFlag // the action being applied is a bot's for the seat's absent player (ApplyStandIn)
	rules.Pace
}

// event is a log line, public (seat -1) or for one seat's eyes only.
type event struct {
	seat int
	text string
}

// New starts a game from a setup whose options were checked by the spec.
func New(s rules.Setup) (*Game, error) {
	n := len(s.Names)
	if n < 2 || n > 8 {
		return nil, fmt.Errorf("foresight: needs 2 to 8 players, not %d", n)
	}
	all, own, err := rules.ReadDeck(s.Content, QuestionsFile, Parse, func(q Question) string { return normal(q.Text) })
	if err != nil {
		return nil, err
	}
	decks := strings.Split(option(s.Options, "decks"), "+")
	deck := InDecks(all, decks)
	limit, _ := strconv.Atoi(option(s.Options, "rounds")) // "none" reads as 0
	need := max(limit, 1)                                 // without a limit, a game ends early when its deck is spent
	if len(deck) < need {
		return nil, fmt.Errorf("%w: %w", ErrBadContent, rules.SmallDeck("%d questions in the %s deck, and a game needs %d", len(deck), strings.Join(decks, " and "), need))
	}
	r := rand.New(rand.NewPCG(s.Seed, s.Seed^0x666f726573696768))
	rules.Shuffle(r, deck, len(InDecks(all[:own], decks))) // a mixed pack's questions come first
	g := &Game{
		names:     slices.Clone(s.Names),
		deck:      deck,
		limit:     limit,
		timer:     rules.OptionDuration(option(s.Options, "timer")),
		revealFor: rules.OptionDuration(option(s.Options, "reveal")),
		points:    make([]int, n),
	}
	if g.revealFor <= 0 {
		g.revealFor = 30 * time.Second
	}
	g.sheet = rules.NewSheet(n, StartPoints)
	for i := range g.points {
		g.points[i] = StartPoints
	}
	g.startRound(s.Now)
	return g, nil
}

// option reads an option, falling back to the spec's default when the table gave none.
func option(o rules.Options, key string) string {
	if v, ok := o[key]; ok {
		return v
	}
	for _, opt := range options {
		if opt.Key == key {
			return opt.Default
		}
	}
	return ""
}

// startRound deals the next question, or ends the game when the deck is spent.
func (g *Game) startRound(now time.Time) {
	if g.next >= len(g.deck) {
		g.end("the questions ran out")
		return
	}
	g.question = g.deck[g.next]
	g.next++
	g.round++
	g.phase = PhaseAnswering
	g.subs = make([]*Submit, len(g.names))
	g.ready = make([]bool, len(g.names))
	g.deadline = time.Time{}
	g.clock = rules.NewTimer(now, g.timer)
	g.say(-1, "Round %d: %s", g.round, g.question.Text)
}

// ApplyStandIn implements rules.StandIns: the seat's own log lines speak of the bot.
func (g *Game) ApplyStandIn(seat int, raw json.RawMessage, now time.Time) error {
	return g.standIn.During(func() error { return g.Apply(seat, raw, now) })
}

// Apply performs one action of seat, after the deadline if now has passed it (a late
// submission meets the round's results); on error nothing else changes.
func (g *Game) Apply(seat int, raw json.RawMessage, now time.Time) error {
	typ, err := rules.Preamble(g, seat, len(g.names), raw, now)
	if err != nil {
		return err
	}
	switch typ {
	case TypeSubmit:
		var s Submit
		if err := rules.Decode(raw, &s); err != nil {
			return fmt.Errorf("foresight: %w", err)
		}
		return g.submit(seat, s, now)
	case TypeReady:
		var r Ready
		if err := rules.Decode(raw, &r); err != nil {
			return fmt.Errorf("foresight: %w", err)
		}
		return g.markReady(seat, now)
	}
	return rules.UnknownAction(typ, TypeSubmit, TypeReady)
}

func (g *Game) submit(seat int, s Submit, now time.Time) error {
	if g.phase != PhaseAnswering {
		return ErrNotAnswering
	}
	if err := Check(s, seat, len(g.names), len(g.question.Choices), g.points[seat]); err != nil {
		return err
	}
	if rules.Passed(g.Due(g.clock, seat), now) {
		return fmt.Errorf("%w: the others who were given more time are still answering", rules.ErrTimeUp)
	}
	if g.subs[seat] == nil {
		g.say(-1, "%s has submitted", g.names[seat])
	} else {
		g.say(-1, "%s changed their submission", g.names[seat])
	}
	g.subs[seat] = s.clone()
	g.say(seat, "You answered %d and wagered %d of your %d points", s.Answer, Total(s.Predictions), g.points[seat])
	switch {
	case !slices.Contains(g.subs, nil):
		g.reveal(now)
	case rules.Passed(g.due(), now): // only seats whose time is up have not submitted
		g.Tick(now)
	}
	return nil
}

func (g *Game) markReady(seat int, now time.Time) error {
	if g.phase != PhaseReveal {
		return ErrNotReveal
	}
	if g.ready[seat] {
		return ErrAlreadyReady
	}
	g.ready[seat] = true
	if !slices.Contains(g.ready, false) {
		g.startRound(now)
	}
	return nil
}

// Tick closes submissions when their time runs out and ends the reveal when its time is up.
func (g *Game) Tick(now time.Time) bool {
	if !rules.Passed(g.due(), now) {
		return false
	}
	switch g.phase {
	case PhaseAnswering:
		for seat, s := range g.subs {
			if s == nil {
				g.say(-1, "%s gave no answer in time", g.names[seat])
			}
		}
		g.reveal(now)
		return true
	case PhaseReveal:
		g.startRound(now)
		return true
	}
	return false
}

// due is when the current phase next moves on by itself: the answering when no seat
// that has still to submit has time left (each its own, see rules.Pace), else the
// deadline.
func (g *Game) due() time.Time {
	if g.phase == PhaseAnswering {
		return g.Until(g.clock, len(g.names), g.unanswered)
	}
	return g.deadline
}

// unanswered reports that seat has not submitted this round.
func (g *Game) unanswered(seat int) bool { return g.subs[seat] == nil }

// reveal scores the round and either shows its results or ends the game.
func (g *Game) reveal(now time.Time) {
	rows := Score(g.subs, g.points)
	g.last = &Reveal{Round: g.round, Question: g.question.Text, Choices: slices.Clone(g.question.Choices), Players: rows}
	parts := make([]string, len(rows))
	gained := make([]int, len(rows))
	reached := false
	for p, row := range rows {
		gained[p] = row.Total - g.points[p]
		g.points[p] = row.Total
		parts[p] = fmt.Sprintf("%s %+d → %d", g.names[p], row.Change, row.Total)
		reached = reached || row.Total >= TargetPoints
	}
	g.say(-1, "Round %d: %s", g.round, strings.Join(parts, ", "))
	g.sheet.Add(g.round, "", gained, g.points, g.breakdown(rows))
	g.subs = make([]*Submit, len(g.names))
	switch {
	case reached:
		g.end(fmt.Sprintf("%d points reached", TargetPoints))
	case g.limit > 0 && g.round >= g.limit:
		g.end(fmt.Sprintf("all %d rounds are played", g.limit))
	case g.next >= len(g.deck):
		g.end("the questions ran out")
	default:
		g.phase = PhaseReveal
		g.ready = make([]bool, len(g.names))
		g.deadline = now.Add(g.revealFor)
	}
}

// end finishes the game: the highest total wins, tied players share the victory.
func (g *Game) end(why string) {
	g.phase, g.why = PhaseOver, why
	g.deadline = time.Time{}
	best := slices.Max(g.points)
	g.winners = nil
	for p, pts := range g.points {
		if pts == best {
			g.winners = append(g.winners, p)
		}
	}
	g.say(-1, "Game over (%s): %s", why, g.summary())
}

func (g *Game) summary() string {
	names := make([]string, len(g.winners))
	for i, w := range g.winners {
		names[i] = g.names[w]
	}
	best := g.points[g.winners[0]]
	if len(names) == 1 {
		return fmt.Sprintf("%s wins with %d points", names[0], best)
	}
	return fmt.Sprintf("%s share the victory with %d points", joinAnd(names), best)
}

// joinAnd lists names as "Ann, Ben and Cat".
func joinAnd(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Outcome reports the final points and the winners once the game is over.
func (g *Game) Outcome() (rules.Result, bool) {
	if g.phase != PhaseOver {
		return rules.Result{}, false
	}
	return rules.Result{Scores: slices.Clone(g.points), Winners: slices.Clone(g.winners), Summary: g.summary()}, true
}

func (g *Game) say(seat int, format string, args ...any) {
	text := g.standIn.Own(seat, fmt.Sprintf(format, args...))
	g.log = append(g.log, event{seat: seat, text: text})
	if len(g.log) > 100 {
		g.log = slices.Clone(g.log[len(g.log)-60:])
	}
}
