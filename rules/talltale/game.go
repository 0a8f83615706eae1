package talltale

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"parlor/rules"
)

// Phases of a round.
const (
	PhaseDiscard = "discard" // the narrator has drawn 4 and throws one away
	PhaseStory   = "story"   // the narrator writes the story
	PhaseRace    = "race"    // the others place their tokens
	PhaseReveal  = "reveal"  // the narrator's illustrations and the scores are shown
	PhaseOver    = "over"    // the game has ended
)

// Discard throws away one of the narrator's 4 drawn illustrations; the other 3 are kept.
type Discard struct {
	Type string `json:"type"` // "discard"
	Card int    `json:"card"` // id of one of the drawn illustrations
}

// Story sends the narrator's story ("The end of the story!"). In warning mode a story
// with a forbidden word is refused with an error naming the word unless Confirm is set.
type Story struct {
	Type    string `json:"type"` // "story"
	Text    string `json:"text"`
	Confirm bool   `json:"confirm,omitempty"` // send even though it holds a forbidden word
}

// Token places one of a guesser's tokens on an illustration of a board in play.
type Token struct {
	Type string `json:"type"` // "token"
	Card int    `json:"card"` // illustration id
}

// Placed is a token on an illustration, in arrival order.
type Placed struct {
	Seat int `json:"seat"`
	Card int `json:"card"`
}

type logLine struct {
	to     int // -1 for everyone, else the one seat that may read it
	text   string
	others bool // everyone but seat to reads it (who has a line of their own)
}

// Game is one game of Tall Tale.
type Game struct {
	names  []string
	deck   []Illustration
	rng    *rand.Rand
	strict bool
	limit  time.Duration
	race   time.Duration // the race time limit; 0 if off
	scores []int
	sheet  rules.Sheet
	log    []logLine

	round, rounds int // round counts tie-breaks too; rounds is the regular number
	first         int
	phase         string
	narrator      int
	racers        []int // the seats racing this round
	tieBreak      bool
	tied          []int // the players tied for first when this tie-break began

	drawn     []int
	discarded int
	kept      []int
	story     string
	forbidden []string // the forbidden forms the story used, as it wrote them
	tokens    []Placed
	deadline  time.Time   // the reveal's end; the narrator's and the race's are clock's
	clock     rules.Timer // the narrator's or the race's time; each seat's own deadline is its Pace's
	reminded  bool
	reveal    *Reveal

	over     bool
	winners  []int
	summary  string
	standIn  rules.StandInFlag // the action being applied is a bot's for the seat's absent player (ApplyStandIn)
	storyBot bool              // the story was a bot's, for the narrator's absent player (ApplyStandIn)
	rules.Pace
}

// New starts a game: it parses the illustrations, checks the player count and options,
// picks the first narrator at random and deals the first round.
func New(s rules.Setup) (*Game, error) {
	n := len(s.Names)
	if n < 3 || n > 6 {
		return nil, fmt.Errorf("talltale: Tall Tale needs 3 to 6 players, not %d", n)
	}
	deck, err := readBoards(s.Content)
	if err != nil {
		return nil, err
	}
	mode := s.Options[OptMode]
	if mode != "" && mode != ModeWarn && mode != ModeStrict {
		return nil, fmt.Errorf("talltale: forbidden-word mode must be %q or %q, not %q", ModeWarn, ModeStrict, mode)
	}
	g := &Game{
		names:  slices.Clone(s.Names),
		deck:   deck,
		rng:    rand.New(rand.NewPCG(s.Seed, s.Seed^0x7a11_7a1e)),
		strict: mode == ModeStrict,
		limit:  rules.OptionDuration(s.Options[OptTimer]),
		race:   rules.OptionDuration(s.Options[OptRaceTime]),
		scores: make([]int, n),
		sheet:  rules.NewSheet(n, 0),
		rounds: Narrations(n) * n,
	}
	g.first = g.rng.IntN(n)
	g.startRound(s.Now, g.first, g.othersThan(g.first))
	return g, nil
}

// Narrations is how many times each player narrates: twice with 3–4 players, once with 5–6.
func Narrations(players int) int {
	if players <= 4 {
		return 2
	}
	return 1
}

func (g *Game) othersThan(seat int) []int {
	var out []int
	for s := range g.names {
		if s != seat {
			out = append(out, s)
		}
	}
	return out
}

func (g *Game) addLog(to int, format string, args ...any) {
	text := g.standIn.Own(to, fmt.Sprintf(format, args...))
	g.keepLog(logLine{to: to, text: text})
}

// keepLog adds a line to the log, which keeps its last lines only.
func (g *Game) keepLog(l logLine) {
	g.log = append(g.log, l)
	if len(g.log) > 80 {
		g.log = slices.Clone(g.log[len(g.log)-60:])
	}
}

// startRound shuffles all illustrations and has the narrator draw 4.
func (g *Game) startRound(now time.Time, narrator int, racers []int) {
	g.round++
	g.narrator = narrator
	g.racers = racers
	perm := g.rng.Perm(len(g.deck))
	g.drawn = slices.Clone(perm[:Drawn])
	g.discarded = -1
	g.kept = nil
	g.story, g.storyBot = "", false
	g.forbidden = nil
	g.tokens = nil
	g.reminded = false
	g.reveal = nil
	g.phase = PhaseDiscard
	g.deadline = time.Time{}
	g.clock = rules.NewTimer(now, g.limit)
	if g.tieBreak {
		g.addLog(-1, "Tie-break: %s narrates, %s race.", g.names[narrator], g.nameList(racers))
	} else {
		g.addLog(-1, "Round %d: %s is the narrator.", g.round, g.names[narrator])
	}
}

// ApplyStandIn implements rules.StandIns: the seat's own log lines speak of the bot.
func (g *Game) ApplyStandIn(seat int, raw json.RawMessage, now time.Time) error {
	return g.standIn.During(func() error { return g.Apply(seat, raw, now) })
}

// Apply performs one action of seat, after the deadlines up to now (a story after the
// narrator's time meets the round it ended); on error nothing else changes.
func (g *Game) Apply(seat int, raw json.RawMessage, now time.Time) error {
	typ, err := rules.Preamble(g, seat, len(g.names), raw, now)
	if err != nil {
		return err
	}
	switch typ {
	case "discard":
		var a Discard
		if err := rules.Decode(raw, &a); err != nil {
			return fmt.Errorf("talltale: %w", err)
		}
		return g.discard(seat, a)
	case "story":
		var a Story
		if err := rules.Decode(raw, &a); err != nil {
			return fmt.Errorf("talltale: %w", err)
		}
		return g.tell(seat, a, now)
	case "token":
		var a Token
		if err := rules.Decode(raw, &a); err != nil {
			return fmt.Errorf("talltale: %w", err)
		}
		return g.place(seat, a, now)
	}
	return rules.UnknownAction(typ, "discard", "story", "token")
}

func (g *Game) narratorOnly(seat int, phase, doing string) error {
	if seat != g.narrator {
		return fmt.Errorf("%w: %s is the narrator", ErrNotNarrator, g.names[g.narrator])
	}
	if g.phase != phase {
		return fmt.Errorf("%w: you cannot %s %s", ErrWrongPhase, doing, g.phaseWords())
	}
	return nil
}

func (g *Game) discard(seat int, a Discard) error {
	if err := g.narratorOnly(seat, PhaseDiscard, "discard"); err != nil {
		return err
	}
	if !slices.Contains(g.drawn, a.Card) {
		return fmt.Errorf("%w: choose one of %s", ErrNotDrawn, g.cardList(g.drawn))
	}
	g.discarded = a.Card
	for _, c := range g.drawn {
		if c != a.Card {
			g.kept = append(g.kept, c)
		}
	}
	g.phase = PhaseStory
	g.addLog(seat, "You discarded %s and kept %s.", g.deck[a.Card].Name, g.cardList(g.kept))
	g.addLog(-1, "%s kept 3 illustrations: the %s in play.", g.names[seat], boardWords(g.boardsInPlay()))
	return nil
}

func (g *Game) tell(seat int, a Story, now time.Time) error {
	if err := g.narratorOnly(seat, PhaseStory, "tell the story"); err != nil {
		return err
	}
	// The lobby has already removed escape sequences and control characters, as from
	// every text a player sends; a story is one line with single spaces.
	text := strings.Join(strings.Fields(a.Text), " ")
	if text == "" {
		return ErrEmptyStory
	}
	if n := StoryWidth(text); n > MaxStory {
		return fmt.Errorf("%w: %d columns wide, at most %d (a wide character such as 你 counts two)", ErrStoryTooLong, n, MaxStory)
	}
	if n := Sentences(text); n > 2 {
		return fmt.Errorf("%w; yours has %d", ErrTooManySentence, n)
	}
	uses := ForbiddenIn(text, g.keptIllustrations())
	if len(uses) > 0 && !g.strict && !a.Confirm {
		return fmt.Errorf("%w: your story says %s; sending it costs %s — send again to confirm", ErrForbiddenWord, ForbiddenList(uses, len(uses)), PenaltyWords(uses))
	}
	g.story, g.storyBot = text, g.standIn.On()
	g.forbidden = nil
	for _, u := range uses {
		g.forbidden = append(g.forbidden, u.Word)
	}
	g.phase = PhaseRace
	g.deadline = time.Time{}
	g.clock = rules.NewTimer(now, g.race)
	teller := g.names[seat]
	if g.standIn.On() {
		teller = "A bot for " + teller
	}
	g.addLog(-1, "%s: \"The end of the story!\" Race!", teller)
	return nil
}

// keptIllustrations are the narrator's kept illustrations themselves.
func (g *Game) keptIllustrations() []Illustration {
	kept := make([]Illustration, 0, len(g.kept))
	for _, c := range g.kept {
		kept = append(kept, g.deck[c])
	}
	return kept
}

func (g *Game) place(seat int, a Token, now time.Time) error {
	if seat == g.narrator && g.phase == PhaseRace {
		return ErrNarratorRaces
	}
	if g.phase != PhaseRace {
		return fmt.Errorf("%w: you cannot place a token %s", ErrWrongPhase, g.phaseWords())
	}
	if !slices.Contains(g.racers, seat) {
		return fmt.Errorf("%w: only %s race in this tie-break", ErrNotRacing, g.nameList(g.racers))
	}
	if a.Card < 0 || a.Card >= len(g.deck) {
		return fmt.Errorf("%w: %d (ids run from 0 to %d)", ErrNoSuchCard, a.Card, len(g.deck)-1)
	}
	ill := g.deck[a.Card]
	if !slices.Contains(g.boardsInPlay(), ill.Colour) {
		return fmt.Errorf("%w: %s is on the %s board, which is set aside", ErrNotInPlay, ill.Name, ill.Colour)
	}
	mine := g.tokensOf(seat)
	if len(mine) >= Tokens {
		return ErrNoTokensLeft
	}
	if slices.Contains(mine, a.Card) {
		return fmt.Errorf("%w: on %s", ErrAlreadyHere, ill.Name)
	}
	if rules.Passed(g.Due(g.clock, seat), now) {
		return fmt.Errorf("%w: the others who were given more time are still racing", rules.ErrTimeUp)
	}
	g.tokens = append(g.tokens, Placed{Seat: seat, Card: a.Card})
	g.addLog(seat, "You put a token on %s (%d of %d).", ill.Name, len(mine)+1, Tokens)
	g.keepLog(logLine{to: seat, others: true, text: fmt.Sprintf("%s placed token %d of %d.", g.names[seat], len(mine)+1, Tokens)})
	for _, r := range g.racers {
		if len(g.tokensOf(r)) < Tokens {
			if rules.Passed(g.due(), now) { // only racers whose time is up have tokens left
				g.Tick(now)
			}
			return nil
		}
	}
	g.endRound(now, false)
	return nil
}

// due is when the current phase next moves on by itself: the narrator's turn when
// their own time is up (and again ReminderTime after the reminder), the race when no
// racer with tokens left has time left (each their own, see rules.Pace), the reveal at
// its deadline.
func (g *Game) due() time.Time {
	switch g.phase {
	case PhaseDiscard, PhaseStory:
		at := g.Due(g.clock, g.narrator)
		if g.reminded && !at.IsZero() {
			at = at.Add(ReminderTime)
		}
		return at
	case PhaseRace:
		return g.Until(g.clock, len(g.names), g.inRace)
	}
	return g.deadline
}

// inRace reports that seat races this round and has tokens left to place.
func (g *Game) inRace(seat int) bool {
	if g.phase != PhaseRace || !slices.Contains(g.racers, seat) {
		return false
	}
	placed := 0
	for _, t := range g.tokens {
		if t.Seat == seat {
			placed++
		}
	}
	return placed < Tokens
}

func (g *Game) tokensOf(seat int) []int {
	var out []int
	for _, t := range g.tokens {
		if t.Seat == seat {
			out = append(out, t.Card)
		}
	}
	return out
}

// boardsInPlay lists the colours of the kept illustrations, in board order; none before
// the narrator has discarded.
func (g *Game) boardsInPlay() []string {
	var out []string
	for _, col := range Colours {
		for _, c := range g.kept {
			if g.deck[c].Colour == col {
				out = append(out, col)
				break
			}
		}
	}
	return out
}

// Tick runs the narrator's and the race's time limits and the pace of the reveal.
func (g *Game) Tick(now time.Time) bool {
	changed := false
	for !g.over {
		at := g.due()
		if !rules.Passed(at, now) {
			break
		}
		changed = true
		switch g.phase {
		case PhaseDiscard, PhaseStory:
			if !g.reminded {
				g.reminded = true
				g.addLog(-1, "%s, only %d seconds left to tell the story!", g.names[g.narrator], int(ReminderTime/time.Second))
				continue
			}
			g.endRound(at, true)
		case PhaseRace:
			g.addLog(-1, "Time is up for the race: tokens not placed score nothing.")
			g.endRound(at, false)
		case PhaseReveal:
			g.next(at)
		default:
			g.deadline = time.Time{}
		}
	}
	return changed
}

// Outcome reports the final scores and the winners once the game is over.
func (g *Game) Outcome() (rules.Result, bool) {
	if !g.over {
		return rules.Result{}, false
	}
	return rules.Result{Scores: slices.Clone(g.scores), Winners: slices.Clone(g.winners), Summary: g.summary}, true
}
