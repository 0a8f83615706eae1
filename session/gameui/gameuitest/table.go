package gameuitest

import (
	"maps"
	"testing"
	"time"

	"parlor/assets"
	"parlor/rules"
	"parlor/session/gameui"
)

// Table plays one game through its screens, for tests: the game's engine, a bot for every
// seat and the game's screen for every seat and for a spectator, on a clock the test
// moves. The game's rules and screen must be registered (import their packages).
type Table struct {
	Game    rules.Game
	Screens []gameui.Screen // Screens[0] is a spectator's, Screens[seat+1] the seat's
	Now     time.Time
	bots    []rules.Bot
}

// Start is the time a test table starts at.
var Start = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// NewTable starts game id for names with opts over the spec's defaults, on the game's
// built-in content with the files of content put in their place.
func NewTable(tb testing.TB, id string, names []string, opts rules.Options, content map[string][]byte, seed uint64) *Table {
	tb.Helper()
	spec, ok := rules.Lookup(id)
	screen, ok2 := gameui.Lookup(id)
	if !ok || !ok2 {
		tb.Fatalf("game %q: rules registered %v, screen registered %v", id, ok, ok2)
	}
	all := spec.Defaults()
	maps.Copy(all, opts)
	files, err := assets.Load(spec.Content)
	if err != nil {
		tb.Fatal(err)
	}
	maps.Copy(files, content)
	g, err := spec.New(rules.Setup{Names: names, Seed: seed, Options: all, Content: files, Now: Start})
	if err != nil {
		tb.Fatalf("%s with %d players: %v", id, len(names), err)
	}
	t := &Table{Game: g, Now: Start}
	for seat := rules.Spectator; seat < len(names); seat++ {
		s := screen(seat)
		s.SetView(g.View(seat))
		t.Screens = append(t.Screens, s)
		if seat >= 0 {
			t.bots = append(t.bots, spec.NewBot(rules.BotSetup{Seat: seat, Seed: seed + uint64(seat), Options: all, Content: files}))
		}
	}
	return t
}

// Seat is the seat of t.Screens[i] (rules.Spectator for the first).
func Seat(i int) int { return i - 1 }

// Move decides what a seat does: given the seat's screen (holding its newest view) and
// the bot's choice (nil: the bot waits), it returns the action to apply, or nil. A test
// uses it to play through the screen's keys, e.g. to type the longest clue.
type Move func(seat int, s gameui.Screen, bot any) any

// Over reports whether the game has ended.
func (t *Table) Over() bool {
	_, over := t.Game.Outcome()
	return over
}

// Play plays a second at a time until the game is over or until stop (if not nil) holds:
// the game ticks, then every seat acts in turn, by its bot or by move (if not nil). After
// every change every screen gets its newest view and visit (if not nil) sees it.
func (t *Table) Play(tb testing.TB, move Move, visit func(seat int, s gameui.Screen), stop func() bool) {
	tb.Helper()
	t.show(visit)
	for step := 0; !t.Over() && (stop == nil || !stop()); step++ {
		if step > 100000 {
			tb.Fatal("the game never ended")
		}
		t.Now = t.Now.Add(time.Second)
		if t.Game.Tick(t.Now) {
			t.show(visit) // the seats act on the newest screens
			if stop != nil && stop() {
				return
			}
		}
		acted := false
		for seat, b := range t.bots {
			a := b.Act(t.Game.View(seat), t.Now)
			if move != nil {
				a = move(seat, t.Screens[seat+1], a)
			}
			if a == nil {
				continue
			}
			if err := t.Game.Apply(seat, rules.Encode(a), t.Now); err != nil {
				tb.Fatalf("seat %d: %#v: %v", seat, a, err)
			}
			acted = true
			t.refresh()
			if stop != nil && stop() {
				break
			}
		}
		if acted {
			t.show(visit)
		}
	}
}

// refresh hands every screen its newest view.
func (t *Table) refresh() {
	for i, s := range t.Screens {
		s.SetView(t.Game.View(Seat(i)))
	}
}

func (t *Table) show(visit func(seat int, s gameui.Screen)) {
	t.refresh()
	if visit == nil {
		return
	}
	for i, s := range t.Screens {
		visit(Seat(i), s)
	}
}
