package fingertip

import (
	"fmt"

	"parlor/rules"
	"parlor/rules/fingertip"
	"parlor/session/gameui"
)

func init() {
	gameui.RegisterSpeaker(fingertip.ID, func(seat int) gameui.Speaker { return &speaker{} })
}

// speaker says Fingertip for the linear mode: the square's nine pictures by their alt
// text, the clue typed as a line, and a point as a choice among the nine.
type speaker struct{ v fingertip.View }

func (s *speaker) SetView(v rules.View) {
	if nv, ok := rules.ViewAs[fingertip.View](v); ok {
		s.v = nv
	}
}

func (s *speaker) name(seat int) string {
	for _, p := range s.v.Players {
		if p.Seat == seat {
			return p.Name
		}
	}
	return fmt.Sprintf("seat %d", seat+1)
}

// pictures are the square's cards as choices, position 1 to 9.
func (s *speaker) pictures() []string {
	var out []string
	for _, c := range s.v.Square {
		if c.Empty {
			out = append(out, "no card")
			continue
		}
		out = append(out, c.Alt)
	}
	return out
}

func (s *speaker) Ask() gameui.Ask {
	v := s.v
	key := fmt.Sprintf("%d/%s", v.Round, v.Phase)
	switch {
	case v.Phase == fingertip.PhaseClue && v.Seat == v.Active && v.Target >= 1 && v.Target <= len(v.Square):
		return gameui.Ask{Key: key, Text: true,
			Question: fmt.Sprintf("You give the clue. Your target is card %d: %s. Type a clue, a word or a sentence, that points to it without naming it.", v.Target, v.Square[v.Target-1].Alt)}
	case v.Phase == fingertip.PhaseRace && v.InRace:
		return gameui.Ask{Key: key, Question: fmt.Sprintf("%s's clue: %s. Which card is it? The first finger on the target wins it.", s.name(v.Active), v.Clue), Choices: s.pictures()}
	}
	return gameui.Ask{}
}

func (s *speaker) Answer(choice int, text string) (any, error) {
	a := s.Ask()
	if err := a.Check(choice, text); err != nil {
		return nil, err
	}
	if a.Text {
		return fingertip.Clue{Type: fingertip.TypeClue, Text: text}, nil
	}
	return fingertip.Point{Type: fingertip.TypePoint, Position: choice}, nil
}

func (s *speaker) Board() []string {
	v := s.v
	out := []string{fmt.Sprintf("Turn %d. %s gives the clue. %d cards in the draw pile.", v.Round, s.name(v.Active), v.Pile)}
	if v.Clue != "" {
		out = append(out, "The clue: "+v.Clue+".")
	}
	for _, c := range v.Square {
		line := fmt.Sprintf("Card %d: %s.", c.Position, c.Alt)
		if c.Empty {
			line = fmt.Sprintf("Place %d: no card.", c.Position)
		}
		if c.Target {
			line += " The target."
		}
		if c.Finger >= 0 {
			line += fmt.Sprintf(" %s's finger is on it.", s.name(c.Finger))
		}
		out = append(out, line)
	}
	for _, p := range v.Players {
		out = append(out, fmt.Sprintf("%s holds %s.", p.Name, rules.Count(p.Cards, "card")))
	}
	return out
}
