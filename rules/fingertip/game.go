package fingertip

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"parlor/rules"
)

// Phases of a turn, as they appear in Header.Phase.
const (
	PhaseClue   = "clue"   // the active player is writing the clue
	PhaseRace   = "race"   // the others race to point at the target
	PhaseReveal = "reveal" // the target is shown with who took what, for RevealTime
	PhaseOver   = "over"   // the square could not be refilled: the game has ended
)

// Action types.
const (
	TypeClue  = "clue"
	TypePoint = "point"
)

// Clue is the active player's clue; sending it opens the race.
type Clue struct {
	Type string `json:"type"` // "clue"
	Text string `json:"text"` // a word or a sentence, at most 80 characters
}

// Point is a guesser's finger on a card of the square; it is final.
type Point struct {
	Type     string `json:"type"`     // "point"
	Position int    `json:"position"` // 1-9, row by row from the top left
}

// slot is one place of the 3×3 square.
type slot struct {
	card   int // card id, -1 when empty
	side   int // 0 or 1: which picture faces up
	finger int // seat whose finger is on it this turn, -1 for none
	answer string
	// During the reveal a card that left the square is still shown, with who took it.
	left    int // card id that left this turn, -1 for none
	takenBy int // seat that took it, -1 for the discard
}

// Game is one game of Fingertip.
type Game struct {
	names    []string
	standIn  rules.StandInFlag // the action being applied is a bot's for an absent player (ApplyStandIn)
	pics     []Picture
	rng      *rand.Rand
	clueTime time.Duration
	raceTime time.Duration

	pile      []int   // draw pile of card ids; index 0 is the top
	square    [9]slot // positions 1-9 are indexes 0-8
	held      [][]int // cards each seat has taken, in the order taken
	discarded []int
	total     int // cards in play: pile + square + held + discarded never changes

	turn     int
	sheet    rules.Sheet
	active   int
	target   int // index 0-8 of the target in the square
	clue     string
	phase    string
	deadline time.Time   // the reveal's end; the clue's and the race's are clock's
	clock    rules.Timer // the clue or race time; each seat's own deadline is its Pace's
	out      []bool      // guessers who pointed wrongly (or ran out of time) this turn
	last     *TurnResult
	log      rules.Log
	rules.Pace
}

// New starts a game: it parses the pictures, removes cards for the player count, deals
// the square and picks the first active player, all from the seed.
func New(s rules.Setup) (*Game, error) {
	n := len(s.Names)
	if n < MinPlayers || n > MaxPlayers {
		return nil, fmt.Errorf("fingertip: needs 3 to 6 players, not %d", n)
	}
	pics, own, err := rules.ReadDeck(s.Content, ContentFile, ParsePictures, func(p Picture) string { return rules.Fold(p.Alt) })
	if err != nil {
		return nil, err
	}
	pics = pics[:len(pics)/2*2] // card k is pictures 2k and 2k+1
	if have, need := len(pics)/2, PileSize(n); have < need {
		return nil, fmt.Errorf("%w: %w", ErrContent, rules.SmallDeck("%d pictures make %d cards, and %d players need %d cards (%d pictures)", len(pics), have, n, need, 2*need))
	}
	g := &Game{
		names:    append([]string(nil), s.Names...),
		pics:     pics,
		rng:      rand.New(rand.NewPCG(s.Seed, s.Seed^0x9E3779B97F4A7C15)),
		clueTime: option(s.Options, OptClueTime, DefaultClueTime),
		raceTime: option(s.Options, OptRaceTime, DefaultRaceTime),
		held:     make([][]int, n),
		out:      make([]bool, n),
		sheet:    rules.NewSheet(n, 0),
	}
	g.sheet.Word = "turn" // a row is a turn (Spec.RoundWord)
	g.total = PileSize(n)
	if own/2 < len(pics)/2 {
		// A mixed pack's cards come first, the built-in ones fill the pile.
		cards := make([]int, len(pics)/2)
		for i := range cards {
			cards[i] = i
		}
		rules.Shuffle(g.rng, cards, own/2)
		g.pile = cards[:g.total]
	} else {
		g.pile = g.rng.Perm(len(pics) / 2)[:g.total]
	}
	for i := range g.square {
		g.square[i] = slot{card: -1, left: -1, finger: -1, takenBy: -1}
	}
	g.refill()
	g.active = g.rng.IntN(n)
	g.startTurn(s.Now)
	return g, nil
}

// option reads a timer option, falling back to its default when absent.
func option(o rules.Options, key, def string) time.Duration {
	if v, ok := o[key]; ok {
		return rules.OptionDuration(v)
	}
	return rules.OptionDuration(def)
}

// Apply performs one action of seat, after the deadline if now has passed it: a clue
// after the clue time meets the next turn, a point after the race time the reveal. On
// error nothing else changes.
func (g *Game) Apply(seat int, raw json.RawMessage, now time.Time) error {
	typ, err := rules.Preamble(g, seat, len(g.names), raw, now)
	if err != nil {
		return err
	}
	switch typ {
	case TypeClue:
		var a Clue
		if err := rules.Decode(raw, &a); err != nil {
			return fmt.Errorf("fingertip: %w", err)
		}
		return g.giveClue(seat, a.Text, now)
	case TypePoint:
		var a Point
		if err := rules.Decode(raw, &a); err != nil {
			return fmt.Errorf("fingertip: %w", err)
		}
		return g.point(seat, a.Position, now)
	}
	return rules.UnknownAction(typ, TypeClue, TypePoint)
}

// expired reports that the current phase's deadline has passed (Tick will act on it).
func (g *Game) expired(now time.Time) bool {
	return rules.Passed(g.due(), now)
}

// due is when the current phase next moves on by itself: the clue when the active
// player's own time is up, the race when no guesser still in it has time left (each
// its own, see rules.Pace), the reveal at its deadline.
func (g *Game) due() time.Time {
	switch g.phase {
	case PhaseClue:
		return g.Due(g.clock, g.active)
	case PhaseRace:
		return g.Until(g.clock, len(g.names), g.inRace)
	}
	return g.deadline
}

// inRace reports that seat is a guesser still in the race.
func (g *Game) inRace(seat int) bool {
	return g.phase == PhaseRace && seat != g.active && !g.out[seat]
}

// giveClue opens the race.
func (g *Game) giveClue(seat int, text string, now time.Time) error {
	if err := g.notNow(PhaseClue); err != nil {
		return err
	}
	if seat != g.active {
		return fmt.Errorf("%w: %s is giving the clue", ErrNotYourTurn, g.names[g.active])
	}
	clue, err := CheckClue(text)
	if err != nil {
		return err
	}
	g.clue = clue
	g.phase = PhaseRace
	g.deadline = time.Time{}
	g.clock = rules.NewTimer(now, g.raceTime)
	if g.standIn.On() {
		g.log.Add("A bot for %s gives the clue: %q", g.names[seat], clue)
	} else {
		g.log.Add("%s's clue: %q", g.names[seat], clue)
	}
	return nil
}

// ApplyStandIn implements rules.StandIns: the log says a bot gave the clue or pointed
// for an absent player, whose own moves these are not.
func (g *Game) ApplyStandIn(seat int, raw json.RawMessage, now time.Time) error {
	return g.standIn.During(func() error { return g.Apply(seat, raw, now) })
}

// pointer is who points for seat, in the log: its player, or a bot for them.
func (g *Game) pointer(seat int) string {
	if g.standIn.On() {
		return "A bot for " + g.names[seat]
	}
	return g.names[seat]
}

// point puts seat's finger on the card at position (1-9).
func (g *Game) point(seat, position int, now time.Time) error {
	if err := g.notNow(PhaseRace); err != nil {
		return err
	}
	switch {
	case seat == g.active:
		return ErrActive
	case g.out[seat]:
		return fmt.Errorf("%w: your finger is already on a wrong card", ErrOut)
	case position < 1 || position > 9:
		return fmt.Errorf("%w: %d (the square has cards 1 to 9)", ErrNoCard, position)
	}
	s := &g.square[position-1]
	if s.finger >= 0 {
		return fmt.Errorf("%w: %s's finger is already on card %d", ErrTaken, g.names[s.finger], position)
	}
	if rules.Passed(g.Due(g.clock, seat), now) {
		return fmt.Errorf("%w: the others who were given more time are still racing", rules.ErrTimeUp)
	}
	s.finger = seat
	if position-1 == g.target {
		s.answer = "yes"
		g.log.Add("%s points at %d: yes!", g.pointer(seat), position)
		g.endTurn(seat, EndFound, now)
		return nil
	}
	s.answer = "no"
	g.out[seat] = true
	g.log.Add("%s points at %d: no", g.pointer(seat), position)
	switch {
	case len(g.racing()) == 0:
		g.endTurn(-1, EndAllWrong, now)
	case g.expired(now): // only guessers whose time is up are still in the race
		g.Tick(now)
	}
	return nil
}

// notNow explains why an action of phase want cannot be taken in the current phase.
func (g *Game) notNow(want string) error {
	if g.phase == want {
		return nil
	}
	switch g.phase {
	case PhaseClue:
		return fmt.Errorf("%w: waiting for %s's clue", ErrNotNow, g.names[g.active])
	case PhaseRace:
		return fmt.Errorf("%w: the clue is given, the race is on", ErrNotNow)
	}
	return fmt.Errorf("%w: the turn is over, the next one starts in a moment", ErrNotNow)
}

// racing lists the guessers still in the race, in seat order.
func (g *Game) racing() []int {
	var r []int
	if g.phase != PhaseRace {
		return r
	}
	for s := range g.names {
		if s != g.active && !g.out[s] {
			r = append(r, s)
		}
	}
	return r
}

// Tick acts on the deadline of the current phase.
func (g *Game) Tick(now time.Time) bool {
	if !g.expired(now) {
		return false
	}
	switch g.phase {
	case PhaseClue:
		g.log.Add("%s gave no clue in time: the turn passes", g.names[g.active])
		g.last = &TurnResult{Turn: g.turn, Active: g.active, Ending: EndNoClue, Finder: -1,
			Taken:   make([]int, len(g.names)),
			Summary: fmt.Sprintf("%s gave no clue in time; nobody scores.", g.names[g.active])}
		g.record(g.last)
		g.nextTurn(now)
	case PhaseRace:
		for _, s := range g.racing() {
			g.out[s] = true
		}
		g.log.Add("Time is up: nobody found the target")
		g.endTurn(-1, EndTimeUp, now)
	case PhaseReveal:
		g.finishReveal(now)
	default:
		return false
	}
	return true
}

// Outcome reports the scores and winners once the game is over.
func (g *Game) Outcome() (rules.Result, bool) {
	if g.phase != PhaseOver {
		return rules.Result{}, false
	}
	scores := g.scores()
	best := -1
	var winners []int
	for s, sc := range scores {
		switch {
		case sc > best:
			best, winners = sc, []int{s}
		case sc == best:
			winners = append(winners, s)
		}
	}
	return rules.Result{Scores: scores, Winners: winners, Summary: g.summary(winners, best)}, true
}

func (g *Game) scores() []int {
	out := make([]int, len(g.held))
	for s, h := range g.held {
		out[s] = len(h)
	}
	return out
}

func (g *Game) summary(winners []int, best int) string {
	unit := "cards"
	if best == 1 {
		unit = "card"
	}
	if len(winners) == 1 {
		return fmt.Sprintf("%s wins with %d %s", g.names[winners[0]], best, unit)
	}
	names := make([]string, len(winners))
	for i, w := range winners {
		names[i] = g.names[w]
	}
	return fmt.Sprintf("%s share the victory with %d %s each", rules.List(names), best, unit)
}
