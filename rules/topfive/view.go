package topfive

import (
	"fmt"
	"time"

	"parlor/rules"
)

// View is what one seat (or a spectator) may see. Rankings and markers of other players
// appear only in Reveal, one row per step already shown.
type View struct {
	rules.Header
	Variant   string   `json:"variant"`           // VariantClassic or VariantDuo
	Names     []string `json:"names"`             // display name per seat
	Role      string   `json:"role"`              // the viewer's role this round: honour, guesser, duo or spectator
	Honour    int      `json:"honour"`            // seat of the Player of Honour; -1 in duo
	Topics    []string `json:"topics"`            // this round's five topics; rank actions refer to them by index
	Submitted []bool   `json:"submitted"`         // per seat: ranking is in (who, never what)
	Mine      *Mine    `json:"mine,omitempty"`    // the viewer's own submitted ranking
	Reveal    []Row    `json:"reveal"`            // reveal steps shown so far, in order (classic: rank 5 first)
	Tally     *Tally   `json:"tally,omitempty"`   // the round's scores once the reveal is done
	Ready     []bool   `json:"ready"`             // per seat, in the results phase: done looking
	Winners   []int    `json:"winners,omitempty"` // when over: seats sharing the victory
	Summary   string   `json:"summary,omitempty"` // when over: one line
}

// Mine is the viewer's own ranking, as submitted.
type Mine struct {
	Ranks  []int `json:"ranks"`            // Ranks[i] is the rank given to Topics[i]
	Marker *int  `json:"marker,omitempty"` // topic index with the viewer's marker
}

// Row is one reveal step: a topic and every player's rank for it.
type Row struct {
	Rank    int     `json:"rank"`            // classic: the Player of Honour's rank of this topic; duo: 0
	Topic   int     `json:"topic"`           // index into Topics
	Guesses []Guess `json:"guesses"`         // classic: one per Guesser; duo: both players
	Match   bool    `json:"match,omitempty"` // duo: both gave it the same rank
}

// Guess is one player's rank for a revealed topic.
type Guess struct {
	Seat   int  `json:"seat"`
	Rank   int  `json:"rank"`   // 0 if this player ran out of time
	Right  bool `json:"right"`  // classic: same rank as the Player of Honour
	Marker bool `json:"marker"` // classic: this player's marker is on this topic
	Points int  `json:"points"` // classic: points this topic earned (right + marker)
}

// View returns what seat may see now; rules.Spectator gets the public view.
func (g *Game) View(seat int) rules.View {
	if seat < rules.Spectator || seat >= len(g.names) {
		seat = rules.Spectator
	}
	v := View{
		Header: rules.Header{
			Game:     ID,
			Seat:     seat,
			Round:    g.round,
			Rounds:   g.rounds,
			Phase:    g.phase,
			Deadline: g.deadline,
			Scores:   append([]int(nil), g.totals...),
			Log:      g.logFor(seat, 8),
			Sheet:    g.sheet.Clone(),
			Over:     g.phase == PhaseOver,
			Waiting:  []int{},
		},
		Variant:   VariantClassic,
		Names:     append([]string(nil), g.names...),
		Role:      g.role(seat),
		Honour:    g.honour,
		Topics:    append([]string(nil), g.topics[:]...),
		Submitted: make([]bool, len(g.names)),
		Reveal:    []Row{},
		Ready:     append([]bool(nil), g.ready...),
	}
	if g.duo {
		v.Variant = VariantDuo
	}
	for s, r := range g.secret {
		v.Submitted[s] = r != nil
	}
	if seat >= 0 && g.secret[seat] != nil {
		r := g.secret[seat]
		v.Mine = &Mine{Ranks: append([]int(nil), r.ranks[:]...)}
		if r.marker >= 0 {
			m := r.marker
			v.Mine.Marker = &m
		}
	}
	switch g.phase {
	case PhaseRanking:
		v.Waiting = g.missing()
		if v.Waiting == nil {
			v.Waiting = []int{}
		}
	case PhaseResults:
		for s, r := range g.ready {
			if !r {
				v.Waiting = append(v.Waiting, s)
			}
		}
	}
	if g.phase == PhaseReveal || g.tally != nil {
		for k := 0; k < g.step; k++ {
			v.Reveal = append(v.Reveal, g.row(k))
		}
	}
	if g.phase == PhaseRanking {
		v.Deadline = g.Shown(g.clock, seat, len(g.names), g.unranked)
	}
	if g.phase == PhaseReveal {
		// The header deadline is the phase's; the beat is the engine's business.
		v.Deadline = g.deadline.Add(g.beat * time.Duration(Hand-g.step))
	}
	if g.tally != nil {
		t := *g.tally
		t.Lines = append([]Line(nil), g.tally.Lines...)
		v.Tally = &t
	}
	if g.phase == PhaseOver {
		res := g.result()
		v.Winners, v.Summary = res.Winners, res.Summary
	}
	v.Prompt = g.prompt(seat)
	return v
}

// row builds reveal step k from the secrets: only the topic that step shows.
func (g *Game) row(k int) Row {
	topic := g.order[k]
	if g.duo {
		a, b := g.secret[0].ranks[topic], g.secret[1].ranks[topic]
		return Row{Topic: topic, Match: a == b, Guesses: []Guess{
			{Seat: 0, Rank: a, Right: a == b}, {Seat: 1, Rank: b, Right: a == b},
		}}
	}
	want := g.secret[g.honour].ranks[topic]
	row := Row{Rank: want, Topic: topic, Guesses: []Guess{}}
	for s, r := range g.secret {
		if s == g.honour {
			continue
		}
		gs := Guess{Seat: s}
		if r != nil {
			gs.Rank = r.ranks[topic]
			gs.Right = gs.Rank == want
			gs.Marker = r.marker == topic
			if gs.Right {
				gs.Points = 1
				if gs.Marker {
					gs.Points = 2
				}
			}
		}
		row.Guesses = append(row.Guesses, gs)
	}
	return row
}

// History implements rules.Historian.
func (g *Game) History(seat int) []string { return g.logFor(seat, len(g.log)) }

// logFor is the last n log lines seat may read: the public ones and its own.
func (g *Game) logFor(seat, n int) []string {
	out := []string{}
	for i := len(g.log) - 1; i >= 0 && len(out) < n; i-- {
		if e := g.log[i]; e.seat == -1 || (seat >= 0 && e.seat == seat) {
			out = append(out, e.text)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// prompt says what seat may do now, in plain words.
func (g *Game) prompt(seat int) string {
	switch g.phase {
	case PhaseOver:
		return fmt.Sprintf("Game over after %s: %s.", rules.Count(g.rounds, "round"), g.result().Summary)
	case PhaseReveal:
		if g.duo {
			return "Revealing your rankings, one topic at a time…"
		}
		return fmt.Sprintf("Revealing %s's ranking, from rank 5 to rank 1…", g.names[g.honour])
	case PhaseResults:
		if seat >= 0 && !g.ready[seat] {
			return "Round scores are in; the next round starts soon, or once everyone is ready."
		}
		return "Round scores are in. The next round starts soon."
	}
	waiting := g.missing()
	if seat >= 0 && g.secret[seat] == nil {
		switch g.role(seat) {
		case RoleHonour:
			return "You are the Player of Honour: rank the topics by your taste, 1 = most liked."
		case RoleGuesser:
			return fmt.Sprintf("Guess %s's ranking (1 = most liked); mark your surest guess.", g.names[g.honour])
		case RoleDuo:
			return "Rank by your own taste (1 = most liked): a point per topic you both rank alike."
		}
	}
	var names []string
	for _, s := range waiting {
		names = append(names, g.names[s])
	}
	return "Waiting for " + rules.List(names) + " to rank."
}
