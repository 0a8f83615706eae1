package foresight

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

// randomAction is a mix of sensible and garbage actions for property tests.
func randomAction(r *rand.Rand, v View, seat int) []byte {
	n := len(v.Names)
	switch r.IntN(10) {
	case 0:
		return []byte(`{"type":"submit","answer":"x"}`)
	case 1:
		return rules.Encode(Ready{Type: TypeReady})
	case 2:
		return []byte(fmt.Sprintf(`{"type":%q}`, []string{"", "submit", "ready", "wager"}[r.IntN(4)]))
	}
	k := max(len(v.Choices), 2)
	s := Submit{Type: TypeSubmit, Answer: r.IntN(k+2) - 0}
	for o := range n {
		if o == seat && r.IntN(10) > 0 {
			continue
		}
		s.Predictions = append(s.Predictions, Prediction{
			Seat: o, Choice: r.IntN(k + 1),
			A: Wagers[r.IntN(len(Wagers))], B: []int{0, 0, 0, 25, 50, 100, 30}[r.IntN(7)],
		})
	}
	return rules.Encode(s)
}

// fingerprint is the game's whole state in a string, cheaper than every view.
func fingerprint(g *Game) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s %v %v %v %d %d %v %v|", g.round, g.phase, g.deadline, g.points, g.ready, g.next, len(g.log), g.winners, g.question)
	for _, s := range g.subs {
		if s != nil {
			fmt.Fprintf(&b, "%v", *s)
		}
		b.WriteString(";")
	}
	if g.last != nil {
		fmt.Fprintf(&b, "%v", *g.last)
	}
	return b.String()
}

// checkNoLeak asserts structurally that seat's view shows no other seat's secret of the
// round in play: the view must not change if every other seat's submission changes.
func checkNoLeak(t *testing.T, g *Game, seat int, decode bool) {
	t.Helper()
	raw := mustJSON(t, g.View(seat))
	v := view(g, seat)
	if decode { // the JSON holds nothing beyond the View's own fields
		d := json.NewDecoder(bytes.NewReader([]byte(raw)))
		d.DisallowUnknownFields()
		if err := d.Decode(&v); err != nil {
			t.Fatalf("view of seat %d has fields beyond View: %v", seat, err)
		}
	}
	if v.Mine != nil && (seat < 0 || g.subs[seat] == nil || v.Mine.Answer != g.subs[seat].Answer) {
		t.Fatalf("seat %d sees a submission that is not its own", seat)
	}
	if v.Reveal != nil && g.phase == PhaseAnswering && v.Reveal.Round >= g.round {
		t.Fatalf("seat %d sees the reveal of round %d during it", seat, v.Reveal.Round)
	}
	// Non-interference: scramble everyone else's secret; the view must not move.
	saved := slices.Clone(g.subs)
	for o, s := range g.subs {
		if o == seat || s == nil {
			continue
		}
		c := s.clone()
		c.Answer = c.Answer%3 + 1
		for i := range c.Predictions {
			c.Predictions[i].Choice = c.Predictions[i].Choice%3 + 1
			c.Predictions[i].A, c.Predictions[i].B = 25, 50
		}
		g.subs[o] = c
	}
	after := mustJSON(t, g.View(seat))
	g.subs = saved
	if after != raw {
		t.Fatalf("seat %d's view depends on other seats' secrets:\n%s\n%s", seat, raw, after)
	}
}

// TestRandomPlay plays many seeded games of bots and garbage: invariants hold, no view
// leaks a secret before its reveal, bots are never refused and every game ends.
func TestRandomPlay(t *testing.T) {
	games := 14
	if testing.Short() {
		games = 7
	}
	for i := range games {
		seed := uint64(i + 1)
		n := 2 + i%7
		t.Run(fmt.Sprintf("seed%d_%dp", seed, n), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			opts := rules.Options{"timer": []string{"off", "60s"}[i%2], "rounds": []string{"none", "10"}[i%3%2]}
			g := newGame(t, n, opts, seed, testDeck(10, 5)) // a round limit of 10 needs 10 questions
			bots := make([]*Bot, n)
			human := make([]bool, n)
			for p := range bots {
				bots[p] = NewBot(rules.BotSetup{Seat: p, Seed: seed*31 + uint64(p)})
				human[p] = r.IntN(3) == 0
			}
			now := t0
			for step := 0; step < 5000; step++ {
				if _, over := g.Outcome(); over {
					return
				}
				now = now.Add(time.Duration(100+r.IntN(900)) * time.Millisecond)
				if r.IntN(50) == 0 {
					now = now.Add(time.Minute) // someone wanders off: the timer runs out
				}
				g.Tick(now)
				seat := r.IntN(n+2) - 1 // spectators and seats out of range too
				if seat >= 0 && seat < n && (!human[seat] || r.IntN(2) == 0) {
					if a := bots[seat].Act(g.View(seat), now); a != nil {
						if err := g.Apply(seat, rules.Encode(a), now); err != nil {
							t.Fatalf("bot %d refused: %v (%s)", seat, err, rules.Encode(a))
						}
					}
				} else {
					before := fingerprint(g)
					if err := g.Apply(seat, randomAction(r, view(g, max(seat, 0)), seat), now); err != nil && fingerprint(g) != before {
						t.Fatalf("state changed after %v", err)
					}
				}
				// Every seat's view is checked in turn; the whole set every few steps.
				checkNoLeak(t, g, step%(n+1)-1, step%16 == 0)
				for p, pts := range g.points {
					if pts < 0 || pts%25 != 0 {
						t.Fatalf("seat %d has %d points", p, pts)
					}
				}
			}
			t.Fatal("the game did not end")
		})
	}
}

// TestBotsOnly: games of bots alone finish at every table size, bots never refused.
func TestBotsOnly(t *testing.T) {
	for n := 2; n <= 8; n++ {
		g := newGame(t, n, nil, uint64(n), testDeck(60, 0))
		bots := make([]*Bot, n)
		for p := range bots {
			bots[p] = NewBot(rules.BotSetup{Seat: p, Seed: uint64(100 + p)})
		}
		now := t0
		for step := 0; ; step++ {
			if _, over := g.Outcome(); over {
				break
			}
			if step > 200000 {
				t.Fatalf("%d bots: the game did not end", n)
			}
			now = now.Add(500 * time.Millisecond)
			g.Tick(now)
			for p, b := range bots {
				if a := b.Act(g.View(p), now); a != nil {
					if err := g.Apply(p, rules.Encode(a), now); err != nil {
						t.Fatalf("%d bots: bot %d refused: %v", n, p, err)
					}
				}
			}
		}
		r, _ := g.Outcome()
		if len(r.Winners) == 0 {
			t.Fatalf("%d bots: no winner: %+v", n, r)
		}
	}
}

// TestBotMidGame: a bot handed a seat in any phase plays on from the view alone.
func TestBotMidGame(t *testing.T) {
	g := newGame(t, 3, nil, 4, threeChoices(10))
	mustApply(t, g, 0, plain(0, 3), t0)
	b := NewBot(rules.BotSetup{Seat: 1, Seed: 9})
	if a := b.Act(g.View(1), t0); a != nil {
		t.Fatal("the bot acted without thinking first")
	}
	a := b.Act(g.View(1), t0.Add(10*time.Second))
	if a == nil {
		t.Fatal("the bot did not submit")
	}
	mustApply(t, g, 1, a, t0)
	if b.Act(g.View(1), t0.Add(20*time.Second)) != nil {
		t.Fatal("the bot submits twice")
	}
	// A bot on seat 0 that already submitted waits; then readies in the reveal.
	b0 := NewBot(rules.BotSetup{Seat: 0, Seed: 3})
	mustApply(t, g, 2, plain(2, 3), t0)
	b0.Act(g.View(0), t0)
	mustApply(t, g, 0, b0.Act(g.View(0), t0.Add(10*time.Second)), t0)
	if b0.Act(g.View(0), t0.Add(20*time.Second)) != nil {
		t.Fatal("the bot readies twice")
	}
}

// TestBotPredictsHabits: after seeing an opponent answer 2 three times, the bot predicts 2.
func TestBotPredictsHabits(t *testing.T) {
	b := NewBot(rules.BotSetup{Seat: 0, Seed: 1})
	for round := 1; round <= 3; round++ {
		b.remember(&Reveal{Round: round, Players: []RevealedPlayer{{Seat: 0, Answer: 1}, {Seat: 1, Answer: 2}}}, nil)
	}
	b.remember(&Reveal{Round: 3, Players: []RevealedPlayer{{Seat: 1, Answer: 3}}}, nil) // seen already
	if c, sure := b.predict(1, []string{"x", "y", "z"}); c != 2 || !sure {
		t.Fatalf("predicts %d (sure %v), want 2", c, sure)
	}
	if c, _ := b.predict(1, []string{"x"}); c != 1 {
		t.Fatalf("predicts %d for a question with one choice", c)
	}
}

// TestBotPredictsCharacter: a friend who always picks the cautious answer, wherever it
// stands, is predicted to pick the cautious one of a new question.
func TestBotPredictsCharacter(t *testing.T) {
	for seed := range uint64(10) {
		b := NewBot(rules.BotSetup{Seat: 0, Seed: seed})
		past := [][]string{
			{"run across the road", "wait for the green light", "shout for help"},
			{"stay safe indoors", "go out in the storm"},
			{"jump straight in", "dive from the top", "check the water carefully first"},
		}
		picked := []int{2, 1, 3}
		for i, choices := range past {
			b.remember(&Reveal{Round: i + 1, Players: []RevealedPlayer{{Seat: 1, Answer: picked[i]}}}, choices)
		}
		if c, _ := b.predict(1, []string{"race down the hill", "walk down safely and carefully"}); c != 2 {
			t.Fatalf("bot %d predicts %d, want the careful 2", seed, c)
		}
	}
}

// TestBotAtZeroPoints: a broke bot still submits legally.
func TestBotAtZeroPoints(t *testing.T) {
	for seed := range uint64(50) {
		g := newGame(t, 4, nil, seed, threeChoices(3))
		g.points[2] = 0
		b := NewBot(rules.BotSetup{Seat: 2, Seed: seed})
		b.Act(g.View(2), t0)
		mustApply(t, g, 2, b.Act(g.View(2), t0.Add(time.Minute)), t0)
	}
}

// TestDeterminism: the same seed and the same actions give the same views.
func TestDeterminism(t *testing.T) {
	play := func() string {
		g := newGame(t, 5, rules.Options{"timer": "60s"}, 42, testDeck(40, 0))
		r := rand.New(rand.NewPCG(1, 2))
		now := t0
		var out bytes.Buffer
		for range 1500 {
			now = now.Add(time.Second)
			g.Tick(now)
			seat := r.IntN(5)
			_ = g.Apply(seat, randomAction(r, view(g, seat), seat), now)
			out.WriteString(mustJSON(t, g.View(seat)))
		}
		return out.String()
	}
	first, second := play(), play()
	if first != second {
		t.Fatal("same seed and actions gave different views")
	}
}

// TestABotLowOnPointsStillWagers: a bot with fewer than 100 points wagers within them.
// With a quarter of its points as its budget it wagered nothing below 100, and a table
// of bots that fell there played on for ever without a point won or lost.
func TestABotLowOnPointsStillWagers(t *testing.T) {
	for _, points := range []int{25, 75} {
		wagered := 0
		for seed := range uint64(20) {
			b := NewBot(rules.BotSetup{Seat: 0, Seed: seed})
			v := View{Names: []string{"A", "B", "C"}, Choices: []string{"x", "y", "z"}}
			v.Seat, v.Scores = 0, []int{points, 600, 600}
			s := b.submission(v)
			if err := Check(s, 0, 3, 3, points); err != nil {
				t.Fatalf("%d points, seed %d: %+v is refused: %v", points, seed, s, err)
			}
			wagered += Total(s.Predictions)
		}
		if wagered == 0 {
			t.Errorf("with %d points the bot never wagers", points)
		}
	}
}
