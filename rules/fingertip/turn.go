package fingertip

import (
	"fmt"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"

	"parlor/rules"
)

// How a turn ended, in TurnResult.Ending.
const (
	EndFound    = "found"     // a guesser pointed at the target
	EndAllWrong = "all_wrong" // every guesser pointed at a wrong card
	EndTimeUp   = "time_up"   // the race timer ran out
	EndNoClue   = "no_clue"   // the clue timer ran out: the turn passed
)

// ClueMax is the longest clue, in terminal columns.
const ClueMax = 80

// TurnResult is the public account of the last finished turn.
type TurnResult struct {
	Turn      int    `json:"turn"`
	Active    int    `json:"active"`               // the clue-giver
	Clue      string `json:"clue,omitempty"`       // empty when no clue was given
	Target    int    `json:"target,omitempty"`     // position 1-9 of the target; 0 when no clue was given
	TargetAlt string `json:"target_alt,omitempty"` // the target picture's description
	Finder    int    `json:"finder"`               // seat that found the target, -1 for nobody
	Wrong     []int  `json:"wrong"`                // positions pointed at wrongly: taken by the active player if the target was found, else discarded
	Taken     []int  `json:"taken"`                // cards each seat gained this turn (negative: gave one back)
	Returned  bool   `json:"returned"`             // the active player gave a card back to the draw pile
	Ending    string `json:"ending"`               // found, all_wrong, time_up or no_clue
	Summary   string `json:"summary"`              // one plain sentence
}

// startTurn gives the active player a secret target and waits for the clue.
func (g *Game) startTurn(now time.Time) {
	g.turn++
	g.target = g.rng.IntN(9)
	g.clue = ""
	g.phase = PhaseClue
	for s := range g.out {
		g.out[s] = false
	}
	for i := range g.square {
		g.square[i].finger, g.square[i].answer = -1, ""
		g.square[i].left, g.square[i].takenBy = -1, -1
	}
	g.deadline = time.Time{}
	g.clock = rules.NewTimer(now, g.clueTime)
}

// endTurn scores the race. When the target was found, the finder takes it and the active
// player takes every wrongly pointed card. When nobody found it, no card is taken: the
// wrongly pointed cards are discarded with the target, and the active player gives the
// last card it took back to the bottom of the draw pile, if it holds any — so a clue that
// fits no picture costs a card instead of earning the wrong ones.
func (g *Game) endTurn(finder int, ending string, now time.Time) {
	r := &TurnResult{Turn: g.turn, Active: g.active, Clue: g.clue, Target: g.target + 1,
		TargetAlt: g.picture(g.square[g.target]).Alt, Finder: finder, Wrong: []int{}, Ending: ending}
	for i := range g.square {
		s := &g.square[i]
		if i != g.target && s.answer != "no" {
			continue
		}
		taker := finder
		if i != g.target {
			r.Wrong = append(r.Wrong, i+1)
			taker = g.active
		}
		s.left, s.card = s.card, -1
		if finder < 0 {
			g.discarded = append(g.discarded, s.left)
			continue
		}
		s.takenBy = taker
		g.held[taker] = append(g.held[taker], s.left)
	}
	// A race that ran out of time counts as everyone having pointed wrongly.
	if finder < 0 {
		if h := g.held[g.active]; len(h) > 0 {
			g.pile = append(g.pile, h[len(h)-1])
			g.held[g.active] = h[:len(h)-1]
			r.Returned = true
		}
	}
	r.Taken = Takes(len(g.names), g.active, finder, len(r.Wrong), r.Returned)
	r.Summary = g.turnSummary(r)
	g.log.Add("%s", r.Summary)
	g.last = r
	g.record(r)
	g.phase = PhaseReveal
	g.deadline = now.Add(RevealTime)
}

// Takes is what a finished race gives each of players seats: the finder takes the
// target and the active player the wrong cards; when nobody found it (finder < 0) they
// are discarded, and the active player gives one card back if it had one (returned).
func Takes(players, active, finder, wrong int, returned bool) []int {
	taken := make([]int, players)
	if finder >= 0 {
		taken[finder]++
		taken[active] += wrong
	} else if returned {
		taken[active]--
	}
	return taken
}

// turnSummary says in one or two sentences where every card pointed at went.
func (g *Game) turnSummary(r *TurnResult) string {
	var b strings.Builder
	act := g.names[r.Active]
	wrong := len(r.Wrong)
	switch {
	case r.Finder >= 0:
		fmt.Fprintf(&b, "%s found card %d.", g.names[r.Finder], r.Target)
		if wrong > 0 {
			fmt.Fprintf(&b, " %s takes %s.", act, rules.Count(wrong, "wrong card"))
		}
		return b.String()
	case wrong > 0:
		fmt.Fprintf(&b, "Nobody found card %d; it and %s are discarded.", r.Target, rules.Count(wrong, "wrong card"))
	default:
		fmt.Fprintf(&b, "Nobody found card %d; it is discarded.", r.Target)
	}
	if r.Returned {
		fmt.Fprintf(&b, " %s gives a card back.", act)
	} else {
		fmt.Fprintf(&b, " %s has no card to give back.", act)
	}
	return b.String()
}

// record adds the finished turn to the score sheet: the cards each seat gained, and who
// took what and why.
func (g *Game) record(r *TurnResult) {
	lines := []string{r.Summary}
	for seat, n := range r.Taken {
		switch {
		case seat == r.Finder:
			lines = append(lines, fmt.Sprintf("%s: +1 for finding the target.", g.names[seat]))
		case seat == r.Active && r.Returned:
			lines = append(lines, fmt.Sprintf("%s (clue-giver): 1 card given back = %+d.", g.names[seat], n))
		case seat == r.Active && n != 0:
			lines = append(lines, fmt.Sprintf("%s (clue-giver): %s taken = %+d.", g.names[seat], rules.Count(n, "wrong card"), n))
		}
	}
	g.sheet.Add(r.Turn, g.names[r.Active]+"'s clue", r.Taken, g.scores(), lines)
}

// finishReveal refills the square and starts the next turn, or ends the game when the
// square can no longer be filled to nine cards.
func (g *Game) finishReveal(now time.Time) {
	empty := 0
	for i := range g.square {
		g.square[i].left, g.square[i].takenBy = -1, -1
		if g.square[i].card < 0 {
			empty++
		}
	}
	if empty > len(g.pile) {
		g.phase = PhaseOver
		g.deadline = time.Time{}
		res, _ := g.Outcome()
		g.log.Add("Game over: the square cannot be refilled. %s.", res.Summary)
		return
	}
	g.refill()
	g.nextTurn(now)
}

// refill deals from the top of the pile into the empty places, in position order, each
// card with a side chosen by the seeded RNG.
func (g *Game) refill() {
	for i := range g.square {
		if g.square[i].card >= 0 || len(g.pile) == 0 {
			continue
		}
		g.square[i].card = g.pile[0]
		g.square[i].side = g.rng.IntN(2)
		g.pile = g.pile[1:]
	}
}

// nextTurn passes the turn to the next seat clockwise.
func (g *Game) nextTurn(now time.Time) {
	g.active = (g.active + 1) % len(g.names)
	g.startTurn(now)
}

func (g *Game) picture(s slot) Picture {
	c := s.card
	if c < 0 {
		c = s.left
	}
	if c < 0 {
		return Picture{}
	}
	return g.pics[2*c+s.side]
}

// CheckClue tidies a clue's spaces, composes its accents (NFC: a letter typed with a
// combining accent is one character, as it looks) and checks its length, in terminal
// columns (a wide character such as 你 takes two). The lobby has already removed escape
// sequences and control characters, as from every text a player sends.
func CheckClue(text string) (string, error) {
	text = norm.NFC.String(strings.Join(strings.Fields(text), " "))
	if text == "" {
		return "", ErrEmptyClue
	}
	if err := rules.CheckWidth(text, ClueMax); err != nil {
		return "", fmt.Errorf("%w: %v", ErrLongClue, err)
	}
	return text, nil
}
