package foresight

import (
	"fmt"
	"strings"

	"parlor/rules"
	"parlor/rules/foresight"
	"parlor/session/gameui"
)

func init() {
	gameui.RegisterSpeaker(foresight.ID, func(seat int) gameui.Speaker { return &speaker{} })
}

// speaker says Foresight for the linear mode: the answer, then a prediction of each
// opponent, then the wagers (none, or each column A and B in turn), sent as the one
// submit action the screen sends.
type speaker struct {
	v       foresight.View
	round   int
	answer  int                    // 0 until chosen
	preds   []foresight.Prediction // one per opponent, in seat order, as chosen
	wagers  bool                   // the player chose to wager, one by one
	wagered int                    // wagers chosen so far: 2 per opponent (A, B)
}

func (s *speaker) SetView(v rules.View) {
	nv, ok := rules.ViewAs[foresight.View](v)
	if !ok {
		return
	}
	if nv.Round != s.round || nv.Phase != foresight.PhaseAnswering || nv.Mine != nil {
		s.reset()
	}
	s.v, s.round = nv, nv.Round
}

func (s *speaker) reset() { s.answer, s.preds, s.wagers, s.wagered = 0, nil, false, 0 }

// opponents are the other seats, in seat order.
func (s *speaker) opponents() []int {
	var out []int
	for i := range s.v.Names {
		if i != s.v.Seat {
			out = append(out, i)
		}
	}
	return out
}

func (s *speaker) answering() bool {
	v := s.v
	return v.Phase == foresight.PhaseAnswering && v.Seat >= 0 && v.Mine == nil
}

func (s *speaker) Ask() gameui.Ask {
	v := s.v
	key := fmt.Sprintf("%d/%s", v.Round, v.Phase)
	opp := s.opponents()
	switch {
	case s.answering() && s.answer == 0:
		return gameui.Ask{Key: key + "/answer", Question: "Your own answer: " + v.Question, Choices: v.Choices}
	case s.answering() && len(s.preds) < len(opp):
		o := opp[len(s.preds)]
		return gameui.Ask{Key: fmt.Sprintf("%s/predict%d", key, o), Question: fmt.Sprintf("What will %s answer?", v.Names[o]), Choices: v.Choices}
	case s.answering() && !s.wagers:
		return gameui.Ask{Key: key + "/wagers", Question: fmt.Sprintf("Your wagers: you have %d points.", s.points()),
			Choices: []string{"No wagers: submit now", "Choose my wagers, each opponent's column A and column B"}}
	case s.answering():
		p := s.preds[s.wagered/2]
		var q string
		if s.wagered%2 == 0 {
			q = fmt.Sprintf("Column A: how much do you wager that %s answers %s?", v.Names[p.Seat], v.Choices[p.Choice-1])
		} else {
			q = fmt.Sprintf("Column B: how much do you wager that %s predicted your answer?", v.Names[p.Seat])
		}
		var choices []string
		for _, w := range foresight.Wagers {
			choices = append(choices, fmt.Sprint(w))
		}
		return gameui.Ask{Key: fmt.Sprintf("%s/wager%d", key, s.wagered), Question: q, Choices: choices}
	case v.Phase == foresight.PhaseReveal && v.Seat >= 0 && v.Seat < len(v.Ready) && !v.Ready[v.Seat]:
		return gameui.Ask{Key: key, Question: "Type b for the round's results; say when you are ready.", Choices: []string{"Ready for the next question"}}
	}
	return gameui.Ask{}
}

func (s *speaker) points() int {
	if s.v.Seat >= 0 && s.v.Seat < len(s.v.Scores) {
		return s.v.Scores[s.v.Seat]
	}
	return 0
}

func (s *speaker) Answer(choice int, _ string) (any, error) {
	if err := s.Ask().Check(choice, ""); err != nil {
		return nil, err
	}
	opp := s.opponents()
	switch {
	case s.v.Phase == foresight.PhaseReveal:
		return foresight.Ready{Type: foresight.TypeReady}, nil
	case s.answer == 0:
		s.answer = choice
	case len(s.preds) < len(opp):
		s.preds = append(s.preds, foresight.Prediction{Seat: opp[len(s.preds)], Choice: choice})
	case !s.wagers && choice == 1:
		return s.submit()
	case !s.wagers:
		s.wagers = true
	default:
		p := &s.preds[s.wagered/2]
		if s.wagered%2 == 0 {
			p.A = foresight.Wagers[choice-1]
		} else {
			p.B = foresight.Wagers[choice-1]
		}
		s.wagered++
		if errs := foresight.WagerBreaches(s.points(), s.preds); len(errs) > 0 {
			for i := range s.preds { // the wagers start again, the answer and predictions stay
				s.preds[i].A, s.preds[i].B = 0, 0
			}
			s.wagered = 0
			return nil, fmt.Errorf("%w; choose your wagers again", errs[0])
		}
		if s.wagered == 2*len(s.preds) {
			return s.submit()
		}
	}
	return nil, nil
}

func (s *speaker) submit() (any, error) {
	sub := foresight.Submit{Type: foresight.TypeSubmit, Answer: s.answer, Predictions: append([]foresight.Prediction(nil), s.preds...)}
	return sub, nil
}

func (s *speaker) Board() []string {
	v := s.v
	var out []string
	if v.Question != "" {
		out = append(out, fmt.Sprintf("Round %d. The question: %s", v.Round, v.Question))
		for i, c := range v.Choices {
			out = append(out, fmt.Sprintf("Choice %d: %s.", i+1, c))
		}
	}
	if m := v.Mine; m != nil && m.Answer >= 1 && m.Answer <= len(v.Choices) {
		var ps []string
		for _, p := range m.Predictions {
			if p.Seat < len(v.Names) && p.Choice >= 1 && p.Choice <= len(v.Choices) {
				ps = append(ps, fmt.Sprintf("%s %s (A %d, B %d)", v.Names[p.Seat], v.Choices[p.Choice-1], p.A, p.B))
			}
		}
		out = append(out, fmt.Sprintf("You answered %s, and predicted %s.", v.Choices[m.Answer-1], strings.Join(ps, "; ")))
	}
	if r := v.Reveal; r != nil {
		out = append(out, fmt.Sprintf("Round %d results: %s", r.Round, r.Question))
		for _, p := range r.Players {
			if p.Seat >= len(v.Names) {
				continue
			}
			ans := "gave no answer"
			if p.Answer >= 1 && p.Answer <= len(r.Choices) {
				ans = "answered " + r.Choices[p.Answer-1]
			}
			line := fmt.Sprintf("%s %s: %+d, now %d points.", v.Names[p.Seat], ans, p.Change, p.Total)
			for _, pr := range p.Predictions {
				if pr.Seat < len(v.Names) && pr.Choice >= 1 && pr.Choice <= len(r.Choices) {
					right := map[bool]string{true: "right", false: "wrong"}[pr.Right]
					line += fmt.Sprintf(" Predicted %s would answer %s: %s, %+d and %+d.", v.Names[pr.Seat], r.Choices[pr.Choice-1], right, pr.AResult, pr.BResult)
				}
			}
			out = append(out, line)
		}
	}
	return out
}
