package foresight

import (
	"parlor/rules"

	"fmt"
	"slices"
)

// Action types.
const (
	TypeSubmit = "submit"
	TypeReady  = "ready"
)

// Wagers are one of these amounts.
var Wagers = []int{0, 25, 50, 100}

// Limits of the wager restrictions.
const (
	MaxWager        = 100 // at most one wager of this size per column
	ZeroPointsLimit = 50  // a player at 0 points may wager this much, on one single wager
)

// Errors a player can read as they are. Each wager restriction has its own, naming the rule.
// The errors every game shares (a spectator, a seat not at the table, an unknown action,
// the end of the game) are the rules package's.
var (
	ErrNotAnswering  = rules.Sentinel("foresight.not_answering", "foresight: submissions are closed until the next question")
	ErrNotReveal     = rules.Sentinel("foresight.not_reveal", "foresight: there are no results to move on from")
	ErrAlreadyReady  = rules.Sentinel("foresight.already_ready", "foresight: you are already ready for the next question")
	ErrBadAnswer     = rules.Sentinel("foresight.bad_answer", "foresight: choose one of the answers")
	ErrBadPrediction = rules.Sentinel("foresight.bad_prediction", "foresight: give one prediction for every opponent")
	ErrBadWager      = rules.Sentinel("foresight.bad_wager", "foresight: a wager must be 0, 25, 50 or 100")
	ErrOverPoints    = rules.Sentinel("foresight.over_points", "foresight: your wagers may not total more than your points")
	ErrTwoHundreds   = rules.Sentinel("foresight.two_hundreds", "foresight: at most one 100-point wager per column")
	ErrZeroPoints    = rules.Sentinel("foresight.zero_points", "foresight: with 0 points you may wager at most 50 in total, all on one single wager")
)

// Submit is a player's secret submission for the round: their own answer, and for every
// opponent a prediction with a column A and a column B wager. Submitting again before the
// reveal replaces the earlier submission.
type Submit struct {
	Type        string       `json:"type"`        // "submit"
	Answer      int          `json:"answer"`      // 1-based choice
	Predictions []Prediction `json:"predictions"` // exactly one per opponent
}

// Prediction is what a player expects one opponent to answer, and the two wagers on it.
type Prediction struct {
	Seat   int `json:"seat"`   // the opponent
	Choice int `json:"choice"` // the 1-based choice expected of them
	A      int `json:"a"`      // column A: wager that this prediction is right
	B      int `json:"b"`      // column B: wager that the opponent predicted you right
}

// Ready says the player has read the results and wants the next question.
type Ready struct {
	Type string `json:"type"` // "ready"
}

// Check validates a submission by seat at a table of players, for a question with choices
// answers, by a player holding points. It returns the first problem, naming the rule.
func Check(s Submit, seat, players, choices, points int) error {
	if s.Answer < 1 || s.Answer > choices {
		return fmt.Errorf("%w: your answer must be 1 to %d, not %d", ErrBadAnswer, choices, s.Answer)
	}
	if len(s.Predictions) != players-1 {
		return fmt.Errorf("%w: %d predictions for %d opponents", ErrBadPrediction, len(s.Predictions), players-1)
	}
	seen := make([]bool, players)
	for _, p := range s.Predictions {
		switch {
		case p.Seat < 0 || p.Seat >= players:
			return fmt.Errorf("%w: seat %d is not at this table", ErrBadPrediction, p.Seat)
		case p.Seat == seat:
			return fmt.Errorf("%w: you do not predict yourself (seat %d)", ErrBadPrediction, p.Seat)
		case seen[p.Seat]:
			return fmt.Errorf("%w: seat %d is predicted twice", ErrBadPrediction, p.Seat)
		case p.Choice < 1 || p.Choice > choices:
			return fmt.Errorf("%w: the prediction of seat %d must be 1 to %d, not %d", ErrBadPrediction, p.Seat, choices, p.Choice)
		}
		seen[p.Seat] = true
	}
	if errs := WagerBreaches(points, s.Predictions); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// WagerBreaches lists every wager restriction that the wagers break for a player holding
// points, each error naming its rule. The screen shows them live; Apply rejects the first.
func WagerBreaches(points int, preds []Prediction) []error {
	var errs []error
	total, nonzero, hundredsA, hundredsB := 0, 0, 0, 0
	for _, p := range preds {
		for _, w := range []int{p.A, p.B} {
			if !slices.Contains(Wagers, w) {
				return []error{fmt.Errorf("%w, not %d", ErrBadWager, w)}
			}
			total += w
			if w > 0 {
				nonzero++
			}
		}
		if p.A == MaxWager {
			hundredsA++
		}
		if p.B == MaxWager {
			hundredsB++
		}
	}
	if points <= 0 {
		if nonzero > 1 || total > ZeroPointsLimit {
			errs = append(errs, fmt.Errorf("%w (you wager %d on %d wagers)", ErrZeroPoints, total, nonzero))
		}
	} else if total > points {
		errs = append(errs, fmt.Errorf("%w: you wager %d but have %d", ErrOverPoints, total, points))
	}
	if hundredsA > 1 {
		errs = append(errs, fmt.Errorf("%w: column A has %d", ErrTwoHundreds, hundredsA))
	}
	if hundredsB > 1 {
		errs = append(errs, fmt.Errorf("%w: column B has %d", ErrTwoHundreds, hundredsB))
	}
	return errs
}

// Total is the sum of all wagers of a submission, both columns.
func Total(preds []Prediction) int {
	t := 0
	for _, p := range preds {
		t += p.A + p.B
	}
	return t
}

// clone copies a submission with its predictions in seat order, sharing no memory.
func (s Submit) clone() *Submit {
	c := s
	c.Type = TypeSubmit
	c.Predictions = slices.Clone(s.Predictions)
	slices.SortFunc(c.Predictions, func(a, b Prediction) int { return a.Seat - b.Seat })
	return &c
}

// prediction of seat o in the submission; ok is false when there is none.
func (s *Submit) prediction(o int) (Prediction, bool) {
	if s == nil {
		return Prediction{}, false
	}
	for _, p := range s.Predictions {
		if p.Seat == o {
			return p, true
		}
	}
	return Prediction{}, false
}
