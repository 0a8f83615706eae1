package fingertip

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

// checkNoLeak proves structurally that only the active player's view holds the target
// before the turn ends.
func checkNoLeak(t *testing.T, g *Game) {
	t.Helper()
	if g.phase != PhaseClue && g.phase != PhaseRace {
		return
	}
	for s := -1; s < len(g.names); s++ {
		if s == g.active {
			continue
		}
		b, err := json.Marshal(g.View(s))
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Target *int   `json:"target"`
			Prompt string `json:"prompt"`
			Square []struct {
				Target *bool `json:"target"`
			} `json:"square"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if v.Target != nil {
			t.Fatalf("seat %d sees the target during %s", s, g.phase)
		}
		for _, c := range v.Square {
			if c.Target != nil {
				t.Fatalf("seat %d sees a target card during %s", s, g.phase)
			}
		}
		if strings.Contains(v.Prompt, "target is card") {
			t.Fatalf("seat %d prompt leaks: %q", s, v.Prompt)
		}
	}
}

// randomAction is a mix of plausible and garbage actions.
func randomAction(r *rand.Rand) json.RawMessage {
	switch r.IntN(8) {
	case 0:
		return json.RawMessage(`{"type":"clue","text":"` + strings.Repeat("ab ", r.IntN(40)) + `"}`)
	case 1:
		return json.RawMessage(`{"type":"nope"}`)
	case 2:
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	case 3:
		return json.RawMessage(`{"type":"point","position":` + string(rune('0'+r.IntN(10))) + `,"x":1}`)
	}
	return rules.Encode(Point{Type: TypePoint, Position: r.IntN(11)})
}

func TestRandomPlay(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 6
	}
	total := 0
	defer func() { t.Logf("%d steps", total) }()
	for seed := range uint64(games) {
		r := rand.New(rand.NewPCG(seed, 99))
		players := 3 + int(seed%4)
		opts := rules.Options{OptClueTime: []string{"off", "30s", "90s"}[seed%3], OptRaceTime: []string{"30s", "60s", "off"}[seed%3]}
		g := newGame(t, players, seed, opts)
		bots := make([]*Bot, players)
		for s := range bots {
			if r.IntN(3) > 0 {
				bots[s] = NewBot(rules.BotSetup{Seat: s, Seed: seed*10 + uint64(s)})
			}
		}
		now := t0
		steps := 0
		for ; g.phase != PhaseOver && steps < 20000; steps++ {
			now = now.Add(time.Duration(r.IntN(3000)) * time.Millisecond)
			changed := g.Tick(now)
			seat := r.IntN(players+2) - 1
			var raw json.RawMessage
			if seat >= 0 && seat < players && bots[seat] != nil {
				a := bots[seat].Act(g.View(seat), now)
				if a == nil {
					if changed {
						checkNoLeak(t, g)
					}
					continue
				}
				raw = rules.Encode(a)
				if err := g.Apply(seat, raw, now); err != nil {
					t.Fatalf("seed %d: bot %d: %s: %v", seed, seat, raw, err)
				}
			} else {
				raw = randomAction(r)
				var before string
				check := steps%25 == 0
				if check {
					before = snapshot(t, g)
				}
				err := g.Apply(seat, raw, now)
				if err != nil && check && snapshot(t, g) != before {
					t.Fatalf("seed %d: %s by %d failed (%v) but changed the state", seed, raw, seat, err)
				}
				if err != nil && !changed {
					continue
				}
			}
			conserved(t, g)
			checkNoLeak(t, g)
		}
		total += steps
		if g.phase != PhaseOver {
			t.Fatalf("seed %d: no end after %d steps (turn %d, pile %d)", seed, steps, g.turn, len(g.pile))
		}
		res, over := g.Outcome()
		if !over || len(res.Winners) == 0 || len(res.Scores) != players {
			t.Fatalf("seed %d: outcome %+v", seed, res)
		}
	}
}

// TestBotsFinish plays bots-only games: every bot action must be accepted.
func TestBotsFinish(t *testing.T) {
	for seed := range uint64(12) {
		players := 3 + int(seed%4)
		g := newGame(t, players, seed, nil)
		bots := make([]*Bot, players)
		for s := range bots {
			bots[s] = NewBot(rules.BotSetup{Seat: s, Seed: seed + uint64(s)*31})
		}
		now, found := t0, 0
		for step := 0; g.phase != PhaseOver; step++ {
			if step > 50000 {
				t.Fatalf("seed %d: bots did not finish", seed)
			}
			now = now.Add(500 * time.Millisecond)
			g.Tick(now)
			for s, b := range bots {
				if a := b.Act(g.View(s), now); a != nil {
					if err := g.Apply(s, rules.Encode(a), now); err != nil {
						t.Fatalf("seed %d: bot %d: %v", seed, s, err)
					}
					if g.phase == PhaseReveal && g.last.Finder >= 0 {
						found++
					}
				}
			}
		}
		conserved(t, g)
		if found == 0 {
			t.Errorf("seed %d: bots never found a target", seed)
		}
	}
}

func TestDeterminism(t *testing.T) {
	run := func() []string {
		g := newGame(t, 5, 42, nil)
		r := rand.New(rand.NewPCG(1, 2))
		var out []string
		now := t0
		for range 400 {
			now = now.Add(time.Duration(r.IntN(4000)) * time.Millisecond)
			g.Tick(now)
			seat := r.IntN(5)
			a := json.RawMessage(rules.Encode(Point{Type: TypePoint, Position: 1 + r.IntN(9)}))
			if seat == g.active {
				a = rules.Encode(Clue{Type: TypeClue, Text: "same"})
			}
			_ = g.Apply(seat, a, now)
			out = append(out, snapshot(t, g))
		}
		return out
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("step %d differs", i)
		}
	}
}

func FuzzApply(f *testing.F) {
	f.Add(0, []byte(`{"type":"clue","text":"a door"}`), 1, []byte(`{"type":"point","position":3}`))
	f.Add(1, []byte(`{"type":"point","position":9}`), 2, []byte(`{"type":"point","position":-1}`))
	f.Add(-1, []byte(`{"type":"clue"}`), 5, []byte(`null`))
	f.Add(2, []byte(`{"type":"clue","text":"\u001b[31m"}`), 0, []byte(`[]`))
	f.Add(0, []byte(`{"type":"point","position":1e99}`), 0, []byte(`{"type":"clue","text":"x"} x`))
	f.Fuzz(func(t *testing.T, s1 int, a1 []byte, s2 int, a2 []byte) {
		g := newGame(t, 4, 1, nil)
		// Let both actions land in either phase.
		for _, a := range []json.RawMessage{a1, a2} {
			for _, s := range []int{s1, s2, g.active} {
				before := snapshot(t, g)
				if err := g.Apply(s, a, t0); err != nil {
					if snapshot(t, g) != before {
						t.Fatalf("failed action changed the state: %v", err)
					}
				}
				conserved(t, g)
			}
		}
		_ = g.Apply(g.active, rules.Encode(Clue{Type: TypeClue, Text: string(a1)}), t0)
		_ = g.Apply(s2, a2, t0)
		g.Tick(t0.Add(time.Hour))
		conserved(t, g)
	})
}
