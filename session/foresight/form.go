package foresight

import (
	"fmt"
	"slices"
	"strings"

	fs "parlor/rules/foresight"
)

// Columns of the form: the prediction (or, on the first row, the player's own answer),
// then the column A and column B wagers.
const (
	colChoice = iota
	colA
	colB
	columns
)

// form is the player's draft submission, kept on the screen until it is sent. Row 0 is the
// player's own answer; row i ≥ 1 is the opponent opps[i-1].
type form struct {
	answer int   // 0 until chosen
	opps   []int // opponent seats, in seat order
	choice []int // per opponent: the predicted choice, 0 until chosen
	a, b   []int // per opponent: the column A and column B wagers
}

func newForm(seat, players int) form {
	f := form{}
	for o := range players {
		if o != seat {
			f.opps = append(f.opps, o)
		}
	}
	f.choice = make([]int, len(f.opps))
	f.a = make([]int, len(f.opps))
	f.b = make([]int, len(f.opps))
	return f
}

// fromSubmit fills the form with a submission already sent, e.g. after a reconnect.
func (f *form) fromSubmit(s fs.Submit) {
	f.answer = s.Answer
	for _, p := range s.Predictions {
		if i := slices.Index(f.opps, p.Seat); i >= 0 {
			f.choice[i], f.a[i], f.b[i] = p.Choice, p.A, p.B
		}
	}
}

// submit is the form as the action to send.
func (f form) submit() fs.Submit {
	s := fs.Submit{Type: fs.TypeSubmit, Answer: f.answer}
	for i, o := range f.opps {
		s.Predictions = append(s.Predictions, fs.Prediction{Seat: o, Choice: f.choice[i], A: f.a[i], B: f.b[i]})
	}
	return s
}

// same reports whether the form matches a sent submission.
func (f form) same(s *fs.Submit) bool {
	if s == nil || s.Answer != f.answer {
		return false
	}
	for i, o := range f.opps {
		p := f.predictionOf(s, o)
		if p == nil || p.Choice != f.choice[i] || p.A != f.a[i] || p.B != f.b[i] {
			return false
		}
	}
	return true
}

func (f form) predictionOf(s *fs.Submit, o int) *fs.Prediction {
	for i := range s.Predictions {
		if s.Predictions[i].Seat == o {
			return &s.Predictions[i]
		}
	}
	return nil
}

// total is the sum of all wagers.
func (f form) total() int {
	t := 0
	for i := range f.opps {
		t += f.a[i] + f.b[i]
	}
	return t
}

// todo lists what is still missing before the form can be sent.
func (f form) todo(names []string) string {
	var miss []string
	if f.answer == 0 {
		miss = append(miss, "your answer")
	}
	var who []string
	for i, o := range f.opps {
		if f.choice[i] == 0 {
			who = append(who, name(names, o))
		}
	}
	switch {
	case len(who) == 1:
		miss = append(miss, "a prediction for "+who[0])
	case len(who) == 2:
		miss = append(miss, "predictions for "+who[0]+" and "+who[1])
	case len(who) > 2: // the form's rows show whom: the names would not fit a line
		miss = append(miss, fmt.Sprintf("predictions for %d players", len(who)))
	}
	if len(miss) == 0 {
		return ""
	}
	return "Still to choose: " + strings.Join(miss, " and ")
}

// breaches are the wager rules the form breaks now, in the engine's own words.
func (f form) breaches(points int) []string {
	var out []string
	for _, err := range fs.WagerBreaches(points, f.submit().Predictions) {
		out = append(out, plainError(err))
	}
	return out
}

// plainError drops the package prefix of an engine error and starts it with a capital.
func plainError(err error) string {
	s := strings.TrimPrefix(err.Error(), "foresight: ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// wagerStep moves a wager one step up or down the allowed amounts; up wraps to 0.
func wagerStep(w, dir int) int {
	i := slices.Index(fs.Wagers, w)
	if i < 0 {
		return 0
	}
	i += dir
	switch {
	case i >= len(fs.Wagers):
		i = 0
	case i < 0:
		i = 0
	}
	return fs.Wagers[i]
}

// name is a seat's display name, or a stand-in when the view has none.
func name(names []string, seat int) string {
	if seat >= 0 && seat < len(names) && names[seat] != "" {
		return names[seat]
	}
	return fmt.Sprintf("Seat %d", seat+1)
}
