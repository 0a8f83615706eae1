package fingertip

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

func TestPileSizeByPlayers(t *testing.T) {
	for _, tc := range []struct{ players, cards int }{{3, 41}, {4, 51}, {5, 61}, {6, 71}} {
		g := newGame(t, tc.players, 7, nil)
		v := view(g, 0)
		if got := v.Pile + 9; got != tc.cards {
			t.Errorf("%d players: %d cards in play, want %d", tc.players, got, tc.cards)
		}
		seen := map[int]bool{}
		for _, c := range v.Square {
			if c.Empty || seen[c.Card] || c.Picture != 2*c.Card && c.Picture != 2*c.Card+1 {
				t.Errorf("%d players: bad square card %+v", tc.players, c)
			}
			seen[c.Card] = true
		}
		conserved(t, g)
	}
}

func TestNewRejects(t *testing.T) {
	for _, n := range []int{0, 2, 7} {
		_, err := New(rules.Setup{Names: make([]string, n), Content: map[string][]byte{ContentFile: testPictures()}})
		if err == nil || !strings.Contains(err.Error(), "3 to 6 players") {
			t.Errorf("%d players: %v", n, err)
		}
	}
	if _, err := New(rules.Setup{Names: names6[:3]}); err == nil {
		t.Error("missing content accepted")
	}
	if _, err := New(rules.Setup{Names: names6[:3], Content: map[string][]byte{ContentFile: []byte("== x\nart\n")}}); !errors.Is(err, ErrContent) {
		t.Errorf("short content: %v", err)
	}
}

func TestSidesAndFirstPlayerComeFromSeed(t *testing.T) {
	actives, sides := map[int]bool{}, map[int]bool{}
	for seed := range uint64(40) {
		g := newGame(t, 4, seed, nil)
		actives[g.active] = true
		for _, s := range g.square {
			sides[s.side] = true
		}
	}
	if len(actives) != 4 || len(sides) != 2 {
		t.Errorf("first active players %v, sides %v: want all seats and both sides", actives, sides)
	}
}

func TestTargetOnlyInActiveView(t *testing.T) {
	g := newGame(t, 4, 1, nil)
	for s := -1; s < 4; s++ {
		v := view(g, s)
		if (v.Target != 0) != (s == g.active) {
			t.Errorf("seat %d (active %d) sees target %d", s, g.active, v.Target)
		}
	}
	if view(g, g.active).Target != g.target+1 {
		t.Error("active player sees the wrong target")
	}
}

func TestClueOpensRace(t *testing.T) {
	g := newGame(t, 3, 2, nil)
	mustApply(t, g, g.active, Clue{Type: TypeClue, Text: "  far  away\n"}, t0.Add(time.Second))
	v := view(g, -1)
	if v.Phase != PhaseRace || v.Clue != "far away" {
		t.Fatalf("phase %q clue %q", v.Phase, v.Clue)
	}
	if !v.Deadline.Equal(t0.Add(61 * time.Second)) {
		t.Errorf("race deadline %v, want 60 s after the clue", v.Deadline)
	}
	if !slices.Equal(v.Waiting, guessers(g)) && len(v.Waiting) != 2 {
		t.Errorf("waiting %v", v.Waiting)
	}
}

func TestFirstArrivalKeepsContestedCard(t *testing.T) {
	g := newGame(t, 4, 3, nil)
	mustApply(t, g, g.active, Clue{Type: TypeClue, Text: "dream"}, t0)
	gs, wrong := guessers(g), wrongPositions(g)
	mustApply(t, g, gs[0], Point{Type: TypePoint, Position: wrong[0]}, t0.Add(time.Second))
	before := snapshot(t, g)
	err := g.Apply(gs[1], act(Point{Type: TypePoint, Position: wrong[0]}), t0.Add(2*time.Second))
	if !errors.Is(err, ErrTaken) || !strings.Contains(err.Error(), "pick another") || !strings.Contains(err.Error(), g.names[gs[0]]) {
		t.Fatalf("contested card: %v", err)
	}
	if snapshot(t, g) != before {
		t.Fatal("a jinx changed the state")
	}
	if v := view(g, gs[1]); !v.InRace || v.Players[gs[1]].Out {
		t.Fatal("the second to arrive was eliminated")
	}
	// The jinxed player may point again; on the target, the race is won.
	mustApply(t, g, gs[1], Point{Type: TypePoint, Position: g.target + 1}, t0.Add(3*time.Second))
	if g.phase != PhaseReveal || g.last.Finder != gs[1] {
		t.Fatalf("phase %s last %+v", g.phase, g.last)
	}
	// A contested target: the first finger ends the turn, the second comes too late.
	if err := g.Apply(gs[2], act(Point{Type: TypePoint, Position: g.target + 1}), t0.Add(3*time.Second)); !errors.Is(err, ErrNotNow) {
		t.Fatalf("late pointing: %v", err)
	}
}

func TestWrongPointingEliminates(t *testing.T) {
	g := newGame(t, 4, 4, nil)
	mustApply(t, g, g.active, Clue{Type: TypeClue, Text: "dream"}, t0)
	gs, wrong := guessers(g), wrongPositions(g)
	mustApply(t, g, gs[0], Point{Type: TypePoint, Position: wrong[3]}, t0)
	v := view(g, gs[0])
	if v.InRace || !v.Players[gs[0]].Out || v.Square[wrong[3]-1].Answer != "no" || v.Square[wrong[3]-1].Finger != gs[0] {
		t.Fatalf("after a wrong card: %+v", v.Players)
	}
	if !strings.Contains(v.Prompt, "out") || !strings.Contains(strings.Join(v.Log, "\n"), "points at") {
		t.Errorf("prompt %q log %v", v.Prompt, v.Log)
	}
	if slices.Contains(v.Waiting, gs[0]) {
		t.Error("an eliminated player is still waited for")
	}
	before := snapshot(t, g)
	if err := g.Apply(gs[0], act(Point{Type: TypePoint, Position: g.target + 1}), t0); !errors.Is(err, ErrOut) {
		t.Fatalf("second pointing: %v", err)
	}
	if snapshot(t, g) != before {
		t.Fatal("state changed")
	}
}

func TestTurnScoring(t *testing.T) {
	// Five players: two wrong cards, then the target. The finder takes the target, the
	// active player exactly the two wrong cards, nobody else anything.
	g := newGame(t, 5, 5, nil)
	active := g.active
	mustApply(t, g, active, Clue{Type: TypeClue, Text: "echo"}, t0)
	gs, wrong := guessers(g), wrongPositions(g)
	wrongCards := []int{g.square[wrong[1]-1].card, g.square[wrong[5]-1].card}
	targetCard := g.square[g.target].card
	mustApply(t, g, gs[0], Point{Type: TypePoint, Position: wrong[1]}, t0)
	mustApply(t, g, gs[1], Point{Type: TypePoint, Position: wrong[5]}, t0)
	mustApply(t, g, gs[3], Point{Type: TypePoint, Position: g.target + 1}, t0)
	if !slices.Equal(g.held[active], wrongCards) || !slices.Equal(g.held[gs[3]], []int{targetCard}) {
		t.Fatalf("held %v", g.held)
	}
	v := view(g, gs[2])
	want := make([]int, 5)
	want[active], want[gs[3]] = 2, 1
	if !slices.Equal(v.Scores, want) || !slices.Equal(v.LastTurn.Taken, want) {
		t.Fatalf("scores %v taken %v, want %v", v.Scores, v.LastTurn.Taken, want)
	}
	if v.Target != g.target+1 || !v.Square[g.target].Target || v.Square[g.target].TakenBy != gs[3] ||
		v.LastTurn.Returned || v.LastTurn.Ending != EndFound || !slices.Equal(v.LastTurn.Wrong, []int{wrong[1], wrong[5]}) {
		t.Fatalf("reveal view %+v", v.LastTurn)
	}
	if v.Phase != PhaseReveal || !v.Deadline.Equal(t0.Add(RevealTime)) {
		t.Fatalf("phase %s deadline %v", v.Phase, v.Deadline)
	}
	conserved(t, g)
	// Refill: the three empty places take the top three cards of the pile, in order.
	top := slices.Clone(g.pile[:3])
	pile := len(g.pile)
	if g.Tick(t0.Add(RevealTime - time.Millisecond)) {
		t.Fatal("reveal ended early")
	}
	if !g.Tick(t0.Add(RevealTime)) {
		t.Fatal("reveal did not end")
	}
	var got []int
	for _, p := range append(slices.Clone(wrong[1:2]), wrong[5]) {
		got = append(got, g.square[p-1].card)
	}
	got = append(got, g.square[view(g, -1).LastTurn.Target-1].card)
	slices.Sort(got)
	slices.Sort(top)
	if !slices.Equal(got, top) || len(g.pile) != pile-3 {
		t.Fatalf("refilled with %v, want %v", got, top)
	}
	if g.active != (active+1)%5 || g.phase != PhaseClue || g.turn != 2 {
		t.Fatalf("next turn: active %d phase %s turn %d", g.active, g.phase, g.turn)
	}
	conserved(t, g)
}

// TestPenaltyWhenAllFail: when every guesser points wrongly nobody takes a card: the
// wrong cards are discarded with the target, and the active player gives back the last
// card it took (rules: "Scoring", as corrected: the wrong cards are taken only when the
// target is found).
func TestPenaltyWhenAllFail(t *testing.T) {
	g := newGame(t, 3, 6, nil)
	active := g.active
	earlier := g.pile[0]
	g.pile = g.pile[1:]
	g.held[active] = []int{earlier} // a card taken on an earlier turn
	mustApply(t, g, active, Clue{Type: TypeClue, Text: "echo"}, t0)
	gs, wrong := guessers(g), wrongPositions(g)
	targetCard := g.square[g.target].card
	wrongCards := []int{g.square[wrong[0]-1].card, g.square[wrong[1]-1].card}
	pile := len(g.pile)
	mustApply(t, g, gs[0], Point{Type: TypePoint, Position: wrong[0]}, t0)
	mustApply(t, g, gs[1], Point{Type: TypePoint, Position: wrong[1]}, t0)
	if len(g.held[active]) != 0 || g.pile[len(g.pile)-1] != earlier || len(g.pile) != pile+1 {
		t.Fatalf("held %v pile bottom %v", g.held[active], g.pile[len(g.pile)-1])
	}
	discarded := slices.Sorted(slices.Values(g.discarded))
	if want := slices.Sorted(slices.Values(append(wrongCards, targetCard))); !slices.Equal(discarded, want) {
		t.Fatalf("discarded %v, want %v", discarded, want)
	}
	v := view(g, -1)
	if !v.LastTurn.Returned || v.LastTurn.Finder != -1 || v.LastTurn.Taken[active] != -1 || v.LastTurn.Ending != EndAllWrong || v.Discarded != 3 {
		t.Fatalf("last turn %+v", v.LastTurn)
	}
	if !slices.Equal(v.LastTurn.Wrong, wrong[:2]) {
		t.Fatalf("wrong %v, want %v", v.LastTurn.Wrong, wrong[:2])
	}
	for _, p := range wrong[:2] {
		if c := v.Square[p-1]; c.Leaves != "discarded" || c.TakenBy != -1 {
			t.Fatalf("wrong card %d in the reveal: %+v", p, c)
		}
	}
	want := fmt.Sprintf("Nobody found card %d; it and 2 wrong cards are discarded. %s gives a card back.", g.target+1, g.names[active])
	if v.LastTurn.Summary != want {
		t.Fatalf("summary %q, want %q", v.LastTurn.Summary, want)
	}
	if got := v.Sheet.Last; !slices.Contains(got, g.names[active]+" (clue-giver): 1 card given back = -1.") {
		t.Fatalf("score sheet %q", got)
	}
	conserved(t, g)
}

// TestAClueNobodyFindsNeverPays: with the race timer off, a clue that fits no picture
// every turn (every guesser points wrongly) never raises the active player's score; it
// used to earn the wrong cards less one given back, +1 a turn.
func TestAClueNobodyFindsNeverPays(t *testing.T) {
	g := newGame(t, 3, 7, rules.Options{OptRaceTime: "off"})
	now := t0
	for turn := range 6 {
		active := g.active
		before := len(g.held[active])
		mustApply(t, g, active, Clue{Type: TypeClue, Text: "xyzzy"}, now)
		gs, wrong := guessers(g), wrongPositions(g)
		mustApply(t, g, gs[0], Point{Type: TypePoint, Position: wrong[0]}, now)
		mustApply(t, g, gs[1], Point{Type: TypePoint, Position: wrong[1]}, now)
		v := view(g, -1)
		if got := len(g.held[active]); got > before || v.Scores[active] > before {
			t.Fatalf("turn %d: %s went from %d to %d cards: %q", turn+1, g.names[active], before, got, v.LastTurn.Summary)
		}
		want := fmt.Sprintf("Nobody found card %d; it and 2 wrong cards are discarded. %s has no card to give back.", g.target+1, g.names[active])
		if v.LastTurn.Summary != want || v.LastTurn.Returned || slices.Max(v.LastTurn.Taken) != 0 {
			t.Fatalf("turn %d: %+v, want the summary %q", turn+1, v.LastTurn, want)
		}
		conserved(t, g)
		now = now.Add(RevealTime)
		g.Tick(now)
	}
	if got := slices.Max(view(g, -1).Scores); got != 0 {
		t.Fatalf("scores %v after six turns nobody found", view(g, -1).Scores)
	}
}

func TestRaceTimeUp(t *testing.T) {
	t.Run("empty pile: nothing to give back", func(t *testing.T) {
		g := newGame(t, 3, 8, rules.Options{OptRaceTime: "30s"})
		active := g.active
		mustApply(t, g, active, Clue{Type: TypeClue, Text: "echo"}, t0)
		if g.Tick(t0.Add(29 * time.Second)) {
			t.Fatal("early")
		}
		// Pointing at the target after the deadline meets the race as its time limit
		// left it: over, nobody found the target. The deadline acts once.
		timedOut := newGame(t, 3, 8, rules.Options{OptRaceTime: "30s"})
		mustApply(t, timedOut, active, Clue{Type: TypeClue, Text: "echo"}, t0)
		if !timedOut.Tick(t0.Add(30 * time.Second)) {
			t.Fatal("race did not time out")
		}
		if err := g.Apply(guessers(g)[0], act(Point{Type: TypePoint, Position: g.target + 1}), t0.Add(30*time.Second)); !errors.Is(err, ErrNotNow) {
			t.Fatalf("pointing after the deadline: %v", err)
		}
		if snapshot(t, g) != snapshot(t, timedOut) {
			t.Fatal("a late point changed more than the deadline did")
		}
		if g.Tick(t0.Add(30 * time.Second)) {
			t.Fatal("the race timed out twice")
		}
		v := view(g, -1)
		if v.Phase != PhaseReveal || v.LastTurn.Ending != EndTimeUp || v.LastTurn.Returned || v.Scores[active] != 0 || v.Discarded != 1 {
			t.Fatalf("after time up: %+v", v.LastTurn)
		}
		for _, p := range v.Players {
			if p.Seat != active && !p.Out {
				t.Errorf("%s still in the race", p.Name)
			}
		}
		conserved(t, g)
	})
	t.Run("one wrong card, then time up: discarded with the target", func(t *testing.T) {
		g := newGame(t, 4, 9, nil)
		active := g.active
		mustApply(t, g, active, Clue{Type: TypeClue, Text: "echo"}, t0)
		mustApply(t, g, guessers(g)[0], Point{Type: TypePoint, Position: wrongPositions(g)[0]}, t0)
		g.Tick(t0.Add(60 * time.Second))
		v := view(g, -1)
		if v.LastTurn.Ending != EndTimeUp || v.LastTurn.Returned || v.Scores[active] != 0 || v.Pile != 51-9 || v.Discarded != 2 {
			t.Fatalf("after time up: %+v pile %d discarded %d", v.LastTurn, v.Pile, v.Discarded)
		}
		conserved(t, g)
	})
	t.Run("race timer off", func(t *testing.T) {
		g := newGame(t, 3, 8, rules.Options{OptRaceTime: "off"})
		mustApply(t, g, g.active, Clue{Type: TypeClue, Text: "echo"}, t0)
		if !view(g, 0).Deadline.IsZero() || g.Tick(t0.Add(24*time.Hour)) {
			t.Fatal("an untimed race timed out")
		}
	})
}

func TestClueTimeUp(t *testing.T) {
	g := newGame(t, 3, 10, rules.Options{OptClueTime: "30s"})
	active := g.active
	square := g.square
	if !view(g, 0).Deadline.Equal(t0.Add(30 * time.Second)) {
		t.Fatal("no clue deadline")
	}
	// A clue sent after the clue time meets the next turn, which is not its sender's.
	if err := g.Apply(active, act(Clue{Type: TypeClue, Text: "late"}), t0.Add(31*time.Second)); !errors.Is(err, ErrNotYourTurn) {
		t.Fatalf("late clue: %v", err)
	}
	if g.Tick(t0.Add(31 * time.Second)) {
		t.Fatal("the clue timed out twice")
	}
	v := view(g, -1)
	if g.active != (active+1)%3 || v.Phase != PhaseClue || g.square != square || slices.Max(v.Scores) != 0 || v.LastTurn.Ending != EndNoClue {
		t.Fatalf("after clue time up: active %d phase %s", g.active, v.Phase)
	}
	if !v.Deadline.Equal(t0.Add(61 * time.Second)) {
		t.Errorf("next clue deadline %v", v.Deadline)
	}
	off := newGame(t, 3, 10, rules.Options{OptClueTime: "off"})
	if off.Tick(t0.Add(24 * time.Hour)) {
		t.Error("untimed clue timed out")
	}
}

func TestGameEndsWhenSquareCannotBeFilled(t *testing.T) {
	g := newGame(t, 3, 11, nil)
	g.pile = g.pile[:1] // leave one card: a turn that empties two places ends the game
	g.total = 1 + 9
	active := g.active
	mustApply(t, g, active, Clue{Type: TypeClue, Text: "echo"}, t0)
	gs := guessers(g)
	mustApply(t, g, gs[0], Point{Type: TypePoint, Position: wrongPositions(g)[0]}, t0)
	mustApply(t, g, gs[1], Point{Type: TypePoint, Position: g.target + 1}, t0)
	g.Tick(t0.Add(RevealTime))
	v := view(g, -1)
	if !v.Over || v.Phase != PhaseOver || v.Result == nil {
		t.Fatalf("not over: %+v", v.Header)
	}
	res, over := g.Outcome()
	want := []int{active, gs[1]}
	slices.Sort(want)
	if !over || !slices.Equal(res.Winners, want) || !strings.Contains(res.Summary, "share the victory with 1 card each") {
		t.Fatalf("outcome %+v", res)
	}
	if err := g.Apply(gs[0], act(Point{Type: TypePoint, Position: 1}), t0); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("after the end: %v", err)
	}
	if g.Tick(t0.Add(time.Hour)) {
		t.Fatal("tick after the end")
	}
	conserved(t, g)
}

func TestSingleWinner(t *testing.T) {
	g := newGame(t, 3, 12, nil)
	g.held = [][]int{{1, 2}, {3}, {}}
	g.phase = PhaseOver
	res, _ := g.Outcome()
	if !slices.Equal(res.Winners, []int{0}) || res.Summary != "Ann wins with 2 cards" || !slices.Equal(res.Scores, []int{2, 1, 0}) {
		t.Fatalf("%+v", res)
	}
}

func TestInvalidActions(t *testing.T) {
	type step struct {
		name  string
		seat  func(g *Game) int
		raw   func(g *Game) string
		phase string
		want  error
	}
	active := func(g *Game) int { return g.active }
	guesser := func(g *Game) int { return guessers(g)[0] }
	other := func(g *Game) int { return guessers(g)[1] }
	fixed := func(s string) func(*Game) string { return func(*Game) string { return s } }
	point := func(p func(g *Game) int) func(*Game) string {
		return func(g *Game) string { return string(act(Point{Type: TypePoint, Position: p(g)})) }
	}
	for _, tc := range []step{
		{"spectator", func(*Game) int { return -1 }, fixed(`{"type":"clue","text":"x"}`), PhaseClue, rules.ErrSpectator},
		{"seat out of range", func(*Game) int { return 3 }, fixed(`{"type":"clue","text":"x"}`), PhaseClue, rules.ErrNoSuchSeat},
		{"negative seat", func(*Game) int { return -2 }, fixed(`{"type":"clue","text":"x"}`), PhaseClue, rules.ErrNoSuchSeat},
		{"not JSON", active, fixed(`clue`), PhaseClue, rules.ErrBadAction},
		{"no type", active, fixed(`{"text":"x"}`), PhaseClue, rules.ErrBadAction},
		{"unknown type", active, fixed(`{"type":"pass"}`), PhaseClue, rules.ErrUnknownAction},
		{"unknown field", active, fixed(`{"type":"clue","text":"x","card":3}`), PhaseClue, rules.ErrBadAction},
		{"trailing data", active, fixed(`{"type":"clue","text":"x"} {}`), PhaseClue, rules.ErrBadAction},
		{"wrong field type", guesser, fixed(`{"type":"point","position":"3"}`), PhaseRace, rules.ErrBadAction},
		{"clue by a guesser", guesser, fixed(`{"type":"clue","text":"x"}`), PhaseClue, ErrNotYourTurn},
		{"empty clue", active, fixed(`{"type":"clue","text":" \n\t "}`), PhaseClue, ErrEmptyClue},
		{"long clue", active, fixed(`{"type":"clue","text":"` + strings.Repeat("é", 81) + `"}`), PhaseClue, ErrLongClue},
		{"point before the clue", guesser, point(func(*Game) int { return 1 }), PhaseClue, ErrNotNow},
		{"second clue", active, fixed(`{"type":"clue","text":"again"}`), PhaseRace, ErrNotNow},
		{"active player points", active, point(func(g *Game) int { return g.target + 1 }), PhaseRace, ErrActive},
		{"position 0", guesser, point(func(*Game) int { return 0 }), PhaseRace, ErrNoCard},
		{"position 10", guesser, point(func(*Game) int { return 10 }), PhaseRace, ErrNoCard},
		{"card with a finger", other, point(func(g *Game) int { return wrongPositions(g)[0] }), PhaseRace, ErrTaken},
		{"out player points again", guesser, point(func(g *Game) int { return wrongPositions(g)[1] }), PhaseRace, ErrOut},
		{"point during the reveal", other, point(func(g *Game) int { return 1 }), PhaseReveal, ErrNotNow},
		{"clue during the reveal", active, fixed(`{"type":"clue","text":"x"}`), PhaseReveal, ErrNotNow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, 3, 13, nil)
			if tc.phase != PhaseClue {
				mustApply(t, g, g.active, Clue{Type: TypeClue, Text: "hint"}, t0)
				if tc.name == "card with a finger" || tc.name == "out player points again" {
					mustApply(t, g, guessers(g)[0], Point{Type: TypePoint, Position: wrongPositions(g)[0]}, t0)
				}
			}
			if tc.phase == PhaseReveal {
				mustApply(t, g, guessers(g)[0], Point{Type: TypePoint, Position: g.target + 1}, t0)
			}
			before := snapshot(t, g)
			err := g.Apply(tc.seat(g), []byte(tc.raw(g)), t0)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			// The game's own errors name it for the logs; those every game shares do not.
			if !strings.HasPrefix(rules.ErrorCode(err), "rules.") && !strings.HasPrefix(err.Error(), "fingertip: ") {
				t.Errorf("error %q has no game prefix", err)
			}
			if snapshot(t, g) != before {
				t.Fatal("the state changed after an error")
			}
		})
	}
}

func TestCheckClue(t *testing.T) {
	for in, want := range map[string]string{
		"  two  keys ":          "two keys",
		"tab\tand\nnewline":     "tab and newline",
		strings.Repeat("x", 80): strings.Repeat("x", 80),
		// A decomposed accent joins its letter, so it neither counts twice nor splits a word.
		"cafe\u0301 noir":             "café noir",
		strings.Repeat("e\u0301", 80): strings.Repeat("é", 80),
		"ｶﾀﾅ":                         "ｶﾀﾅ",
		strings.Repeat("你", 40):       strings.Repeat("你", 40),
	} {
		if got, err := CheckClue(in); err != nil || got != want {
			t.Errorf("CheckClue(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	// The limit is about room on screen: 41 wide characters take 82 columns.
	for _, in := range []string{strings.Repeat("x", 81), strings.Repeat("你", 41)} {
		if _, err := CheckClue(in); !errors.Is(err, ErrLongClue) {
			t.Errorf("CheckClue(%q) = %v, want ErrLongClue", in, err)
		}
	}
}

// While the clue is awaited, the others' prompt says whom they wait for, with the words
// "Waiting for": the session then adds no "Waiting for …" of its own that would name the
// active player a second time.
func TestCluePromptNamesTheActiveOnce(t *testing.T) {
	g := newGame(t, 3, 1, nil)
	name := g.names[g.active]
	for _, seat := range []int{rules.Spectator, (g.active + 1) % 3} {
		if p := view(g, seat).Prompt; !strings.Contains(p, "Waiting for "+name) || strings.Count(p, name) != 1 {
			t.Errorf("seat %d: prompt %q", seat, p)
		}
	}
}

// A spectator's race prompt leaves the racers' names to the table's "Waiting for …", which
// would otherwise name them twice.
func TestRacePromptNamesTheRacersOnce(t *testing.T) {
	g := newGame(t, 3, 1, nil)
	mustApply(t, g, g.active, Clue{Type: TypeClue, Text: "dream"}, t0)
	for s, name := range g.names {
		if p := view(g, rules.Spectator).Prompt; s != g.active && strings.Contains(p, name) {
			t.Errorf("the spectator's prompt %q names %s", p, name)
		}
	}
}

// TestAStandInsMovesAreTheBots: what a bot does for an absent player is the bot's in the
// log, so the player back at the table does not read it as their own.
func TestAStandInsMovesAreTheBots(t *testing.T) {
	g := newGame(t, 4, 3, nil)
	active := g.names[g.active]
	if err := rules.ApplyBy(g, g.active, act(Clue{Type: TypeClue, Text: "dream"}), t0, true); err != nil {
		t.Fatal(err)
	}
	gs, wrong := guessers(g), wrongPositions(g)
	if err := rules.ApplyBy(g, gs[0], act(Point{Type: TypePoint, Position: wrong[0]}), t0.Add(time.Second), true); err != nil {
		t.Fatal(err)
	}
	mustApply(t, g, gs[1], Point{Type: TypePoint, Position: wrong[1]}, t0.Add(2*time.Second))
	log := view(g, gs[1]).Log
	want := []string{
		fmt.Sprintf("A bot for %s gives the clue: %q", active, "dream"),
		fmt.Sprintf("A bot for %s points at %d: no", g.names[gs[0]], wrong[0]),
		fmt.Sprintf("%s points at %d: no", g.names[gs[1]], wrong[1]),
	}
	for _, w := range want {
		if !slices.Contains(log, w) {
			t.Errorf("the log lacks %q: %q", w, log)
		}
	}
}

// Takes is what endTurn gives each seat: the finder the target, the active player the
// wrong cards; nobody found it: nothing, or one card back from the active player.
func TestTakes(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		active, finder, wrong int
		returned              bool
		want                  []int
	}{
		{"found at once", 0, 2, 0, false, []int{0, 0, 1, 0}},
		{"found after two wrong", 1, 3, 2, false, []int{0, 2, 0, 1}},
		{"all wrong, a card back", 2, -1, 3, true, []int{0, 0, -1, 0}},
		{"all wrong, no card to give", 2, -1, 3, false, []int{0, 0, 0, 0}},
	} {
		if got := Takes(4, tc.active, tc.finder, tc.wrong, tc.returned); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Takes = %v, want %v", tc.name, got, tc.want)
		}
	}
}
