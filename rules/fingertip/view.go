package fingertip

import (
	"fmt"
	"maps"
	"time"

	"parlor/rules"
)

// View is what one seat sees. Only the active player's view holds the target before
// the turn ends; during the reveal everyone sees it.
type View struct {
	rules.Header
	Players   []Player      `json:"players"`
	Active    int           `json:"active"`              // seat giving the clue this turn
	Clue      string        `json:"clue,omitempty"`      // the clue, once given
	Square    []Card        `json:"square"`              // the nine places, positions 1-9 row by row
	Target    int           `json:"target,omitempty"`    // 1-9: the active player's own view, and everyone's during the reveal
	InRace    bool          `json:"in_race"`             // the viewer may point now
	Pile      int           `json:"pile"`                // cards left in the draw pile
	Discarded int           `json:"discarded"`           // cards discarded so far
	LastTurn  *TurnResult   `json:"last_turn,omitempty"` // the last finished turn
	Result    *rules.Result `json:"result,omitempty"`    // set when the game is over
}

// Player is one seat as everyone sees it.
type Player struct {
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Cards  int    `json:"cards"`  // cards held: the score
	Active bool   `json:"active"` // giving the clue this turn
	Racing bool   `json:"racing"` // still in the race (race phase only)
	Out    bool   `json:"out"`    // pointed wrongly or ran out of time this turn
}

// Card is one place of the square.
type Card struct {
	Position int               `json:"position"`       // 1-9
	Empty    bool              `json:"empty"`          // no card here (never in play; only after the game ends)
	Card     int               `json:"card"`           // card id 0-70
	Picture  int               `json:"picture"`        // picture id 0-141 (card*2 + side)
	Alt      string            `json:"alt"`            // plain description of the picture
	Art      []string          `json:"art"`            // the picture, at most 22×7
	Base     string            `json:"base"`           // default ink "#RRGGBB"
	Inks     map[string]string `json:"inks,omitempty"` // ink per art character
	Finger   int               `json:"finger"`         // seat whose finger is on it, -1 for none
	Answer   string            `json:"answer,omitempty"`
	Target   bool              `json:"target,omitempty"` // this is the target (same visibility as View.Target)
	Leaves   string            `json:"leaves,omitempty"` // reveal only: "taken" or "discarded"
	TakenBy  int               `json:"taken_by"`         // reveal only: seat taking it, else -1
}

// View returns what seat may see; rules.Spectator gets the public view.
func (g *Game) View(seat int) rules.View {
	if seat < rules.Spectator || seat >= len(g.names) {
		seat = rules.Spectator
	}
	knows := g.phase == PhaseReveal || (seat == g.active && (g.phase == PhaseClue || g.phase == PhaseRace))
	v := View{
		Header: rules.Header{
			Game: ID, Seat: seat, Round: g.turn, Phase: g.phase,
			Prompt: g.prompt(seat), Waiting: g.waiting(), Deadline: g.shown(seat),
			Scores: g.scores(), Log: g.log.Tail(8), Over: g.phase == PhaseOver,
			Sheet: g.sheet.Clone(),
		},
		Active:    g.active,
		Clue:      g.clue,
		Pile:      len(g.pile),
		Discarded: len(g.discarded),
		Square:    make([]Card, 9),
	}
	if v.Log == nil {
		v.Log = []string{}
	}
	racing := map[int]bool{}
	for _, s := range g.racing() {
		racing[s] = true
	}
	v.InRace = racing[seat]
	for s, name := range g.names {
		v.Players = append(v.Players, Player{Seat: s, Name: name, Cards: len(g.held[s]),
			Active: s == g.active && g.phase != PhaseOver, Racing: racing[s],
			Out: g.out[s] && g.phase != PhaseOver})
	}
	for i, s := range g.square {
		c := Card{Position: i + 1, Finger: s.finger, Answer: s.answer, TakenBy: -1, Card: -1, Picture: -1}
		id := s.card
		if id < 0 {
			id = s.left
		}
		if id < 0 {
			c.Empty = true
		} else {
			p := g.pics[2*id+s.side]
			c.Card, c.Picture, c.Alt, c.Base = id, 2*id+s.side, p.Alt, p.Base
			c.Art = append([]string(nil), p.Art...)
			if len(p.Inks) > 0 {
				c.Inks = maps.Clone(p.Inks)
			}
		}
		if s.left >= 0 {
			c.Leaves, c.TakenBy = "taken", s.takenBy
			if s.takenBy < 0 {
				c.Leaves = "discarded"
			}
		}
		if knows && i == g.target {
			c.Target = true
			v.Target = i + 1
		}
		v.Square[i] = c
	}
	if g.last != nil {
		r := *g.last
		r.Wrong = append([]int{}, r.Wrong...)
		r.Taken = append([]int{}, r.Taken...)
		v.LastTurn = &r
	}
	if res, over := g.Outcome(); over {
		v.Result = &res
	}
	return v
}

func (g *Game) waiting() []int {
	switch g.phase {
	case PhaseClue:
		return []int{g.active}
	case PhaseRace:
		return g.racing()
	}
	return []int{}
}

// prompt says in plain words what seat may do now.
func (g *Game) prompt(seat int) string {
	act := g.names[g.active]
	switch g.phase {
	case PhaseOver:
		res, _ := g.Outcome()
		return "Game over, the square cannot be refilled: " + res.Summary + "."
	case PhaseReveal:
		return "Turn over: " + g.last.Summary
	case PhaseClue:
		if seat == g.active {
			return fmt.Sprintf("Your target is card %d: give a clue (at most %d characters).", g.target+1, ClueMax)
		}
		// "Waiting for" in the words: the session adds no "Waiting for …" of its own then,
		// which would name the active player a second time.
		return fmt.Sprintf("Waiting for %s, who is thinking of a clue for a secret card.", act)
	}
	switch {
	case seat == g.active:
		return "The others are racing to find your card."
	case seat < 0:
		// Who is racing: the session adds "Waiting for …" with their names.
		return "The race is on."
	case g.out[seat]:
		return "No! You are out this turn: wait for the others."
	}
	return "Point at the card that matches the clue."
}

// History implements rules.Historian: Fingertip's log is public.
func (g *Game) History(int) []string { return g.log.Tail(len(g.log)) }

// shown is the deadline seat's view shows: its own in the race while it is in it, else
// when the phase moves on.
func (g *Game) shown(seat int) time.Time {
	if g.phase == PhaseRace {
		return g.Shown(g.clock, seat, len(g.names), g.inRace)
	}
	return g.due()
}
