package talltale

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

// garbage returns a random, mostly invalid action.
func garbage(r *rand.Rand) json.RawMessage {
	switch r.IntN(8) {
	case 0:
		return act(Discard{Type: "discard", Card: r.IntN(110) - 5})
	case 1:
		return act(Story{Type: "story", Text: []string{"", "An apple.", "A. B. C.", "x\x1b[2J", strings.Repeat("é", 300)}[r.IntN(5)], Confirm: r.IntN(2) == 0})
	case 2, 3:
		return act(Token{Type: "token", Card: r.IntN(110) - 5})
	case 4:
		return json.RawMessage(`{"type":"token","card":1e99}`)
	case 5:
		return json.RawMessage(`{"type":"discard"}`)
	case 6:
		return json.RawMessage(`[1,2]`)
	}
	return json.RawMessage(`{"type":"nap"}`)
}

// checkSecrets fails if any view shows another seat's secret before its reveal.
func checkSecrets(t *testing.T, g *Game) {
	t.Helper()
	revealed := g.phase == PhaseReveal || g.phase == PhaseOver
	for s := -1; s < len(g.names); s++ {
		v := view(g, s)
		b, _ := json.Marshal(v)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		_, hasHand := m["hand"]
		if hasHand != (s == g.narrator && g.phase != PhaseOver) {
			t.Fatalf("seat %d (narrator %d, %s): hand shown = %v", s, g.narrator, g.phase, hasHand)
		}
		if _, ok := m["reveal"]; ok != revealed {
			t.Fatalf("seat %d in %s: reveal shown = %v", s, g.phase, ok)
		}
		var own []int
		if s >= 0 {
			own = g.tokensOf(s)
		}
		if !slices.Equal(v.MyTokens, own) && !(len(own) == 0 && len(v.MyTokens) == 0) {
			t.Fatalf("seat %d sees tokens %v, owns %v", s, v.MyTokens, own)
		}
		for k := range m {
			if !slices.Contains([]string{"game", "seat", "round", "rounds", "phase", "prompt", "waiting", "deadline", "scores", "log", "over", "sheet",
				"names", "narrator", "mode", "time_limit", "reminded", "tie_break", "tied", "racers", "boards", "story", "placed", "my_tokens",
				"hand", "reveal", "winners", "outcome"}, k) {
				t.Fatalf("unexpected view field %q", k)
			}
		}
		for _, line := range v.Log {
			if s == rules.Spectator && strings.HasPrefix(line, "You ") {
				t.Fatalf("spectator sees a private line %q", line)
			}
			if strings.HasPrefix(line, "You ") && !slices.Contains(g.log, logLine{to: s, text: line}) {
				t.Fatalf("seat %d sees someone else's line %q", s, line)
			}
		}
	}
}

func checkInvariants(t *testing.T, g *Game) {
	t.Helper()
	for s, v := range g.scores {
		if v < 0 {
			t.Fatalf("seat %d has %d points", s, v)
		}
		if n := len(g.tokensOf(s)); n > Tokens || (n > 0 && !slices.Contains(g.racers, s)) {
			t.Fatalf("seat %d has %d tokens", s, n)
		}
	}
	if g.over {
		r, _ := g.Outcome()
		best := slices.Max(r.Scores)
		for _, w := range r.Winners {
			if r.Scores[w] != best {
				t.Fatalf("winner %d has %d, best %d", w, r.Scores[w], best)
			}
		}
	}
}

// playGame runs one seeded game with bots in every seat and random garbage mixed in,
// checking secrets and invariants after every change; it returns the action log.
func playGame(t *testing.T, players int, seed uint64, opts rules.Options, check bool) (*Game, []string) {
	g := newGame(t, players, seed, opts)
	r := rand.New(rand.NewPCG(seed, 99))
	bots := make([]*Bot, players)
	for s := range bots {
		bots[s] = NewBot(rules.BotSetup{Seat: s, Seed: seed + uint64(s), Content: content(t)})
	}
	var trace []string
	now := t0
	for step := 0; !g.over; step++ {
		if step > 20000 {
			t.Fatalf("seed %d: game did not end", seed)
		}
		now = now.Add(time.Second)
		changed := g.Tick(now)
		for s, b := range bots {
			// A silent seat now and then lets the time limit run out.
			if opts[OptTimer] != "" && s == g.narrator && g.round%3 == 2 {
				continue
			}
			if a := b.Act(g.View(s), now); a != nil {
				if err := g.Apply(s, act(a), now); err != nil {
					t.Fatalf("seed %d: bot %d %+v rejected: %v", seed, s, a, err)
				}
				trace = append(trace, fmt.Sprintf("%d %s", s, act(a)))
				changed = true
			}
		}
		if r.IntN(4) == 0 {
			s := r.IntN(players+2) - 1
			raw := garbage(r)
			var before string
			if check && step%7 == 0 {
				before = snapshot(t, g)
			}
			if err := g.Apply(s, raw, now); err == nil {
				trace = append(trace, fmt.Sprintf("%d %s", s, raw))
				changed = true
			} else if before != "" && snapshot(t, g) != before {
				t.Fatalf("seed %d: state changed after error %v", seed, err)
			}
		}
		if changed && check {
			checkSecrets(t, g)
			checkInvariants(t, g)
		}
	}
	return g, trace
}

func TestRandomPlay(t *testing.T) {
	games := 0
	for seed := uint64(1); seed <= 5; seed++ {
		for players := 3; players <= 6; players++ {
			opts := rules.Options{}
			if seed%2 == 0 {
				opts[OptTimer] = "60s"
			}
			if seed%3 == 0 {
				opts[OptMode] = ModeStrict
			}
			g, _ := playGame(t, players, seed*10+uint64(players), opts, seed == 1 || (players == 3 && seed <= 3))
			if _, over := g.Outcome(); !over {
				t.Fatal("not over")
			}
			games++
		}
	}
	t.Logf("%d games", games)
}

func TestDeterminism(t *testing.T) {
	a, ta := playGame(t, 4, 77, rules.Options{OptTimer: "90s"}, false)
	b, tb := playGame(t, 4, 77, rules.Options{OptTimer: "90s"}, false)
	if !slices.Equal(ta, tb) || snapshot(t, a) != snapshot(t, b) {
		t.Fatal("same seed and actions gave different games")
	}
	c := newGame(t, 4, 78, nil)
	if snapshot(t, c) == snapshot(t, newGame(t, 4, 77, nil)) {
		t.Error("different seeds gave the same deal")
	}
}

// The race has a time limit (60 s by default): when it runs out, tokens not yet placed
// score nothing and the round is scored, so a racer who left cannot stall the table.
func TestRaceTimeLimit(t *testing.T) {
	spec, _ := rules.Lookup(ID)
	if d := spec.Defaults()[OptRaceTime]; d != "60s" {
		t.Fatalf("race time limit default %q, want 60s", d)
	}
	g := newGame(t, 3, 1, rules.Options{OptRaceTime: "30s"})
	kept := []int{0, 30, 60}
	setRound(t, g, kept, 90)
	v := view(g, rules.Spectator)
	if v.Deadline != t0.Add(30*time.Second) {
		t.Fatalf("race deadline %v, want 30 s after the story", v.Deadline)
	}
	racers := v.Racers
	for _, c := range kept {
		mustApply(t, g, racers[0], Token{Type: "token", Card: c})
	}
	mustApply(t, g, racers[1], Token{Type: "token", Card: kept[0]})
	if g.Tick(t0.Add(29 * time.Second)) {
		t.Fatal("the race ended early")
	}
	if !g.Tick(t0.Add(30 * time.Second)) {
		t.Fatal("the race did not end on time")
	}
	v = view(g, rules.Spectator)
	if v.Phase != PhaseReveal || v.Reveal == nil {
		t.Fatalf("phase %s after the race time limit", v.Phase)
	}
	if p := v.Reveal.Points; p[racers[0]] != 9 || p[racers[1]] != 1 {
		t.Errorf("points %v: the late racer's one token scores as second, the rest nothing", p)
	}
	// Off: no deadline.
	g = newGame(t, 3, 1, rules.Options{OptRaceTime: "off"})
	setRound(t, g, kept, 90)
	if !view(g, 0).Deadline.IsZero() {
		t.Error("a race without a time limit has a deadline")
	}
}

// The rules text (the '?' help and the table screen) tells every option of the game's
// own (the options every game has are the lobby's to explain); the race's time limit
// with its choices, its default and what happens when it runs out.
func TestRulesTellEveryOption(t *testing.T) {
	spec, _ := rules.Lookup(ID)
	flat := strings.Join(strings.Fields(spec.Rules), " ")
	for _, o := range spec.Options {
		if slices.ContainsFunc(rules.CommonOptions, func(c rules.Option) bool { return c.Key == o.Key }) {
			continue
		}
		if !strings.Contains(strings.ToLower(flat), strings.ToLower(o.Name)) {
			t.Errorf("the rules do not tell the option %q", o.Name)
		}
	}
	race := "Race time limit (table option, 30 s, 60 s, 90 s or off; 60 s by default)"
	for _, want := range []string{race, "or when the race time limit runs out", "tokens not yet placed score nothing"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the rules lack %q:\n%s", want, spec.Rules)
		}
	}
	for _, o := range spec.Options {
		if o.Key == OptRaceTime && (o.Default != "60s" || !slices.Equal(o.Choices, []string{"off", "30s", "60s", "90s"})) {
			t.Errorf("the race option changed: %+v; tell the rules", o)
		}
	}
}
