package rules_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	_ "parlor/games" // every game, as the server has them
	"parlor/internal/testkit/contenttest"
	"parlor/rules"
)

// play starts game id with n bots and lets them play until the sheet has rows rows or the
// game is over; the clock moves a second whenever no bot acts.
func play(t *testing.T, id string, n int, opts rules.Options, rows int) rules.Game {
	t.Helper()
	names := make([]string, n)
	for i := range names {
		names[i] = string(rune('A'+i)) + "nn"
	}
	return playNamed(t, id, names, opts, rows, nil)
}

// playNamed is play with the players' names, calling visit (if not nil) with the game
// before every step.
func playNamed(t *testing.T, id string, names []string, opts rules.Options, rows int, visit func(rules.Game)) rules.Game {
	t.Helper()
	n := len(names)
	spec, ok := rules.Lookup(id)
	if !ok {
		t.Fatalf("no game %s", id)
	}
	content := contenttest.Load(t, spec.Content...)
	opts, err := spec.CheckOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	setup := rules.Setup{Seed: 7, Options: opts, Content: content, Now: now}
	bots := make([]rules.Bot, n)
	for i := range bots {
		setup.Names = append(setup.Names, names[i])
		bots[i] = spec.NewBot(rules.BotSetup{Seat: i, Seed: uint64(i + 1), Options: opts, Content: content})
	}
	g, err := spec.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; step < 20000; step++ {
		h := g.View(rules.Spectator).Head()
		if h.Over || len(h.Sheet.Rows) >= rows {
			return g
		}
		if visit != nil {
			visit(g)
		}
		acted := false
		for i, b := range bots {
			if a := b.Act(g.View(i), now); a != nil && g.Apply(i, rules.Encode(a), now) == nil {
				acted = true
			}
		}
		if !acted {
			now = now.Add(time.Second)
			g.Tick(now)
		}
	}
	t.Fatalf("%s: the bots did not finish %d rounds", id, rows)
	return nil
}

// Every game's view carries the score sheet: a row per round with a column per seat,
// totals equal to the scores, and the last round's breakdown; it reaches the JSON API.
func TestScoreSheetAfterTwoRounds(t *testing.T) {
	for _, c := range everyGame() {
		t.Run(c.name, func(t *testing.T) {
			g := play(t, c.id, c.n, c.opts, 2)
			for _, seat := range []int{rules.Spectator, 0} {
				h := g.View(seat).Head()
				s := h.Sheet
				if len(s.Rows) < 2 {
					t.Fatalf("seat %d: %d rows, want 2", seat, len(s.Rows))
				}
				for i, r := range s.Rows {
					if len(r.Points) != c.n || r.Round < 1 {
						t.Errorf("row %d: %+v", i, r)
					}
				}
				if !slices.Equal(s.Totals, h.Scores) {
					t.Errorf("totals %v, scores %v", s.Totals, h.Scores)
				}
				if len(s.Last) == 0 {
					t.Error("no breakdown of the last round")
				}
				b, _ := json.Marshal(g.View(seat))
				var back struct {
					Sheet rules.Sheet `json:"sheet"`
				}
				if err := json.Unmarshal(b, &back); err != nil || len(back.Sheet.Rows) != len(s.Rows) {
					t.Errorf("sheet not in the JSON view: %v %s", err, b)
				}
			}
		})
	}
}
