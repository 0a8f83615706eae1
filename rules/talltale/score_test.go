package talltale

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

func TestSpeedPoints(t *testing.T) {
	for n, want := range map[int][]int{
		0: {},
		1: {3},
		2: {3, 1},
		3: {3, 2, 1},
		5: {3, 2, 2, 2, 1},
	} {
		if got := SpeedPoints(n); !slices.Equal(got, want) {
			t.Errorf("SpeedPoints(%d) = %v, want %v", n, got, want)
		}
	}
}

func TestNarratorPoints(t *testing.T) {
	cases := []struct{ best, found, want int }{
		{7, 0, 7}, {9, 1, 9}, {9, 2, 5}, {8, 2, 4}, {9, 3, 0}, {9, 5, 0}, {0, 0, 0},
	}
	for _, c := range cases {
		if got, rule := NarratorPoints(c.best, c.found); got != c.want || rule == "" {
			t.Errorf("NarratorPoints(%d, %d) = %d %q, want %d", c.best, c.found, got, rule, c.want)
		}
	}
}

// round plays one whole round: the narrator keeps kept and the racers put their tokens
// in the given arrival order (each entry a seat and an illustration).
func round(t *testing.T, g *Game, kept []int, order [][2]int) *Reveal {
	t.Helper()
	setRound(t, g, kept, spare(kept))
	for _, o := range order {
		mustApply(t, g, o[0], Token{Type: "token", Card: o[1]})
	}
	if g.phase != PhaseReveal {
		t.Fatalf("phase %s after all tokens", g.phase)
	}
	return g.reveal
}

// spare is an illustration of the same colour as kept[0] that is not kept.
func spare(kept []int) int {
	for c := kept[0] - kept[0]%PerBoard; ; c++ {
		if !slices.Contains(kept, c) {
			return c
		}
	}
}

// The worked example: a 6-player round in which five tokens land on one illustration.
func TestWorkedRound(t *testing.T) {
	g := newGame(t, 6, 1, nil)
	n := g.narrator
	r := g.othersThan(n) // five racers, in seat order
	kept := []int{0, 1, 2}
	var order [][2]int
	// All five race to illustration 0 first, in order r[0..4].
	for _, s := range r {
		order = append(order, [2]int{s, 0})
	}
	// r[0] and r[1] also find 1 and 2; r[0] is first on both.
	order = append(order, [2]int{r[0], 1}, [2]int{r[1], 1}, [2]int{r[0], 2}, [2]int{r[1], 2})
	// Everyone else misses with illustrations 10 and 11.
	for _, s := range r[2:] {
		order = append(order, [2]int{s, 10}, [2]int{s, 11})
	}
	rev := round(t, g, kept, order)
	// Illustration 0: 3, 2, 2, 2, 1. Illustration 1 and 2: r[0] 3, r[1] 1.
	want := map[int]int{r[0]: 3 + 3 + 3, r[1]: 2 + 1 + 1, r[2]: 2, r[3]: 2, r[4]: 1}
	for s, p := range want {
		if rev.Points[s] != p || g.scores[s] != p {
			t.Errorf("seat %d: round %d total %d, want %d", s, rev.Points[s], g.scores[s], p)
		}
	}
	hits := rev.Kept[0].Hits
	if len(hits) != 5 || hits[0].Seat != r[0] || hits[4].Seat != r[4] || hits[4].Points != 1 {
		t.Errorf("hits on 0: %+v", hits)
	}
	// Exactly two found all three: the narrator gets half of 9, rounded up.
	if rev.NarratorScore != 5 || g.scores[n] != 5 || !strings.Contains(rev.NarratorRule, "half") {
		t.Errorf("narrator %d (%q), total %d", rev.NarratorScore, rev.NarratorRule, g.scores[n])
	}
	if !slices.Equal(rev.FoundAll, []int{r[0], r[1]}) {
		t.Errorf("found all %v", rev.FoundAll)
	}
	// The log keeps why the round scored what it did, after the reveal has gone.
	want1 := fmt.Sprintf("Points: %s +9, %s +4, %s +2, %s +2, %s +1; %s, narrating, +5: exactly two found all three, so half of 9, rounded up.",
		g.names[r[0]], g.names[r[1]], g.names[r[2]], g.names[r[3]], g.names[r[4]], g.names[n])
	if log := g.logFor(rules.Spectator); !slices.Contains(log, want1) {
		t.Errorf("the log lacks %q:\n%s", want1, strings.Join(log, "\n"))
	}
}

func TestNarratorScoring(t *testing.T) {
	// 5 players: 4 racers. found = how many racers find all three.
	for _, c := range []struct {
		found, want int
	}{{0, 3}, {1, 9}, {2, 5}, {3, 0}, {4, 0}} {
		g := newGame(t, 5, 2, nil)
		r := g.othersThan(g.narrator)
		kept := []int{30, 31, 32}
		var order [][2]int
		for i, s := range r {
			if i < c.found {
				order = append(order, [2]int{s, 30}, [2]int{s, 31}, [2]int{s, 32})
			} else if c.found == 0 && i == 0 {
				order = append(order, [2]int{s, 30}, [2]int{s, 40}, [2]int{s, 41})
			} else {
				order = append(order, [2]int{s, 40}, [2]int{s, 41}, [2]int{s, 42})
			}
		}
		rev := round(t, g, kept, order)
		if rev.NarratorScore != c.want || len(rev.FoundAll) != c.found {
			t.Errorf("found %d: narrator %d (%s), want %d", c.found, rev.NarratorScore, rev.NarratorRule, c.want)
		}
	}
}

func TestPenaltyAndFloor(t *testing.T) {
	for _, c := range []struct {
		name          string
		before, found int // narrator's total before; racers finding one illustration
		want          int
	}{
		{"penalty from round points", 0, 1, 1}, // 3 - 2
		{"penalty from total", 4, 0, 2},        // 4 + 0 - 2
		{"floor at zero", 1, 0, 0},             // 1 + 0 - 2 -> 0
		{"floor from nothing", 0, 0, 0},
	} {
		g := newGame(t, 3, 3, rules.Options{OptMode: ModeStrict})
		n := g.narrator
		g.scores[n] = c.before
		g.drawn = []int{3, 0, 1, 2}
		mustApply(t, g, n, Discard{Type: "discard", Card: 3})
		// Strict mode: no warning, the story goes through and the penalty applies.
		mustApply(t, g, n, Story{Type: "story", Text: "Two Apples fell on a CAR."})
		if len(g.forbidden) != 2 {
			t.Fatalf("%s: forbidden words seen: %q, want apples and car", c.name, g.forbidden)
		}
		for i, s := range g.othersThan(n) {
			first := 20
			if i < c.found {
				first = 0
			}
			for _, card := range []int{first, 10 + i*2, 11 + i*2} {
				mustApply(t, g, s, Token{Type: "token", Card: card})
			}
		}
		if g.scores[n] != c.want || g.reveal.Forbidden == "" {
			t.Errorf("%s: narrator has %d, want %d (%+v)", c.name, g.scores[n], c.want, g.reveal)
		}
		// Every forbidden word the story said is named, in the reveal and in the log.
		if got := g.reveal.ForbiddenWords; !slices.Equal(got, []string{"Apples", "CAR"}) && !slices.Equal(got, []string{"apples", "car"}) {
			t.Errorf("%s: the reveal names %q", c.name, got)
		}
		if c.before > 0 && !slices.ContainsFunc(g.log, func(l logLine) bool {
			return strings.Contains(strings.ToLower(l.text), `forbidden words "apples" and "car"`)
		}) {
			t.Errorf("%s: the log does not name both words: %v", c.name, g.log)
		}
	}
}

func TestWarningMode(t *testing.T) {
	g := newGame(t, 3, 4, nil)
	n := g.narrator
	g.drawn = []int{3, 0, 1, 2}
	mustApply(t, g, n, Discard{Type: "discard", Card: 3})
	before := snapshot(t, g)
	err := g.Apply(n, act(Story{Type: "story", Text: "Two apples fell."}), t0)
	if err == nil || !strings.Contains(err.Error(), `"apples"`) || !strings.Contains(err.Error(), "confirm") {
		t.Fatalf("no warning naming the word: %v", err)
	}
	if snapshot(t, g) != before {
		t.Fatal("state changed after the warning")
	}
	// "category" holds "cat" but not as a word: no warning.
	mustApply(t, g, n, Story{Type: "story", Text: "Two apples fell.", Confirm: true})
	if !slices.Equal(g.forbidden, []string{"apples"}) || g.phase != PhaseRace {
		t.Fatalf("confirmed story: forbidden %q phase %s", g.forbidden, g.phase)
	}
}

func TestBoardsInPlay(t *testing.T) {
	for _, c := range []struct {
		kept []int
		want []string
	}{
		{[]int{0, 1, 2}, []string{"red"}},
		{[]int{0, 1, 30}, []string{"red", "blue"}},
		{[]int{99, 0, 30}, []string{"red", "blue", "yellow"}},
		{[]int{60, 55, 99}, []string{"green", "yellow"}},
	} {
		g := newGame(t, 4, 5, nil)
		g.drawn = append([]int{spare(c.kept)}, c.kept...)
		mustApply(t, g, g.narrator, Discard{Type: "discard", Card: g.drawn[0]})
		v := view(g, rules.Spectator)
		var got []string
		for _, b := range v.Boards {
			got = append(got, b.Colour)
			if len(b.Illustrations) != 25 {
				t.Errorf("board %s has %d", b.Colour, len(b.Illustrations))
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("kept %v: boards %v, want %v", c.kept, got, c.want)
		}
		// A token on a board set aside is refused.
		mustApply(t, g, g.narrator, Story{Type: "story", Text: "A tale."})
		for id := 0; id < 100; id += 25 {
			err := g.Apply(g.othersThan(g.narrator)[0], act(Token{Type: "token", Card: id}), t0)
			if in := slices.Contains(c.want, Colours[id/25]); in != (err == nil) {
				t.Errorf("kept %v: token on %d: %v", c.kept, id, err)
			}
		}
	}
}

func TestNarrationCounts(t *testing.T) {
	for players, want := range map[int]int{3: 6, 4: 8, 5: 5, 6: 6} {
		g := newGame(t, players, 6, nil)
		if g.rounds != want {
			t.Errorf("%d players: %d rounds, want %d", players, g.rounds, want)
		}
		count := make([]int, players)
		prev := -1
		for !g.tieBreak && !g.over {
			count[g.narrator]++
			if prev >= 0 && g.narrator != (prev+1)%players {
				t.Errorf("narrator %d after %d: not clockwise", g.narrator, prev)
			}
			prev = g.narrator
			timeOutRound(g)
		}
		for s, c := range count {
			if c != Narrations(players) {
				t.Errorf("%d players: seat %d narrated %d times", players, s, c)
			}
		}
	}
}

// timeOutRound ends the round as if the narrator ran out of time, then ends the reveal.
func timeOutRound(g *Game) {
	g.endRound(t0, true)
	g.next(t0)
}

func TestTimeLimit(t *testing.T) {
	g := newGame(t, 3, 7, rules.Options{OptTimer: "90s"})
	n := g.narrator
	if !g.due().Equal(t0.Add(90 * time.Second)) {
		t.Fatalf("deadline %v", g.due())
	}
	if g.Tick(t0.Add(89 * time.Second)) {
		t.Fatal("tick before the deadline changed something")
	}
	if !g.Tick(t0.Add(90*time.Second)) || !g.reminded || g.phase != PhaseDiscard {
		t.Fatal("no reminder at 90 s")
	}
	if !view(g, 0).Reminded || !g.due().Equal(t0.Add(105*time.Second)) {
		t.Fatalf("reminder: deadline %v", g.due())
	}
	g.scores[n] = 4
	g.Tick(t0.Add(105 * time.Second))
	if g.phase != PhaseReveal || !g.reveal.TimedOut {
		t.Fatalf("phase %s after 105 s", g.phase)
	}
	for s := range g.scores {
		want := TimeoutScore
		if s == n {
			want = 4
		}
		if g.scores[s] != want {
			t.Errorf("seat %d scored %d, want %d", s, g.scores[s], want)
		}
	}
	// The reveal ends by itself and the next narrator draws with a fresh clock.
	g.Tick(t0.Add(105*time.Second + RevealTime))
	if g.phase != PhaseDiscard || g.narrator != (n+1)%3 || g.reminded {
		t.Fatalf("next round: phase %s narrator %d", g.phase, g.narrator)
	}
	// A story sent in the last 15 s counts, and the race has no clock.
	g2 := newGame(t, 3, 7, rules.Options{OptTimer: "90s"})
	g2.Tick(t0.Add(95 * time.Second))
	setRound(t, g2, []int{0, 1, 2}, 3)
	if !g2.due().IsZero() || g2.Tick(t0.Add(time.Hour)) {
		t.Fatal("the race should have no deadline")
	}
	// Without a time limit nothing ever times out.
	g3 := newGame(t, 3, 7, nil)
	if g3.Tick(t0.Add(time.Hour)) || g3.phase != PhaseDiscard {
		t.Fatal("untimed game timed out")
	}
}

// finishRegular plays out the regular rounds by timeouts, then sets the scores.
func finishRegular(g *Game, scores []int) {
	for g.round < g.rounds {
		timeOutRound(g)
	}
	g.endRound(t0, true)
	copy(g.scores, scores)
	g.next(t0)
}

func TestTieBreak(t *testing.T) {
	t.Run("one winner", func(t *testing.T) {
		g := newGame(t, 4, 8, nil)
		finishRegular(g, []int{5, 9, 3, 2})
		if r, over := g.Outcome(); !over || !slices.Equal(r.Winners, []int{1}) || !strings.Contains(r.Summary, "Bob wins") {
			t.Fatalf("outcome %+v %v", r, over)
		}
	})
	t.Run("two tied, narrator outside, settled", func(t *testing.T) {
		g := newGame(t, 4, 8, nil)
		finishRegular(g, []int{9, 9, 3, 2})
		if !g.tieBreak || !slices.Equal(g.racers, []int{0, 1}) || g.narrator < 2 {
			t.Fatalf("tie-break racers %v narrator %d", g.racers, g.narrator)
		}
		if v := view(g, 0); !v.TieBreak || v.Rounds != 0 || !slices.Equal(v.Tied, []int{0, 1}) || !strings.Contains(v.Log[len(v.Log)-1], "Tie-break") {
			t.Fatalf("tie-break view %+v", v.Header)
		}
		// A player outside the tie cannot race.
		outsider := 5 - g.narrator
		if err := g.Apply(outsider, act(Token{Type: "token", Card: 0}), t0); err == nil {
			t.Fatal("outsider raced")
		}
		n := g.narrator
		rev := round(t, g, []int{0, 1, 2}, [][2]int{{0, 0}, {0, 1}, {1, 0}, {0, 5}, {1, 6}, {1, 7}})
		if rev.NarratorScore != 0 || g.scores[n] != []int{9, 9, 3, 2}[n] {
			t.Errorf("tie-break narrator scored %d", rev.NarratorScore)
		}
		g.next(t0)
		if r, _ := g.Outcome(); !slices.Equal(r.Winners, []int{0}) || g.scores[0] != 15 || g.scores[1] != 10 {
			t.Fatalf("outcome %+v scores %v", r, g.scores)
		}
	})
	t.Run("tie-break changes nothing", func(t *testing.T) {
		g := newGame(t, 4, 8, nil)
		finishRegular(g, []int{9, 9, 3, 2})
		round(t, g, []int{0, 1, 2}, [][2]int{{0, 0}, {1, 1}, {1, 5}, {0, 5}, {0, 6}, {1, 7}})
		g.next(t0)
		if r, over := g.Outcome(); !over || !slices.Equal(r.Winners, []int{0, 1}) || !strings.Contains(r.Summary, "share") {
			t.Fatalf("outcome %+v", r)
		}
	})
	t.Run("everyone tied", func(t *testing.T) {
		g := newGame(t, 3, 8, nil)
		finishRegular(g, []int{6, 6, 6})
		if !g.tieBreak || slices.Contains(g.racers, g.narrator) || len(g.racers) != 2 || len(g.tied) != 3 {
			t.Fatalf("racers %v narrator %d tied %v", g.racers, g.narrator, g.tied)
		}
		r := g.racers
		// One racer finds one illustration alone: 3 points, the narrator scores 3 too.
		round(t, g, []int{0, 1, 2}, [][2]int{{r[0], 0}, {r[0], 5}, {r[0], 6}, {r[1], 7}, {r[1], 8}, {r[1], 9}})
		g.next(t0)
		// Now r[0] and the narrator lead with 9: a second tie-break among them.
		if g.over || !g.tieBreak || len(g.tied) != 2 || slices.Contains(g.tied, r[1]) || g.narrator != r[1] {
			t.Fatalf("second tie-break: tied %v narrator %d over %v", g.tied, g.narrator, g.over)
		}
	})
	t.Run("timeout in tie-break", func(t *testing.T) {
		g := newGame(t, 4, 8, nil)
		finishRegular(g, []int{9, 9, 3, 2})
		timeOutRound(g)
		if r, over := g.Outcome(); !over || !slices.Equal(r.Winners, []int{0, 1}) || g.scores[0] != 11 {
			t.Fatalf("outcome %+v scores %v", r, g.scores)
		}
	})
}

// The warning names every forbidden word of the story (the API's players see only this
// error), and says the penalty is paid once.
func TestWarningNamesEveryForbiddenWord(t *testing.T) {
	g := newGame(t, 3, 4, nil)
	n := g.narrator
	g.drawn = []int{3, 0, 1, 2}
	mustApply(t, g, n, Discard{Type: "discard", Card: 3})
	err := g.Apply(n, act(Story{Type: "story", Text: "Two apples fell on a car."}), t0)
	if !errors.Is(err, ErrForbiddenWord) {
		t.Fatalf("no warning: %v", err)
	}
	for _, want := range []string{`"apples"`, `"car"`, "once"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the warning lacks %s: %v", want, err)
		}
	}
}

// A racer's log says their own token once, in their words ("You put a token on …"); the
// others read that the racer placed one, without which illustration.
func TestATokenIsLoggedOncePerReader(t *testing.T) {
	g := newGame(t, 3, 4, nil)
	n := g.narrator
	g.drawn = []int{3, 0, 1, 2}
	mustApply(t, g, n, Discard{Type: "discard", Card: 3})
	mustApply(t, g, n, Story{Type: "story", Text: "A tale."})
	r := g.othersThan(n)
	mustApply(t, g, r[0], Token{Type: "token", Card: 5})
	mine := strings.Join(view(g, r[0]).Log, "\n")
	if !strings.Contains(mine, "You put a token on") || strings.Contains(mine, g.names[r[0]]+" placed token") {
		t.Errorf("the racer's log:\n%s", mine)
	}
	for _, seat := range []int{r[1], n, rules.Spectator} {
		theirs := strings.Join(view(g, seat).Log, "\n")
		if !strings.Contains(theirs, g.names[r[0]]+" placed token 1 of 3") || strings.Contains(theirs, "You put") {
			t.Errorf("seat %d's log:\n%s", seat, theirs)
		}
	}
}
