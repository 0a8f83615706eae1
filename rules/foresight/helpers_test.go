package foresight

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// testDeck is a question file with family questions of 2 to 5 choices and a few adult ones.
func testDeck(family, adult int) []byte {
	var b strings.Builder
	for i := range family {
		k := 2 + i%4
		fmt.Fprintf(&b, "family | Family question %d?", i)
		for c := range k {
			fmt.Fprintf(&b, " | choice %d", c+1)
		}
		b.WriteString("\n")
	}
	for i := range adult {
		fmt.Fprintf(&b, "adult | Adult question %d? | yes | no\n", i)
	}
	return []byte(b.String())
}

var names8 = []string{"Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"}

// newGame starts a game of n players with options over a deck.
func newGame(t testing.TB, n int, opts rules.Options, seed uint64, deck []byte) *Game {
	t.Helper()
	o, err := spec.CheckOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(rules.Setup{Names: names8[:n], Seed: seed, Options: o,
		Content: map[string][]byte{QuestionsFile: deck}, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// threeChoices is a deck of one 3-choice question per round, so tests know the choices.
func threeChoices(rounds int) []byte {
	var b strings.Builder
	for i := range rounds {
		fmt.Fprintf(&b, "family | Question %d? | one | two | three\n", i)
	}
	return []byte(b.String())
}

// sub builds a submission: answer, then per opponent (in seat order) choice, A, B.
func sub(answer int, seats []int, triples ...int) Submit {
	s := Submit{Type: TypeSubmit, Answer: answer}
	for i, o := range seats {
		s.Predictions = append(s.Predictions, Prediction{Seat: o, Choice: triples[3*i], A: triples[3*i+1], B: triples[3*i+2]})
	}
	return s
}

// others lists every seat but seat, of n.
func others(seat, n int) []int {
	var out []int
	for o := range n {
		if o != seat {
			out = append(out, o)
		}
	}
	return out
}

// plain is a submission of answer 1 predicting 1 for everyone, wagering nothing.
func plain(seat, n int) Submit {
	s := Submit{Type: TypeSubmit, Answer: 1}
	for _, o := range others(seat, n) {
		s.Predictions = append(s.Predictions, Prediction{Seat: o, Choice: 1})
	}
	return s
}

func mustApply(t testing.TB, g *Game, seat int, action any, now time.Time) {
	t.Helper()
	if err := g.Apply(seat, rules.Encode(action), now); err != nil {
		t.Fatalf("seat %d %s: %v", seat, rules.Encode(action), err)
	}
}

// snapshot is every seat's view, the spectator's and the outcome, to compare before and after.
func snapshot(g *Game) string {
	var b strings.Builder
	for s := -1; s < len(g.names); s++ {
		j, _ := json.Marshal(g.View(s))
		b.Write(j)
	}
	r, over := g.Outcome()
	j, _ := json.Marshal(r)
	fmt.Fprintf(&b, "%s %v %d %v", j, over, g.next, g.deadline)
	return b.String()
}

// mustReject applies an action that must fail with want and leave the game unchanged.
func mustReject(t testing.TB, g *Game, seat int, raw []byte, want error, words string) {
	t.Helper()
	before := snapshot(g)
	err := g.Apply(seat, raw, t0)
	if err == nil {
		t.Fatalf("seat %d %s: accepted, want %v", seat, raw, want)
	}
	if want != nil && !errors.Is(err, want) {
		t.Fatalf("seat %d %s: %v, want %v", seat, raw, err, want)
	}
	if !strings.Contains(err.Error(), words) {
		t.Fatalf("error %q does not say %q", err, words)
	}
	if after := snapshot(g); after != before {
		t.Fatalf("seat %d %s: state changed after error %v", seat, raw, err)
	}
}

func view(g *Game, seat int) View { return g.View(seat).(View) }
