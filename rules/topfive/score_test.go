package topfive

import (
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

// The rules page's worked example: PoH Sarah; Marie 2 right with a wrong marker, Eric 3
// right with a right marker, Simon perfect.
func TestWorkedExample(t *testing.T) {
	g := newGame(t, seatNames(4), nil, 1)
	if g.honour != 0 {
		t.Fatalf("first Player of Honour is seat %d, want 0 (Sarah)", g.honour)
	}
	now := t0
	mustApply(t, g, 0, NewRank(r5(1, 2, 3, 4, 5), -1), now)
	mustApply(t, g, 1, NewRank(r5(2, 3, 1, 4, 5), 0), now) // Marie: topics 3,4 right; marker on topic 0
	mustApply(t, g, 2, NewRank(r5(1, 2, 3, 5, 4), 1), now) // Eric: 0,1,2 right; marker on 1
	mustApply(t, g, 3, NewRank(r5(1, 2, 3, 4, 5), 4), now) // Simon: all right; marker on 4

	// The reveal goes rank 5, 4, 3, 2, 1, one step a beat.
	for step := 1; step <= Hand; step++ {
		v := view(g, -1)
		if v.Phase != PhaseReveal || len(v.Reveal) != step {
			t.Fatalf("step %d: phase %s with %d rows", step, v.Phase, len(v.Reveal))
		}
		if got := v.Reveal[step-1].Rank; got != Hand+1-step {
			t.Fatalf("step %d reveals rank %d", step, got)
		}
		if v.Tally != nil {
			t.Fatal("scores shown before the reveal ended")
		}
		now = now.Add(g.beat)
		g.Tick(now)
	}
	now = now.Add(g.beat)
	g.Tick(now)
	v := view(g, -1)
	if v.Phase != PhaseResults || v.Tally == nil {
		t.Fatalf("phase %s, tally %v", v.Phase, v.Tally)
	}
	want := []int{7, 2, 4, 7}
	for s, w := range want {
		if got := v.Tally.Lines[s].Points; got != w {
			t.Errorf("%s scored %d, want %d", g.names[s], got, w)
		}
		if v.Scores[s] != w {
			t.Errorf("%s total %d, want %d", g.names[s], v.Scores[s], w)
		}
	}
	if l := v.Tally.Lines[3]; l.Right != 5 || l.Marker != 1 || l.Perfect != 1 {
		t.Errorf("Simon's line %+v", l)
	}
	if l := v.Tally.Lines[1]; l.Right != 2 || l.Marker != 0 {
		t.Errorf("Marie's line %+v", l)
	}
}

func TestGuesserScoring(t *testing.T) {
	poh := ranking{ranks: r5(1, 2, 3, 4, 5)}
	tests := []struct {
		name                            string
		guess                           [Hand]int
		marker                          int
		right, markerPts, perfect, want int
	}{
		{"marker right", r5(2, 1, 3, 4, 5), 2, 3, 1, 0, 4},
		{"marker wrong", r5(2, 1, 3, 4, 5), 0, 3, 0, 0, 3},
		{"perfect", r5(1, 2, 3, 4, 5), 0, 5, 1, 1, 7},
		{"all wrong", r5(5, 4, 1, 2, 3), 0, 0, 0, 0, 0},
		{"one right, marker on it", r5(1, 3, 4, 5, 2), 0, 1, 1, 0, 2},
		{"reversed: only the middle", r5(5, 4, 3, 2, 1), 2, 1, 1, 0, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := scoreGuess(poh, ranking{ranks: tc.guess, marker: tc.marker})
			if l.Right != tc.right || l.Marker != tc.markerPts || l.Perfect != tc.perfect || l.Points != tc.want {
				t.Errorf("got %+v", l)
			}
		})
	}
}

func TestHonourScoresAsBestGuesser(t *testing.T) {
	g := newGame(t, seatNames(3), nil, 2)
	now := playRound(t, g, t0, map[int]Rank{
		0: NewRank(r5(1, 2, 3, 4, 5), -1),
		1: NewRank(r5(2, 1, 3, 4, 5), 2), // 3 right + marker = 4
		2: NewRank(r5(5, 4, 1, 2, 3), 0), // 0
	})
	if got := g.totals; got[0] != 4 || got[1] != 4 || got[2] != 0 {
		t.Fatalf("round 1 totals %v, want [4 4 0]", got)
	}
	now = nextRound(t, g, now)
	if g.honour != 1 {
		t.Fatalf("round 2 Player of Honour is seat %d, want 1", g.honour)
	}
	playRound(t, g, now, map[int]Rank{
		1: NewRank(r5(1, 2, 3, 4, 5), -1),
		0: NewRank(r5(1, 2, 3, 5, 4), 4), // 3 right, marker wrong = 3
		2: NewRank(r5(1, 2, 4, 3, 5), 0), // 3 right + marker = 4
	})
	if got := g.totals; got[0] != 7 || got[1] != 8 || got[2] != 4 {
		t.Fatalf("round 2 totals %v, want [7 8 4]", got)
	}
}

func TestRotation(t *testing.T) {
	for _, n := range []int{3, 4, 5, 6, 7, 8} {
		g := newGame(t, seatNames(n), nil, uint64(n))
		times := 1
		if n <= 4 {
			times = 2
		}
		if g.rounds != n*times {
			t.Fatalf("%d players: %d rounds, want %d", n, g.rounds, n*times)
		}
		count := make([]int, n)
		now := t0
		for round := 1; ; round++ {
			if g.round != round || g.honour != (round-1)%n {
				t.Fatalf("%d players: round %d has Player of Honour %d", n, g.round, g.honour)
			}
			count[g.honour]++
			rk := map[int]Rank{}
			for s := range n {
				m := 0
				if s == g.honour {
					m = -1
				}
				rk[s] = NewRank(r5(1, 2, 3, 4, 5), m)
			}
			now = playRound(t, g, now, rk)
			if g.phase == PhaseOver {
				break
			}
			now = nextRound(t, g, now)
		}
		for s, c := range count {
			if c != times {
				t.Errorf("%d players: seat %d was Player of Honour %d times, want %d", n, s, c, times)
			}
		}
		res, ok := g.Outcome()
		if !ok || len(res.Winners) != n {
			t.Errorf("%d players, everyone perfect: winners %v (%v)", n, res.Winners, ok)
		}
	}
}

func TestDuoOverTenRounds(t *testing.T) {
	g := newGame(t, []string{"Ann", "Ben"}, rules.Options{OptVariant: VariantDuo}, 3)
	if g.rounds != DuoRounds {
		t.Fatalf("duo has %d rounds", g.rounds)
	}
	// Ben matches Ann on round%6 topics (0,1,2,3,5 — four matches are impossible).
	ben := [][Hand]int{r5(5, 4, 1, 2, 3), r5(1, 3, 4, 5, 2), r5(1, 2, 4, 5, 3), r5(1, 2, 3, 5, 4), r5(2, 1, 3, 4, 5), r5(1, 2, 3, 4, 5)}
	matched := []int{0, 1, 2, 3, 3, 5}
	want, now := 0, t0
	for round := 0; round < DuoRounds; round++ {
		v := view(g, 0)
		if v.Role != RoleDuo || v.Honour != -1 || v.Variant != VariantDuo {
			t.Fatalf("duo view %+v", v)
		}
		k := round % len(ben)
		now = playRound(t, g, now, map[int]Rank{0: NewRank(r5(1, 2, 3, 4, 5), -1), 1: NewRank(ben[k], -1)})
		want += matched[k]
		if g.tally.Joint != matched[k] {
			t.Fatalf("round %d: joint %d, want %d", round+1, g.tally.Joint, matched[k])
		}
		if g.totals[0] != want || g.totals[1] != want {
			t.Fatalf("round %d: totals %v, want %d each", round+1, g.totals, want)
		}
		if g.phase == PhaseOver {
			break
		}
		now = nextRound(t, g, now)
	}
	res, ok := g.Outcome()
	// A duo scores together: the game is played, not won, so it has no winners.
	if !ok || res.Scores[0] != want || len(res.Winners) != 0 || res.Summary != "Together Ann and Ben scored 20 of 50" {
		t.Fatalf("duo outcome %+v %v (want %d)", res, ok, want)
	}
}

func TestTiesShareTheWin(t *testing.T) {
	g := newGame(t, seatNames(3), nil, 4)
	g.totals = []int{5, 9, 9}
	g.phase = PhaseOver
	res, _ := g.Outcome()
	if len(res.Winners) != 2 || res.Winners[0] != 1 || res.Winners[1] != 2 || res.Summary != "Marie and Eric share the win with 9 points" {
		t.Fatalf("%+v", res)
	}
}

func TestTimeouts(t *testing.T) {
	opts := rules.Options{OptTimer: "60s"}
	t.Run("late Guesser scores 0", func(t *testing.T) {
		g := newGame(t, seatNames(3), opts, 5)
		mustApply(t, g, 0, NewRank(r5(1, 2, 3, 4, 5), -1), t0)
		mustApply(t, g, 1, NewRank(r5(1, 2, 3, 4, 5), 0), t0)
		if g.Tick(t0.Add(59 * time.Second)) {
			t.Fatal("tick before the deadline changed something")
		}
		if !g.Tick(t0.Add(60 * time.Second)) {
			t.Fatal("deadline tick changed nothing")
		}
		v := view(g, 2)
		if v.Phase != PhaseReveal || v.Reveal[0].Guesses[1].Rank != 0 || v.Reveal[0].Guesses[1].Seat != 2 {
			t.Fatalf("late Guesser in reveal: %+v", v.Reveal)
		}
		runReveal(t, g, t0.Add(60*time.Second))
		if got := g.totals; got[0] != 7 || got[1] != 7 || got[2] != 0 {
			t.Fatalf("totals %v, want [7 7 0]", got)
		}
		if g.tally.Lines[2].Submitted {
			t.Fatal("late Guesser marked as submitted")
		}
	})
	t.Run("late Player of Honour forfeits the round", func(t *testing.T) {
		g := newGame(t, seatNames(3), opts, 6)
		mustApply(t, g, 1, NewRank(r5(1, 2, 3, 4, 5), 0), t0)
		mustApply(t, g, 2, NewRank(r5(1, 2, 3, 4, 5), 0), t0)
		now := t0.Add(time.Minute)
		g.Tick(now)
		v := view(g, 1)
		if v.Phase != PhaseResults || v.Tally == nil || !v.Tally.Forfeit || len(v.Reveal) != 0 {
			t.Fatalf("after a forfeit: phase %s tally %+v reveal %v", v.Phase, v.Tally, v.Reveal)
		}
		for s, sc := range g.totals {
			if sc != 0 {
				t.Fatalf("seat %d scored %d in a forfeited round", s, sc)
			}
		}
		nextRound(t, g, now)
		if g.round != 2 || g.honour != 1 {
			t.Fatalf("after a forfeit: round %d, Player of Honour %d", g.round, g.honour)
		}
	})
	t.Run("late duo player forfeits the round", func(t *testing.T) {
		g := newGame(t, []string{"Ann", "Ben"}, rules.Options{OptVariant: VariantDuo, OptTimer: "30s"}, 7)
		mustApply(t, g, 0, NewRank(r5(1, 2, 3, 4, 5), -1), t0)
		g.Tick(t0.Add(30 * time.Second))
		if g.phase != PhaseResults || !g.tally.Forfeit || g.totals[0] != 0 {
			t.Fatalf("phase %s tally %+v", g.phase, g.tally)
		}
	})
	t.Run("no timer, no deadline", func(t *testing.T) {
		g := newGame(t, seatNames(3), rules.Options{OptTimer: "off"}, 8)
		if !view(g, 0).Deadline.IsZero() || g.Tick(t0.Add(24*time.Hour)) {
			t.Fatal("an untimed ranking timed out")
		}
	})
}

func TestReadySkipsThePause(t *testing.T) {
	g := newGame(t, seatNames(3), nil, 9)
	now := playRound(t, g, t0, map[int]Rank{
		0: NewRank(r5(1, 2, 3, 4, 5), -1), 1: NewRank(r5(1, 2, 3, 4, 5), 0), 2: NewRank(r5(1, 2, 3, 4, 5), 0)})
	mustApply(t, g, 0, Ready{Type: TypeReady}, now)
	mustApply(t, g, 1, Ready{Type: TypeReady}, now)
	if v := view(g, 0); v.Phase != PhaseResults || len(v.Waiting) != 1 || v.Waiting[0] != 2 {
		t.Fatalf("waiting %v in %s", v.Waiting, v.Phase)
	}
	mustApply(t, g, 2, Ready{Type: TypeReady}, now)
	if g.phase != PhaseRanking || g.round != 2 {
		t.Fatalf("all ready: phase %s round %d", g.phase, g.round)
	}
}

func TestNewChecksPlayers(t *testing.T) {
	deck := map[string][]byte{TopicsFile: testDeck()}
	for _, tc := range []struct {
		n  int
		v  string
		ok bool
	}{{2, VariantClassic, false}, {3, VariantClassic, true}, {8, VariantClassic, true}, {9, VariantClassic, false},
		{2, VariantDuo, true}, {3, VariantDuo, false}} {
		_, err := New(rules.Setup{Names: make([]string, tc.n), Options: rules.Options{OptVariant: tc.v}, Content: deck})
		if (err == nil) != tc.ok {
			t.Errorf("%d players, %s: err %v", tc.n, tc.v, err)
		}
	}
	if _, err := New(rules.Setup{Names: make([]string, 3), Content: map[string][]byte{TopicsFile: []byte("a\nb\n")}}); err == nil {
		t.Error("a tiny deck was accepted")
	}
	if s, ok := rules.Lookup(ID); !ok || s.Name != "Top Five" {
		t.Error("not registered")
	}
}

func TestNoTopicRepeats(t *testing.T) {
	g := newGame(t, seatNames(8), nil, 10)
	seen := map[string]bool{}
	for _, tp := range g.deck[:g.rounds*Hand] {
		if seen[tp] {
			t.Fatalf("%q dealt twice", tp)
		}
		seen[tp] = true
	}
}

// A small pack mixed with the built-in topics is dealt first.
func TestAMixedPackIsDealtFirst(t *testing.T) {
	pack := []byte("Pack one\nPack two\nPack three\nPack four\nPack five\nPack six\n")
	g, err := New(rules.Setup{Names: seatNames(3), Seed: 5, Now: t0,
		Content: map[string][]byte{TopicsFile: pack, rules.Builtin(TopicsFile): testDeck()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, topic := range g.topics {
		if !strings.HasPrefix(topic, "Pack ") {
			t.Errorf("round 1 deals %q, not a topic of the pack: %v", topic, g.topics)
		}
	}
}

// ScoreGuess is the tally's own scoring, for a checker recomputing a revealed round: the
// worked example's three Guessers.
func TestScoreGuess(t *testing.T) {
	honour := [Hand]int{1, 2, 3, 4, 5}
	for _, tc := range []struct {
		name   string
		guess  [Hand]int
		marker int
		want   Line
	}{
		{"Marie", [Hand]int{2, 3, 1, 4, 5}, 0, Line{Role: RoleGuesser, Submitted: true, Right: 2, Points: 2}},
		{"Eric", [Hand]int{1, 2, 3, 5, 4}, 1, Line{Role: RoleGuesser, Submitted: true, Right: 3, Marker: 1, Points: 4}},
		{"Simon", [Hand]int{1, 2, 3, 4, 5}, 4, Line{Role: RoleGuesser, Submitted: true, Right: 5, Marker: 1, Perfect: 1, Points: 7}},
	} {
		if got := ScoreGuess(honour, tc.guess, tc.marker); got != tc.want {
			t.Errorf("%s: ScoreGuess = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
