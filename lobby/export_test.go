package lobby

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"parlor/rules"
	"parlor/store"
)

// PlayLoggedGame plays the last game of a table's log again from its start, in one go
// and with the recorded times: the uninterrupted run a restored table must agree with.
func PlayLoggedGame(entries []store.TableEntry, content func([]string) (map[string][]byte, error)) (rules.Game, error) {
	var game rules.Game
	for _, e := range entries {
		var r record
		if err := json.Unmarshal(e.Data, &r); err != nil {
			return nil, err
		}
		switch r.Kind {
		case recSnapshot:
			game = nil
		case recGame:
			var st tableState
			for _, e2 := range entries {
				var r2 record
				_ = json.Unmarshal(e2.Data, &r2)
				if r2.Table != nil {
					st = *r2.Table
					break
				}
			}
			spec, _ := rules.Lookup(st.Game)
			files, err := content(spec.Content)
			if err != nil {
				return nil, err
			}
			for name, b := range r.Game.Files {
				files[name] = b
			}
			if game, err = spec.New(rules.Setup{Names: r.Game.Names, Seed: r.Game.Seed, Options: r.Game.Options, Content: files, Now: r.At}); err != nil {
				return nil, err
			}
		case recAct:
			if err := game.Apply(r.Seat, r.Action, r.At); err != nil {
				return nil, fmt.Errorf("seq %d: %w", e.Seq, err)
			}
		case recPace:
			rules.SetPaceOf(game, r.Seat, r.Factor)
		case recTick:
			if !game.Tick(r.At) {
				return nil, fmt.Errorf("seq %d: the tick changed nothing", e.Seq)
			}
		}
	}
	return game, nil
}

// CatchUp has the member's table take in the time it is now, as its ticker would at
// its next tick: deadlines due and bots ready act.
func CatchUp(p Place) error {
	m := p.(*Member)
	return m.t.do(func(now time.Time) error {
		m.t.advance(now)
		return nil
	})
}

// SetMaxLogEntries bounds tables' logs at n entries until the returned function is
// called.
func SetMaxLogEntries(n int) func() {
	old := maxLogEntries
	maxLogEntries = n
	return func() { maxLogEntries = old }
}

// QuietTickAllocs is how many allocations the member's table makes on average in a
// step of its actor that only ticks (the tick and the step's end, as run does), measured
// on the actor itself over n such steps at the time it is now.
func QuietTickAllocs(p Place, n int) (float64, error) {
	m := p.(*Member)
	var allocs float64
	err := m.t.do(func(now time.Time) error {
		allocs = testing.AllocsPerRun(n, func() {
			m.t.tick(now)
			m.t.endStep(now)
		})
		return nil
	})
	return allocs, err
}

// SeatFactor is the running game's time factor for the game's seat (rules.Pace), read
// on the table's actor.
func SeatFactor(p Place, seat int) (f rules.Factor) {
	m := p.(*Member)
	_ = m.t.do(func(time.Time) error {
		g := m.t.game
		if lg, ok := g.(loggedGame); ok {
			g = lg.Game
		}
		if pg, ok := g.(interface{ Factor(int) rules.Factor }); ok {
			f = pg.Factor(seat)
		}
		return nil
	})
	return f
}
