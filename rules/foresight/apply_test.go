package foresight

import (
	"encoding/json"
	"testing"

	"parlor/rules"
)

// TestWagerRestrictions: every restriction is accepted at its limit and rejected one step
// past it, with an error naming the rule and nothing recorded.
func TestWagerRestrictions(t *testing.T) {
	opp := others(0, 8)
	// wagers spreads a column A and column B list over the seven opponents.
	wagers := func(a, b []int) Submit {
		s := Submit{Type: TypeSubmit, Answer: 1}
		for i, o := range opp {
			p := Prediction{Seat: o, Choice: 1}
			if i < len(a) {
				p.A = a[i]
			}
			if i < len(b) {
				p.B = b[i]
			}
			s.Predictions = append(s.Predictions, p)
		}
		return s
	}
	cases := []struct {
		name   string
		points int
		s      Submit
		want   error // nil: accepted
		words  string
	}{
		{"total equals points", 600, wagers([]int{100, 50, 50, 50, 50, 50, 50}, []int{50, 50, 50, 50}), nil, ""},
		{"total 25 over points", 600, wagers([]int{100, 50, 50, 50, 50, 50, 50}, []int{50, 50, 50, 50, 25}), ErrOverPoints, "more than your points"},
		{"small purse at its limit", 25, wagers(nil, []int{25}), nil, ""},
		{"small purse one step over", 25, wagers([]int{25}, []int{25}), ErrOverPoints, "you wager 50 but have 25"},
		{"one 100 in each column", 600, wagers([]int{100}, []int{0, 100}), nil, ""},
		{"two 100s in column A", 600, wagers([]int{100, 100}, nil), ErrTwoHundreds, "column A has 2"},
		{"two 100s in column B", 600, wagers(nil, []int{100, 0, 100}), ErrTwoHundreds, "column B has 2"},
		{"zero points: 50 on one wager", 0, wagers([]int{0, 0, 50}, nil), nil, ""},
		{"zero points: 50 on one B wager", 0, wagers(nil, []int{50}), nil, ""},
		{"zero points: 100 on one wager", 0, wagers([]int{100}, nil), ErrZeroPoints, "with 0 points"},
		{"zero points: 25 on two wagers", 0, wagers([]int{25}, []int{25}), ErrZeroPoints, "one single wager"},
		{"zero points: 25 on two opponents", 0, wagers([]int{25, 25}, nil), ErrZeroPoints, "at most 50"},
		{"zero points: nothing", 0, wagers(nil, nil), nil, ""},
		{"a wager of 30", 600, wagers([]int{30}, nil), ErrBadWager, "0, 25, 50 or 100"},
		{"a negative wager", 600, wagers(nil, []int{-25}), ErrBadWager, "not -25"},
		{"a wager of 200", 600, wagers([]int{200}, nil), ErrBadWager, "not 200"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, 8, nil, 1, threeChoices(3))
			g.points[0] = c.points
			if c.want == nil {
				mustApply(t, g, 0, c.s, t0)
				if !view(g, 1).Submitted[0] {
					t.Fatal("not recorded")
				}
				return
			}
			mustReject(t, g, 0, rules.Encode(c.s), c.want, c.words)
			if len(WagerBreaches(c.points, c.s.Predictions)) == 0 {
				t.Fatal("WagerBreaches sees no breach")
			}
		})
	}
}

// TestAllBreachesListed: the live check names every rule broken at once.
func TestAllBreachesListed(t *testing.T) {
	preds := []Prediction{{Seat: 1, A: 100, B: 100}, {Seat: 2, A: 100, B: 100}}
	errs := WagerBreaches(300, preds)
	if len(errs) != 3 {
		t.Fatalf("%d breaches %v, want over points and two columns", len(errs), errs)
	}
}

// TestInvalidActions: every bad action is a readable error and changes nothing.
func TestInvalidActions(t *testing.T) {
	g := newGame(t, 3, nil, 1, threeChoices(5))
	good := func(seat int) Submit { return plain(seat, 3) }
	enc := func(v any) []byte { return rules.Encode(v) }
	with := func(f func(*Submit)) []byte { s := good(0); f(&s); return enc(s) }
	cases := []struct {
		name  string
		seat  int
		raw   []byte
		want  error
		words string
	}{
		{"spectator", rules.Spectator, enc(good(0)), rules.ErrSpectator, "spectators"},
		{"seat out of range", 3, enc(good(0)), rules.ErrNoSuchSeat, "seat 3"},
		{"not JSON", 0, []byte("{nope"), rules.ErrBadAction, "not a JSON object"},
		{"no type", 0, []byte(`{"answer":1}`), rules.ErrBadAction, "missing"},
		{"unknown type", 0, []byte(`{"type":"bid"}`), rules.ErrUnknownAction, `"bid"`},
		{"unknown field", 0, []byte(`{"type":"submit","answer":1,"predictions":[],"extra":1}`), rules.ErrBadAction, "extra"},
		{"ready while answering", 0, enc(Ready{Type: TypeReady}), ErrNotReveal, "no results"},
		{"answer 0", 0, with(func(s *Submit) { s.Answer = 0 }), ErrBadAnswer, "1 to 3, not 0"},
		{"answer past the choices", 0, with(func(s *Submit) { s.Answer = 4 }), ErrBadAnswer, "not 4"},
		{"a prediction missing", 0, with(func(s *Submit) { s.Predictions = s.Predictions[:1] }), ErrBadPrediction, "1 predictions for 2 opponents"},
		{"a prediction too many", 0, with(func(s *Submit) { s.Predictions = append(s.Predictions, Prediction{Seat: 1, Choice: 1}) }), ErrBadPrediction, "3 predictions"},
		{"predicting yourself", 0, with(func(s *Submit) { s.Predictions[0].Seat = 0 }), ErrBadPrediction, "yourself"},
		{"an opponent twice", 0, with(func(s *Submit) { s.Predictions[1].Seat = 1 }), ErrBadPrediction, "twice"},
		{"an opponent not at the table", 0, with(func(s *Submit) { s.Predictions[1].Seat = 5 }), ErrBadPrediction, "seat 5"},
		{"a prediction past the choices", 0, with(func(s *Submit) { s.Predictions[1].Choice = 9 }), ErrBadPrediction, "not 9"},
		{"a prediction of 0", 0, with(func(s *Submit) { s.Predictions[0].Choice = 0 }), ErrBadPrediction, "not 0"},
		{"trailing data", 0, append(enc(good(0)), []byte(" {}")...), rules.ErrBadAction, "bad action"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { mustReject(t, g, c.seat, c.raw, c.want, c.words) })
	}
	// In the reveal: submitting is closed, ready twice is refused.
	for p := range 3 {
		mustApply(t, g, p, good(p), t0)
	}
	mustApply(t, g, 0, Ready{Type: TypeReady}, t0)
	mustReject(t, g, 0, enc(Ready{Type: TypeReady}), ErrAlreadyReady, "already ready")
	mustReject(t, g, 1, enc(good(1)), ErrNotAnswering, "closed")
	// Over: everything is refused.
	g.end("test")
	mustReject(t, g, 1, enc(Ready{Type: TypeReady}), rules.ErrGameOver, "over")
}

// TestViewsShareNoMemory: changing a view never changes the game.
func TestViewsShareNoMemory(t *testing.T) {
	g := newGame(t, 3, nil, 1, threeChoices(5))
	mustApply(t, g, 0, sub(1, []int{1, 2}, 2, 25, 0, 1, 0, 0), t0)
	before := snapshot(g)
	v := view(g, 0)
	v.Mine.Predictions[0].A = 100
	v.Scores[0], v.Names[0], v.Choices[0], v.Submitted[1] = 1, "X", "X", true
	if snapshot(g) != before {
		t.Fatal("a view shares memory with the game")
	}
	for p := 1; p < 3; p++ {
		mustApply(t, g, p, plain(p, 3), t0)
	}
	before = snapshot(g)
	v = view(g, 0)
	v.Reveal.Players[0].Predictions[0].Choice = 3
	v.Reveal.Choices[0] = "X"
	if snapshot(g) != before {
		t.Fatal("a reveal shares memory with the game")
	}
	var back View
	if err := json.Unmarshal([]byte(mustJSON(t, g.View(1))), &back); err != nil || back.Reveal == nil {
		t.Fatalf("view does not round-trip: %v", err)
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
