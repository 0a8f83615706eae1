// Package testgame is a tiny game for the platform's own tests ("pick"): every player
// secretly picks a number from 1 to 3; when all have picked, the picks are revealed and
// whoever picked a number nobody else picked scores a point. It exercises secrets,
// timers, bots and the end of a game without depending on any real game. Only tests
// import it.
package testgame

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlor/rules"
	"parlor/session/gameui"
)

// ID is the test game's id.
const ID = "pick"

// Secret is put into every pick's view for its owner only, so tests can look for leaks.
const Secret = "SECRET-PICK"

// Errors of its own; those every game shares are the rules package's.
var (
	ErrPicked = rules.Sentinel("pick.picked", "pick: you have already picked")
	ErrRange  = rules.Sentinel("pick.range", "pick: pick 1, 2 or 3")
)

// Fail is an action that fails with the sentinel error whose code it names, wrapped in
// more words when wrapped: the tests of every door send each sentinel through them.
func Fail(code string, wrapped bool) any { return fail{Type: "fail", Code: code, Wrapped: wrapped} }

type fail struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Wrapped bool   `json:"wrapped,omitempty"`
}

// failWith is the error a fail action asks for.
func failWith(raw json.RawMessage) error {
	var a fail
	if err := rules.Decode(raw, &a); err != nil {
		return err
	}
	for _, e := range rules.Sentinels() {
		if e.Code() == a.Code {
			if a.Wrapped {
				return fmt.Errorf("pick says: %w", e)
			}
			return e
		}
	}
	return fmt.Errorf("pick: no error has the code %q", a.Code)
}

func init() {
	rules.Register(&rules.Spec{
		ID: ID, Name: "Pick", MinPlayers: 2, MaxPlayers: 4,
		Summary:   "Pick a number nobody else picks.",
		HowToPlay: "Everyone secretly picks 1, 2 or 3. A number picked by one player only scores them a point.",
		Options: []rules.Option{
			{Key: "rounds", Name: "Rounds", Help: "how many rounds", Choices: []string{"1", "2", "3"}, Default: "2"},
			{Key: "timer", Name: "Time limit", Help: "per round", Choices: []string{"off", "1s", "30s"}, Default: "off"},
		},
		New:        New,
		DecodeView: rules.DecodeViewAs[View],
		NewBot:     func(b rules.BotSetup) rules.Bot { return &bot{rng: rand.New(rand.NewPCG(b.Seed, 1))} },
	})
	gameui.Register(ID, func(seat int) gameui.Screen { return &screen{} })
}

// Game is the state.
type Game struct {
	names   []string
	picks   []int // 0 = not yet
	rounds  int
	round   int
	scores  []int
	timer   time.Duration
	clock   rules.Timer // the round's time; each seat's own deadline is its Pace's
	last    []int       // the previous round's picks, revealed
	log     rules.Log
	said    []string // each seat's own line about its last pick
	standIn bool     // the action being applied is a stand-in's (ApplyStandIn)
	rules.Pace
}

// View is one seat's view.
type View struct {
	rules.Header
	Picked []bool `json:"picked"`
	Mine   int    `json:"mine,omitempty"`
	Note   string `json:"note,omitempty"` // Secret, for the owner of a pick only
	Last   []int  `json:"last,omitempty"`
	Said   string `json:"said,omitempty"` // the viewer's own line about their last pick
}

type pick struct {
	Type string `json:"type"`
	N    int    `json:"n"`
}

// Pick is the action to pick n.
func Pick(n int) any { return pick{Type: "pick", N: n} }

// New starts a game.
func New(s rules.Setup) (rules.Game, error) {
	r, _ := strconv.Atoi(s.Options["rounds"])
	g := &Game{names: s.Names, picks: make([]int, len(s.Names)), scores: make([]int, len(s.Names)), said: make([]string, len(s.Names)),
		rounds: r, round: 1, timer: rules.OptionDuration(s.Options["timer"])}
	g.clock = rules.NewTimer(s.Now, g.timer)
	return g, nil
}

// Apply implements rules.Game.
func (g *Game) Apply(seat int, raw json.RawMessage, now time.Time) error {
	t, err := rules.Preamble(g, seat, len(g.picks), raw, now)
	if err != nil {
		return err
	}
	if t == "fail" {
		return failWith(raw)
	}
	if t != "pick" {
		return rules.UnknownAction(t, "pick")
	}
	var a pick
	if err := rules.Decode(raw, &a); err != nil {
		return err
	}
	if g.picks[seat] != 0 {
		return ErrPicked
	}
	if a.N < 1 || a.N > 3 {
		return ErrRange
	}
	if rules.Passed(g.Due(g.clock, seat), now) {
		return rules.ErrTimeUp
	}
	g.picks[seat] = a.N
	g.log.Add("%s has picked.", g.names[seat])
	g.said[seat] = fmt.Sprintf("You picked %d.", a.N)
	if g.standIn {
		g.said[seat] = rules.StandInLine(g.said[seat])
	}
	for _, p := range g.picks {
		if p == 0 {
			g.Tick(now) // the others' time may be up
			return nil
		}
	}
	g.endRound(now)
	return nil
}

// unpicked reports that seat has not picked this round.
func (g *Game) unpicked(seat int) bool { return g.picks[seat] == 0 }

func (g *Game) endRound(now time.Time) {
	count := map[int]int{}
	for _, p := range g.picks {
		count[p]++
	}
	for i, p := range g.picks {
		if p != 0 && count[p] == 1 {
			g.scores[i]++
		}
	}
	g.last = g.picks
	g.log.Add("Round %d picks: %v", g.round, g.picks)
	g.picks = make([]int, len(g.names))
	g.round++
	g.clock = rules.NewTimer(now, g.timer)
}

// ApplyStandIn implements rules.StandIns.
func (g *Game) ApplyStandIn(seat int, raw json.RawMessage, now time.Time) error {
	g.standIn = true
	defer func() { g.standIn = false }()
	return g.Apply(seat, raw, now)
}

// History implements rules.Historian.
func (g *Game) History(int) []string { return g.log.Tail(len(g.log)) }

// Tick implements rules.Game.
func (g *Game) Tick(now time.Time) bool {
	if g.round > g.rounds || !rules.Passed(g.Until(g.clock, len(g.names), g.unpicked), now) {
		return false
	}
	g.endRound(now)
	return true
}

// View implements rules.Game.
func (g *Game) View(seat int) rules.View {
	v := View{Header: rules.Header{Game: ID, Seat: seat, Round: g.round, Rounds: g.rounds, Phase: "picking",
		Scores: append([]int(nil), g.scores...), Log: g.log.Tail(8), Deadline: g.Shown(g.clock, seat, len(g.names), g.unpicked), Over: g.round > g.rounds}}
	for i, p := range g.picks {
		v.Picked = append(v.Picked, p != 0)
		if p == 0 && !v.Over {
			v.Waiting = append(v.Waiting, i)
		}
	}
	if seat >= 0 && seat < len(g.picks) && g.picks[seat] != 0 {
		v.Mine, v.Note = g.picks[seat], Secret
	}
	if seat >= 0 && seat < len(g.said) {
		v.Said = g.said[seat]
	}
	v.Last = append([]int(nil), g.last...)
	v.Prompt = "Pick 1, 2 or 3."
	if v.Over {
		v.Phase, v.Prompt = "over", "The game is over."
	}
	return v
}

// Outcome implements rules.Game.
func (g *Game) Outcome() (rules.Result, bool) {
	if g.round <= g.rounds {
		return rules.Result{}, false
	}
	best, winners := -1, []int(nil)
	for i, s := range g.scores {
		if s > best {
			best, winners = s, nil
		}
		if s == best {
			winners = append(winners, i)
		}
	}
	return rules.Result{Scores: append([]int(nil), g.scores...), Winners: winners, Summary: fmt.Sprintf("best score %d", best)}, true
}

type bot struct{ rng *rand.Rand }

func (b *bot) Act(v rules.View, _ time.Time) any {
	pv := v.(View)
	if pv.Over || pv.Mine != 0 {
		return nil
	}
	return Pick(1 + b.rng.IntN(3))
}

type screen struct{ v View }

func (s *screen) SetView(v rules.View) { s.v = v.(View) }

func (s *screen) Update(msg tea.Msg) (any, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch k.String() {
		case "1", "2", "3":
			return Pick(int(k.String()[0] - '0')), nil
		}
	}
	return nil, nil
}

func (s *screen) Render(f gameui.Frame) string {
	out := fmt.Sprintf("Round %d of %d. ", s.v.Round, s.v.Rounds)
	if s.v.Mine != 0 {
		out += fmt.Sprintf("You picked %d. %s", s.v.Mine, s.v.Note)
	} else {
		out += "Pick a number."
	}
	if len(s.v.Last) > 0 {
		out += fmt.Sprintf("\nLast picks: %v", s.v.Last)
	}
	return out
}

func (s *screen) Keys() []gameui.Key { return []gameui.Key{{Keys: "1-3", Help: "pick"}} }
func (s *screen) Typing() bool       { return false }
