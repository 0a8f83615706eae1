package foresight

import (
	"fmt"
	"slices"

	"parlor/rules"
)

// View is what one seat may see: the question, who has submitted (not what), the seat's
// own submission, and the results of the last revealed round.
type View struct {
	rules.Header
	Names      []string `json:"names"`                 // display name per seat
	Target     int      `json:"target"`                // points that end the game (1200)
	RoundLimit int      `json:"round_limit,omitempty"` // last round, 0 for none
	Question   string   `json:"question"`              // the current question ("" once over)
	Choices    []string `json:"choices"`               // its answers; answer n is Choices[n-1]
	Submitted  []bool   `json:"submitted"`             // per seat: has submitted this round
	Ready      []bool   `json:"ready"`                 // per seat, in the reveal: wants the next question
	Mine       *Submit  `json:"mine,omitempty"`        // the viewer's own submission this round, once made
	Reveal     *Reveal  `json:"reveal,omitempty"`      // the last scored round, public
	Winners    []int    `json:"winners,omitempty"`     // once over: the seats sharing the victory
}

// View returns a fresh view for seat (rules.Spectator for the public view).
func (g *Game) View(seat int) rules.View {
	n := len(g.names)
	player := seat >= 0 && seat < n
	if !player {
		seat = rules.Spectator
	}
	v := View{
		Header: rules.Header{
			Game:     spec.ID,
			Seat:     seat,
			Round:    g.round,
			Rounds:   g.limit,
			Phase:    g.phase,
			Deadline: g.deadline,
			Scores:   slices.Clone(g.points),
			Sheet:    g.sheet.Clone(),
			Over:     g.phase == PhaseOver,
			Waiting:  []int{},
		},
		Names:      slices.Clone(g.names),
		Target:     TargetPoints,
		RoundLimit: g.limit,
		Submitted:  make([]bool, n),
		Ready:      make([]bool, n),
		Winners:    slices.Clone(g.winners),
	}
	switch {
	case g.phase == PhaseAnswering && player:
		v.Deadline = g.Due(g.clock, seat) // a submission can be changed until then
	case g.phase == PhaseAnswering:
		v.Deadline = g.due()
	}
	if g.phase != PhaseOver {
		v.Question = g.question.Text
		v.Choices = slices.Clone(g.question.Choices)
	}
	for p := range n {
		v.Submitted[p] = g.subs[p] != nil
		v.Ready[p] = g.ready[p]
		if (g.phase == PhaseAnswering && g.subs[p] == nil) || (g.phase == PhaseReveal && !g.ready[p]) {
			v.Waiting = append(v.Waiting, p)
		}
	}
	if player && g.subs[seat] != nil {
		v.Mine = g.subs[seat].clone()
	}
	if g.last != nil {
		v.Reveal = g.last.clone()
	}
	v.Prompt = g.prompt(seat, v.Waiting)
	v.Log = g.History(seat)
	if len(v.Log) > logLines {
		v.Log = v.Log[len(v.Log)-logLines:]
	}
	return v
}

// prompt says in plain words what the viewer may do now.
func (g *Game) prompt(seat int, waiting []int) string {
	names := make([]string, 0, len(waiting))
	for _, p := range waiting {
		if p != seat {
			names = append(names, g.names[p])
		}
	}
	others := joinAnd(names)
	switch {
	case g.phase == PhaseOver:
		return "Game over, " + g.why + ": " + g.summary() + "."
	case seat < 0 && g.phase == PhaseAnswering:
		return fmt.Sprintf("The players are answering; waiting for %s.", others)
	case seat < 0:
		return fmt.Sprintf("Round %d results.", g.round)
	case g.phase == PhaseAnswering && g.subs[seat] == nil:
		return "Pick your answer, predict every opponent, place your wagers, then submit."
	case g.phase == PhaseAnswering:
		return fmt.Sprintf("Submitted; you may still change it. Waiting for %s.", others)
	case !g.ready[seat]:
		return fmt.Sprintf("Round %d results: say when you are ready for the next question.", g.round)
	}
	return fmt.Sprintf("Waiting for %s to be ready for the next question.", others)
}

// clone copies a reveal, sharing no memory with the game.
func (r *Reveal) clone() *Reveal {
	c := *r
	c.Choices = slices.Clone(r.Choices)
	c.Players = slices.Clone(r.Players)
	for i := range c.Players {
		c.Players[i].Predictions = slices.Clone(r.Players[i].Predictions)
	}
	return &c
}

// History implements rules.Historian: every line of the log seat may see.
func (g *Game) History(seat int) []string {
	out := []string{}
	for _, e := range g.log {
		if e.seat == -1 || (seat >= 0 && seat < len(g.names) && e.seat == seat) {
			out = append(out, e.text)
		}
	}
	return out
}
