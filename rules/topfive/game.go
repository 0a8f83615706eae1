package topfive

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"parlor/rules"
)

// Hand is the number of topics dealt each round.
const Hand = 5

// DuoRounds is the length of a duo game.
const DuoRounds = 10

// Phases of a round, as the views name them.
const (
	PhaseRanking = "ranking" // everyone who plays this round is secretly ranking
	PhaseReveal  = "reveal"  // the ranking is shown one step per beat
	PhaseResults = "results" // the round's scores are shown
	PhaseOver    = "over"    // the game has ended
)

// ranking is one player's secret: ranks[i] is the rank given to topic i; marker is the
// topic index carrying "I know this one!", or -1.
type ranking struct {
	ranks  [Hand]int
	marker int
}

// Game is one game of Top Five. It is owned by one goroutine and needs no locking.
type Game struct {
	names  []string
	duo    bool
	timer  time.Duration // ranking time limit; 0 = none
	beat   time.Duration // time between two reveal steps
	deck   []string      // shuffled; dealt from the front, never repeating
	dealt  int
	rounds int

	round    int // 1-based
	honour   int // seat of the Player of Honour; -1 in duo
	phase    string
	topics   [Hand]string
	secret   []*ranking  // per seat; nil until submitted
	order    [Hand]int   // topic indexes in reveal order
	step     int         // reveal steps shown so far (0..Hand)
	deadline time.Time   // of the next reveal step or the end of the results; the ranking's is clock's
	clock    rules.Timer // the ranking's time limit; each seat's own deadline is its Pace's
	tally    *Tally      // the round's scores once the reveal is done
	ready    []bool
	totals   []int
	sheet    rules.Sheet
	log      []entry
	standIn  rules.StandInFlag // the action being applied is a bot's for the seat's absent player (ApplyStandIn)
	rules.Pace
}

// entry is one log line, public (seat -1) or for one seat only.
type entry struct {
	seat int
	text string
}

// New starts a game from a setup: it parses the deck, checks the player count against the
// variant and deals the first round.
func New(s rules.Setup) (*Game, error) {
	opts, err := Spec.CheckOptions(s.Options)
	if err != nil {
		return nil, fmt.Errorf("topfive: %w", err)
	}
	n := len(s.Names)
	lo, hi := players(opts)
	if n < lo || n > hi {
		return nil, fmt.Errorf("topfive: the %s variant needs %d–%d players, not %d", opts[OptVariant], lo, hi, n)
	}
	deck, own, err := rules.ReadDeck(s.Content, TopicsFile, ParseTopics, rules.Fold)
	if err != nil {
		return nil, err
	}
	g := &Game{
		names:  append([]string(nil), s.Names...),
		duo:    opts[OptVariant] == VariantDuo,
		timer:  rules.OptionDuration(opts[OptTimer]),
		beat:   rules.OptionDuration(opts[OptPace]),
		totals: make([]int, n),
		sheet:  rules.NewSheet(n, 0),
	}
	if g.beat <= 0 {
		g.beat = 2 * time.Second
	}
	switch {
	case g.duo:
		g.rounds = DuoRounds
	case n <= 4:
		g.rounds = 2 * n
	default:
		g.rounds = n
	}
	if len(deck) < g.rounds*Hand {
		return nil, fmt.Errorf("%w: %w", ErrBadTopics, rules.SmallDeck("%d topics, and a game of %d players needs %d", len(deck), n, g.rounds*Hand))
	}
	rng := rand.New(rand.NewPCG(s.Seed, s.Seed^0x70f1e5))
	rules.Shuffle(rng, deck, own) // a mixed pack's topics come first
	g.deck = deck
	g.startRound(s.Now)
	return g, nil
}

// Players is the number of seats.
func (g *Game) Players() int { return len(g.names) }

// startRound deals the next five topics and hands the Player of Honour role on clockwise.
func (g *Game) startRound(now time.Time) {
	g.round++
	g.phase = PhaseRanking
	copy(g.topics[:], g.deck[g.dealt:g.dealt+Hand])
	g.dealt += Hand
	g.secret = make([]*ranking, len(g.names))
	g.ready = make([]bool, len(g.names))
	g.step, g.tally = 0, nil
	g.deadline = time.Time{}
	g.clock = rules.NewTimer(now, g.timer)
	if g.duo {
		g.honour = -1
		g.logf(-1, "Round %d: rank the five topics by your own taste.", g.round)
		return
	}
	g.honour = (g.round - 1) % len(g.names)
	g.logf(-1, "Round %d: %s is the Player of Honour.", g.round, g.names[g.honour])
}

// ApplyStandIn implements rules.StandIns: the seat's own log lines speak of the bot.
func (g *Game) ApplyStandIn(seat int, raw json.RawMessage, now time.Time) error {
	return g.standIn.During(func() error { return g.Apply(seat, raw, now) })
}

// Apply performs one action of seat at now, after the deadlines up to now; on error
// nothing else changes.
func (g *Game) Apply(seat int, action json.RawMessage, now time.Time) error {
	typ, err := rules.Preamble(g, seat, len(g.names), action, now)
	if err != nil {
		return err
	}
	switch typ {
	case TypeRank:
		return g.applyRank(seat, action, now)
	case TypeReady:
		return g.applyReady(seat, action, now)
	}
	return rules.UnknownAction(typ, TypeRank, TypeReady)
}

func (g *Game) applyRank(seat int, raw json.RawMessage, now time.Time) error {
	if err := g.checkPhase(PhaseRanking, "rank now"); err != nil {
		return err
	}
	if g.secret[seat] != nil {
		return fmt.Errorf("%w: your ranking for this round is in", ErrSubmitted)
	}
	r, err := decodeRank(raw, g.isGuesser(seat))
	if err != nil {
		return err
	}
	if rules.Passed(g.Due(g.clock, seat), now) {
		return fmt.Errorf("%w: the others who were given more time are still ranking", rules.ErrTimeUp)
	}
	g.secret[seat] = &r
	g.logf(-1, "%s has ranked.", g.names[seat])
	g.logf(seat, "You ranked: %s.", g.describe(r))
	switch {
	case len(g.missing()) == 0:
		g.startReveal(now)
	case rules.Passed(g.due(), now): // only seats whose time is up are missing
		g.timeUp(now)
	}
	return nil
}

func (g *Game) applyReady(seat int, raw json.RawMessage, now time.Time) error {
	var a Ready
	if err := rules.Decode(raw, &a); err != nil {
		return err
	}
	if err := g.checkPhase(PhaseResults, "be ready now"); err != nil {
		return err
	}
	if g.ready[seat] {
		return fmt.Errorf("%w: waiting for the others", ErrAlreadyReady)
	}
	g.ready[seat] = true
	for _, r := range g.ready {
		if !r {
			return nil
		}
	}
	g.startRound(now)
	return nil
}

// checkPhase explains, in the player's words, why an action does not fit the phase.
func (g *Game) checkPhase(want, what string) error {
	if g.phase == want {
		return nil
	}
	now := map[string]string{
		PhaseRanking: "players are still ranking",
		PhaseReveal:  "the ranking is being revealed",
		PhaseResults: "the round is over; say you are ready for the next one",
	}[g.phase]
	return fmt.Errorf("%w: you cannot %s: %s", ErrWrongPhase, what, now)
}

// Tick moves the ranking deadline, the reveal beat and the results pause forward.
func (g *Game) Tick(now time.Time) bool {
	if !rules.Passed(g.due(), now) {
		return false
	}
	switch g.phase {
	case PhaseRanking:
		g.timeUp(now)
	case PhaseReveal:
		if g.step < Hand {
			g.step++
			g.logStep()
			g.deadline = now.Add(g.beat)
		} else {
			g.finishRound(now)
		}
	case PhaseResults:
		g.startRound(now)
	default:
		return false
	}
	return true
}

// due is when the current phase next moves on by itself: the ranking when no seat that
// has still to rank has time left (each its own, see rules.Pace), else the deadline.
func (g *Game) due() time.Time {
	if g.phase == PhaseRanking {
		return g.Until(g.clock, len(g.names), g.unranked)
	}
	return g.deadline
}

// unranked reports that seat has not ranked this round.
func (g *Game) unranked(seat int) bool { return g.secret[seat] == nil }

// timeUp applies the time-limit rule: late Guessers score 0; a late Player of Honour
// (in duo: either player) forfeits the round.
func (g *Game) timeUp(now time.Time) {
	late := g.missing()
	for _, s := range late {
		g.logf(-1, "%s ran out of time.", g.names[s])
	}
	if g.duo || g.secret[g.honour] == nil {
		g.tally = &Tally{Forfeit: true, Lines: g.emptyLines()}
		g.logf(-1, "Round %d is forfeited: no one scores.", g.round)
		g.endRound(now)
		return
	}
	g.startReveal(now)
}

// startReveal fixes the reveal order and shows its first step at once.
func (g *Game) startReveal(now time.Time) {
	g.phase = PhaseReveal
	if g.duo {
		for i := range g.order {
			g.order[i] = i
		}
	} else {
		for i, r := range g.secret[g.honour].ranks {
			g.order[Hand-r] = i
		}
	}
	g.step = 1
	g.logStep()
	g.deadline = now.Add(g.beat)
}

// finishRound scores the round once every step is shown.
func (g *Game) finishRound(now time.Time) {
	t := g.score()
	g.tally = &t
	for _, l := range t.Lines {
		g.totals[l.Seat] += l.Points
	}
	if g.duo {
		// A public line: spectators read it too.
		g.logf(-1, "Round %d: %s and %s matched %d of %d.", g.round, g.names[0], g.names[1], t.Joint, Hand)
	} else {
		var parts []string
		for _, l := range t.Lines {
			parts = append(parts, fmt.Sprintf("%s %d", g.names[l.Seat], l.Points))
		}
		g.logf(-1, "Round %d: %s.", g.round, strings.Join(parts, ", "))
	}
	g.endRound(now)
}

// endRound shows the round's scores, or ends the game after the last round.
func (g *Game) endRound(now time.Time) {
	g.addSheetRow()
	if g.round >= g.rounds {
		g.phase = PhaseOver
		g.deadline = time.Time{}
		// No log line with the result: the lobby announces it in the table's feed
		// ("Game over: …"), so a line here would say it twice.
		return
	}
	g.phase = PhaseResults
	g.deadline = now.Add(ResultsPause)
}

// isGuesser reports whether seat guesses this round (and so must place a marker).
func (g *Game) isGuesser(seat int) bool { return !g.duo && seat != g.honour }

// missing lists the seats whose ranking is not in yet.
func (g *Game) missing() []int {
	var out []int
	for s, r := range g.secret {
		if r == nil {
			out = append(out, s)
		}
	}
	return out
}

// describe says a ranking in words, for its owner's log.
func (g *Game) describe(r ranking) string {
	var parts []string
	for rank := 1; rank <= Hand; rank++ {
		for i, x := range r.ranks {
			if x == rank {
				p := fmt.Sprintf("%d %s", rank, g.topics[i])
				if r.marker == i {
					p += " (marker)"
				}
				parts = append(parts, p)
			}
		}
	}
	return strings.Join(parts, ", ")
}

// logStep logs the topic a reveal step has just shown.
func (g *Game) logStep() {
	t := g.topics[g.order[g.step-1]]
	if g.duo {
		a, b := g.secret[0].ranks[g.order[g.step-1]], g.secret[1].ranks[g.order[g.step-1]]
		g.logf(-1, "%s: %d and %d.", t, a, b)
		return
	}
	g.logf(-1, "%s's rank %d: %s.", g.names[g.honour], Hand+1-g.step, t)
}

func (g *Game) logf(seat int, format string, args ...any) {
	text := g.standIn.Own(seat, fmt.Sprintf(format, args...))
	g.log = append(g.log, entry{seat: seat, text: text})
	if len(g.log) > 200 {
		g.log = append(g.log[:0:0], g.log[len(g.log)-200:]...)
	}
}

// Outcome reports the final scores and the winners once the game is over.
func (g *Game) Outcome() (rules.Result, bool) {
	if g.phase != PhaseOver {
		return rules.Result{}, false
	}
	return g.result(), true
}
