package talltale

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"parlor/rules"
)

// Board is one colour's 25 illustrations in a 5×5 grid, row by row.
type Board struct {
	Colour        string         `json:"colour"`
	Illustrations []Illustration `json:"illustrations"`
}

// Hand is what only the narrator sees before the reveal.
type Hand struct {
	Drawn     []Illustration `json:"drawn"`     // the 4 drawn illustrations
	Discarded int            `json:"discarded"` // id of the discarded one; -1 until chosen
	Kept      []Illustration `json:"kept"`      // the 3 kept ones, once chosen
}

// View is what one seat may see of the game.
type View struct {
	rules.Header
	Names     []string `json:"names"`
	Narrator  int      `json:"narrator"`            // seat of this round's narrator
	Mode      string   `json:"mode"`                // "warning" or "strict"
	TimeLimit int      `json:"time_limit"`          // the narrator's time limit in seconds; 0 if off
	Reminded  bool     `json:"reminded"`            // the narrator is in the last 15 seconds
	TieBreak  bool     `json:"tie_break"`           // this round is a tie-break
	Tied      []int    `json:"tied"`                // players tied for first in this tie-break
	Racers    []int    `json:"racers"`              // seats placing tokens this round
	Boards    []Board  `json:"boards"`              // the boards in play (none before the discard)
	Story     string   `json:"story"`               // the story, once sent
	StoryBot  bool     `json:"story_bot,omitempty"` // a bot told it for the narrator, who is away or idle
	Placed    []int    `json:"placed"`              // tokens placed this round, per seat
	MyTokens  []int    `json:"my_tokens"`           // the viewer's own tokens (illustration ids) in order
	Hand      *Hand    `json:"hand,omitempty"`      // the narrator's own cards; only in the narrator's view
	Reveal    *Reveal  `json:"reveal,omitempty"`    // the round's result, from the reveal on
	Winners   []int    `json:"winners,omitempty"`   // once the game is over
	Outcome   string   `json:"outcome,omitzero"`    // the final summary line
}

func (ill Illustration) clone() Illustration {
	ill.Forbidden = slices.Clone(ill.Forbidden)
	return ill
}

// View returns a fresh copy of what seat may see; rules.Spectator gets the public view.
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
			Prompt:   g.prompt(seat),
			Waiting:  g.waiting(),
			Deadline: g.shown(seat),
			Scores:   slices.Clone(g.scores),
			Sheet:    g.sheet.Clone(),
			Log:      g.logFor(seat),
			Over:     g.over,
		},
		Names:     slices.Clone(g.names),
		Narrator:  g.narrator,
		Mode:      ModeWarn,
		TimeLimit: int(g.limit / time.Second),
		Reminded:  g.reminded,
		TieBreak:  g.tieBreak,
		Tied:      slices.Clone(g.tied),
		Racers:    slices.Clone(g.racers),
		Boards:    []Board{},
		Story:     g.story,
		StoryBot:  g.storyBot,
		Placed:    make([]int, len(g.names)),
		MyTokens:  []int{},
		Winners:   slices.Clone(g.winners),
		Outcome:   g.summary,
	}
	if g.strict {
		v.Mode = ModeStrict
	}
	if g.tieBreak {
		// Tie-breaks go beyond the planned rounds: "round 7 of 6" would read wrong.
		v.Header.Rounds = 0
	}
	if v.Tied == nil {
		v.Tied = []int{}
	}
	for _, col := range g.boardsInPlay() {
		v.Boards = append(v.Boards, g.board(col))
	}
	for _, t := range g.tokens {
		v.Placed[t.Seat]++
		if t.Seat == seat {
			v.MyTokens = append(v.MyTokens, t.Card)
		}
	}
	if seat == g.narrator && g.phase != PhaseOver {
		h := &Hand{Discarded: g.discarded, Drawn: []Illustration{}, Kept: []Illustration{}}
		for _, c := range g.drawn {
			h.Drawn = append(h.Drawn, g.deck[c].clone())
		}
		for _, c := range g.kept {
			h.Kept = append(h.Kept, g.deck[c].clone())
		}
		v.Hand = h
	}
	if g.reveal != nil {
		v.Reveal = g.reveal.clone()
	}
	return v
}

// board copies one colour's illustrations; the forbidden forms of all 25 share one fresh
// allocation, since views are built often and must not share memory with the game.
func (g *Game) board(col string) Board {
	ci := slices.Index(Colours, col)
	src := g.deck[ci*PerBoard : (ci+1)*PerBoard]
	n := 0
	for _, ill := range src {
		n += len(ill.Forbidden)
	}
	forms := make([]string, 0, n)
	b := Board{Colour: col, Illustrations: make([]Illustration, len(src))}
	for i, ill := range src {
		start := len(forms)
		forms = append(forms, ill.Forbidden...)
		ill.Forbidden = forms[start:len(forms):len(forms)]
		b.Illustrations[i] = ill
	}
	return b
}

func (r *Reveal) clone() *Reveal {
	c := *r
	c.Tokens = slices.Clone(r.Tokens)
	c.Points = slices.Clone(r.Points)
	c.FoundAll = slices.Clone(r.FoundAll)
	c.Kept = make([]Found, len(r.Kept))
	for i, f := range r.Kept {
		c.Kept[i] = Found{Card: f.Card.clone(), Hits: slices.Clone(f.Hits)}
	}
	if c.Tokens == nil {
		c.Tokens = []Placed{}
	}
	return &c
}

func (g *Game) waiting() []int {
	out := []int{}
	switch g.phase {
	case PhaseDiscard, PhaseStory:
		out = append(out, g.narrator)
	case PhaseRace:
		for _, s := range g.racers {
			if len(g.tokensOf(s)) < Tokens {
				out = append(out, s)
			}
		}
	}
	return out
}

// logFor is the last lines of the log seat may see, for its view.
func (g *Game) logFor(seat int) []string {
	return rules.Log(g.History(seat)).Tail(8)
}

// History implements rules.Historian: every line of the log seat may see.
func (g *Game) History(seat int) []string {
	var out []string
	for _, l := range g.log {
		if l.to == -1 || (l.others && l.to != seat) || (!l.others && seat >= 0 && l.to == seat) {
			out = append(out, l.text)
		}
	}
	return out
}

// prompt says what seat may do now, in plain words.
func (g *Game) prompt(seat int) string {
	narr := g.names[g.narrator]
	switch g.phase {
	case PhaseDiscard:
		if seat == g.narrator {
			return "You are the narrator: choose 1 of your 4 illustrations to discard."
		}
		return fmt.Sprintf("%s is choosing 3 illustrations for the story.", narr)
	case PhaseStory:
		if seat == g.narrator {
			return "Write one or two sentences about your 3 illustrations, without naming them."
		}
		return fmt.Sprintf("%s is writing the story. Study the boards in play!", narr)
	case PhaseRace:
		if slices.Contains(g.racers, seat) {
			if left := Tokens - len(g.tokensOf(seat)); left > 0 {
				return fmt.Sprintf("Race! Place your tokens on the story's illustrations: %d left.", left)
			}
			return "All your tokens are placed; waiting for the others."
		}
		return "The others are racing to place their tokens."
	case PhaseReveal:
		return "The narrator's illustrations are revealed."
	case PhaseOver:
		return fmt.Sprintf("Game over after %s: %s.", rules.Count(g.round, "round"), g.summary)
	}
	return ""
}

// phaseWords says what the game is doing now, for error messages.
func (g *Game) phaseWords() string {
	switch g.phase {
	case PhaseDiscard:
		return fmt.Sprintf("now: %s is choosing illustrations", g.names[g.narrator])
	case PhaseStory:
		return fmt.Sprintf("now: %s is writing the story", g.names[g.narrator])
	case PhaseRace:
		return "now: the race is on"
	case PhaseReveal:
		return "now: the round is being revealed"
	}
	return "now: the game is over"
}

func (g *Game) cardList(ids []int) string {
	names := make([]string, len(ids))
	for i, c := range ids {
		names[i] = g.deck[c].Name
	}
	return andList(names)
}

func (g *Game) nameList(seats []int) string {
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = g.names[s]
	}
	return andList(names)
}

func boardWords(cols []string) string {
	if len(cols) == 1 {
		return cols[0] + " board is"
	}
	return andList(cols) + " boards are"
}

func andList(items []string) string {
	switch len(items) {
	case 0:
		return "nobody"
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// shown is the deadline seat's view shows: its own in the race while it has tokens to
// place, else when the phase moves on.
func (g *Game) shown(seat int) time.Time {
	if g.phase == PhaseRace {
		return g.Shown(g.clock, seat, len(g.names), g.inRace)
	}
	return g.due()
}
