package foresight

import (
	"slices"
	"testing"
	"time"

	"parlor/rules"
)

// TestWorkedExample plays the rules page's example exactly.
func TestWorkedExample(t *testing.T) {
	g := newGame(t, 3, nil, 1, threeChoices(5))
	// Ann 0, Ben 1, Cat 2.
	mustApply(t, g, 0, sub(1, []int{1, 2}, 2, 100, 50, 1, 25, 0), t0)
	mustApply(t, g, 1, sub(2, []int{0, 2}, 1, 50, 25, 2, 50, 100), t0)
	mustApply(t, g, 2, sub(2, []int{0, 1}, 3, 0, 25, 2, 100, 25), t0)
	v := view(g, rules.Spectator)
	if want := []int{725, 825, 700}; !slices.Equal(v.Scores, want) {
		t.Fatalf("scores %v, want %v", v.Scores, want)
	}
	if v.Phase != PhaseReveal || v.Reveal == nil || v.Reveal.Round != 1 {
		t.Fatalf("want the round 1 reveal, got phase %s reveal %+v", v.Phase, v.Reveal)
	}
	changes := []int{125, 225, 100}
	for p, row := range v.Reveal.Players {
		if row.Change != changes[p] || row.Total != 600+changes[p] {
			t.Errorf("%s: change %d total %d, want %+d", names8[p], row.Change, row.Total, changes[p])
		}
	}
	// Ann's row, wager by wager, as the page spells it out.
	ann := v.Reveal.Players[0].Predictions
	if ann[0].AResult != 100 || ann[1].AResult != -25 || ann[0].BResult != 50 || ann[1].BResult != 0 || ann[1].Foreseen {
		t.Errorf("Ann's wagers: %+v", ann)
	}
	cat := v.Reveal.Players[2].Predictions
	if cat[0].AResult != 0 || cat[0].Right || cat[1].AResult != 100 || cat[0].BResult != -25 || cat[1].BResult != 25 {
		t.Errorf("Cat's wagers: %+v", cat)
	}
}

// TestFloorAtZero: a player at 0 points who loses a 50 wager stays at 0.
func TestFloorAtZero(t *testing.T) {
	g := newGame(t, 2, nil, 1, threeChoices(5))
	g.points[0] = 0
	mustApply(t, g, 0, sub(1, []int{1}, 3, 50, 0), t0)
	mustApply(t, g, 1, sub(2, []int{0}, 2, 0, 0), t0)
	v := view(g, 0)
	if row := v.Reveal.Players[0]; row.Change != -50 || row.Total != 0 || v.Scores[0] != 0 {
		t.Fatalf("row %+v scores %v, want change -50 total 0", row, v.Scores)
	}
	// And a win from 0 counts in full.
	g.points[0] = 0
	mustApply(t, g, 0, Ready{Type: TypeReady}, t0)
	mustApply(t, g, 1, Ready{Type: TypeReady}, t0)
	mustApply(t, g, 0, sub(1, []int{1}, 2, 0, 50), t0)
	mustApply(t, g, 1, sub(2, []int{0}, 1, 0, 0), t0)
	if got := g.points[0]; got != 50 {
		t.Fatalf("points %d after winning 50 from 0, want 50", got)
	}
}

// TestEndAt1200 covers several players crossing 1200 in one round, ties and the edge.
func TestEndAt1200(t *testing.T) {
	cases := []struct {
		name    string
		start   []int
		subs    func() []Submit
		winners []int
		over    bool
	}{
		{"two cross, the highest wins", []int{1150, 1150, 600}, func() []Submit {
			return []Submit{
				sub(1, []int{1, 2}, 1, 100, 0, 1, 0, 0), // +100 → 1250
				sub(1, []int{0, 2}, 1, 50, 0, 1, 0, 0),  // +50 → 1200
				sub(2, []int{0, 1}, 2, 0, 0, 2, 0, 0),   // wagers nothing
			}
		}, []int{0}, true},
		{"two cross to the same total, they share", []int{1150, 1150, 600}, func() []Submit {
			return []Submit{
				sub(1, []int{1, 2}, 1, 50, 0, 1, 0, 0),
				sub(1, []int{0, 2}, 1, 50, 0, 1, 0, 0),
				sub(2, []int{0, 1}, 2, 0, 0, 2, 0, 0),
			}
		}, []int{0, 1}, true},
		{"1175 is not the end", []int{1150, 600, 600}, func() []Submit {
			return []Submit{
				sub(1, []int{1, 2}, 1, 25, 0, 1, 0, 0),
				sub(1, []int{0, 2}, 1, 0, 0, 1, 0, 0),
				sub(2, []int{0, 1}, 2, 0, 0, 2, 0, 0),
			}
		}, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, 3, nil, 1, threeChoices(5))
			copy(g.points, c.start)
			for seat, s := range c.subs() {
				mustApply(t, g, seat, s, t0)
			}
			r, over := g.Outcome()
			if over != c.over || !slices.Equal(r.Winners, c.winners) {
				t.Fatalf("over %v winners %v (%s), want %v %v", over, r.Winners, r.Summary, c.over, c.winners)
			}
			if over && (!view(g, 2).Over || g.Apply(0, rules.Encode(Ready{Type: TypeReady}), t0) == nil) {
				t.Fatal("the game over but views or Apply do not say so")
			}
		})
	}
}

// TestRoundLimit: the game ends after the last round, the highest total winning.
func TestRoundLimit(t *testing.T) {
	g := newGame(t, 2, rules.Options{"rounds": "5"}, 3, threeChoices(20))
	if v := view(g, 0); v.Rounds != 5 || v.RoundLimit != 5 {
		t.Fatalf("rounds %d limit %d, want 5", v.Rounds, v.RoundLimit)
	}
	for round := 1; round <= 5; round++ {
		if g.round != round || g.phase != PhaseAnswering {
			t.Fatalf("round %d phase %s, want round %d answering", g.round, g.phase, round)
		}
		mustApply(t, g, 0, sub(1, []int{1}, 2, 25, 0), t0) // Ann predicts Ben right each time
		mustApply(t, g, 1, sub(2, []int{0}, 3, 0, 0), t0)
		if round < 5 {
			mustApply(t, g, 0, Ready{Type: TypeReady}, t0)
			mustApply(t, g, 1, Ready{Type: TypeReady}, t0)
		}
	}
	r, over := g.Outcome()
	if !over || !slices.Equal(r.Winners, []int{0}) || !slices.Equal(r.Scores, []int{725, 600}) {
		t.Fatalf("outcome %+v over %v", r, over)
	}
}

// TestQuestionsRunOut: a deck smaller than the game ends it after its last question.
func TestQuestionsRunOut(t *testing.T) {
	g := newGame(t, 2, nil, 3, threeChoices(2))
	for round := 1; round <= 2; round++ {
		mustApply(t, g, 0, plain(0, 2), t0)
		mustApply(t, g, 1, plain(1, 2), t0)
		if round == 1 {
			mustApply(t, g, 0, Ready{Type: TypeReady}, t0)
			mustApply(t, g, 1, Ready{Type: TypeReady}, t0)
		}
	}
	if r, over := g.Outcome(); !over || !slices.Equal(r.Winners, []int{0, 1}) {
		t.Fatalf("outcome %+v over %v, want a shared victory", r, over)
	}
}

// TestTimeout: a player who has not submitted in time gives no answer and wagers nothing;
// predictions of them are wrong; the reveal ends by time or when everyone is ready.
func TestTimeout(t *testing.T) {
	g := newGame(t, 3, rules.Options{"timer": "60s", "reveal": "15s"}, 1, threeChoices(5))
	deadline := t0.Add(60 * time.Second)
	if v := view(g, 0); !v.Deadline.Equal(deadline) {
		t.Fatalf("deadline %v, want %v", v.Deadline, deadline)
	}
	mustApply(t, g, 0, sub(1, []int{1, 2}, 2, 100, 50, 1, 25, 25), t0) // Cat never submits
	mustApply(t, g, 1, sub(2, []int{0, 2}, 1, 50, 0, 1, 0, 100), t0)
	if g.Tick(deadline.Add(-time.Millisecond)) {
		t.Fatal("Tick changed something before the deadline")
	}
	if !g.Tick(deadline) {
		t.Fatal("Tick did nothing at the deadline")
	}
	v := view(g, 2)
	cat := v.Reveal.Players[2]
	if !cat.TimedOut || cat.Answer != 0 || cat.Change != 0 || cat.Total != 600 {
		t.Fatalf("Cat timed out: %+v", cat)
	}
	// Ann: A on Ben right +100, A on Cat wrong -25, B on Ben (Ben predicted 1) +50, B on Cat (none) -25.
	// Ben: A on Ann +50, A on Cat -0, B on Ann (Ann predicted 2 rightly) +0, B on Cat -100.
	if !slices.Equal(v.Scores, []int{700, 550, 600}) {
		t.Fatalf("scores %v, want [700 550 600]", v.Scores)
	}
	if !v.Deadline.Equal(deadline.Add(15 * time.Second)) {
		t.Fatalf("reveal deadline %v", v.Deadline)
	}
	if !g.Tick(deadline.Add(15*time.Second)) || g.round != 2 || g.phase != PhaseAnswering {
		t.Fatalf("reveal did not end by time: round %d phase %s", g.round, g.phase)
	}
	// Round 2: everyone submits and everyone is ready before the time: no wait.
	now := deadline.Add(20 * time.Second)
	for p := range 3 {
		mustApply(t, g, p, plain(p, 3), now)
	}
	for p := range 3 {
		if g.round != 2 {
			t.Fatalf("next round before everyone was ready")
		}
		mustApply(t, g, p, Ready{Type: TypeReady}, now)
	}
	if g.round != 3 || !view(g, 0).Deadline.Equal(now.Add(60*time.Second)) {
		t.Fatalf("round %d deadline %v", g.round, view(g, 0).Deadline)
	}
}

// TestNoTimer: with the timer off nothing times out.
func TestNoTimer(t *testing.T) {
	g := newGame(t, 2, rules.Options{"timer": "off"}, 1, threeChoices(5))
	if g.Tick(t0.Add(24*time.Hour)) || !view(g, 0).Deadline.IsZero() {
		t.Fatal("an untimed round timed out")
	}
}

// TestTwoPlayers plays a 2-player round: one prediction and two wagers each.
func TestTwoPlayers(t *testing.T) {
	g := newGame(t, 2, nil, 9, threeChoices(5))
	mustApply(t, g, 0, sub(3, []int{1}, 2, 100, 100), t0)
	mustApply(t, g, 1, sub(2, []int{0}, 3, 100, 25), t0)
	if !slices.Equal(g.points, []int{800, 725}) {
		t.Fatalf("points %v, want [800 725]", g.points)
	}
}

// TestResubmit: a player may change their submission until the reveal.
func TestResubmit(t *testing.T) {
	g := newGame(t, 2, nil, 9, threeChoices(5))
	mustApply(t, g, 0, sub(1, []int{1}, 1, 0, 0), t0)
	mustApply(t, g, 0, sub(3, []int{1}, 2, 100, 0), t0)
	if v := view(g, 0); v.Mine == nil || v.Mine.Answer != 3 {
		t.Fatalf("mine %+v, want the second submission", v.Mine)
	}
	mustApply(t, g, 1, sub(2, []int{0}, 3, 0, 0), t0)
	if g.points[0] != 700 {
		t.Fatalf("points %d, want 700 from the changed submission", g.points[0])
	}
}

// TestDecks: the table's decks decide which questions come up.
func TestDecks(t *testing.T) {
	deck := testDeck(10, 10)
	for _, c := range []struct {
		decks          string
		family, adults int
	}{{"family", 10, 0}, {"adult", 0, 10}, {"family+adult", 10, 10}} {
		g := newGame(t, 2, rules.Options{"decks": c.decks}, 5, deck)
		f, a := 0, 0
		for _, q := range g.deck {
			if q.Deck == DeckFamily {
				f++
			} else {
				a++
			}
		}
		if f != c.family || a != c.adults {
			t.Errorf("%s: %d family %d adult", c.decks, f, a)
		}
	}
	if _, err := New(rules.Setup{Names: names8[:2], Options: rules.Options{"decks": "adult"},
		Content: map[string][]byte{QuestionsFile: testDeck(5, 0)}}); err == nil {
		t.Error("an empty adult deck started a game")
	}
}

// TestPlayerCount: 2 to 8 players.
func TestPlayerCount(t *testing.T) {
	for n := 0; n <= 9; n++ {
		_, err := New(rules.Setup{Names: names8[:min(n, 8)], Content: map[string][]byte{QuestionsFile: testDeck(5, 0)}})
		if n == 9 {
			_, err = New(rules.Setup{Names: append(names8[:8:8], "Ivy"), Content: map[string][]byte{QuestionsFile: testDeck(5, 0)}})
		}
		if ok := n >= 2 && n <= 8; ok != (err == nil) {
			t.Errorf("%d players: %v", n, err)
		}
	}
}

// TestNoRepeats: a game never deals the same question twice.
func TestNoRepeats(t *testing.T) {
	g := newGame(t, 2, nil, 11, testDeck(30, 0))
	seen := map[string]bool{}
	for !view(g, 0).Over {
		if seen[g.question.Text] {
			t.Fatalf("%q dealt twice", g.question.Text)
		}
		seen[g.question.Text] = true
		mustApply(t, g, 0, plain(0, 2), t0)
		mustApply(t, g, 1, plain(1, 2), t0)
		if !view(g, 0).Over {
			mustApply(t, g, 0, Ready{Type: TypeReady}, t0)
			mustApply(t, g, 1, Ready{Type: TypeReady}, t0)
		}
	}
	if len(seen) != 30 {
		t.Fatalf("%d questions dealt, want 30", len(seen))
	}
}
