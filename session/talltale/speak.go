package talltale

import (
	"fmt"
	"slices"
	"strings"

	"parlor/rules"
	"parlor/rules/talltale"
	"parlor/session/gameui"
)

func init() {
	gameui.RegisterSpeaker(talltale.ID, func(seat int) gameui.Speaker { return &speaker{} })
}

// speaker says Tall Tale for the linear mode: illustrations by their names, the
// narrator's discard as a choice and the story as a typed line, and each token placed
// by choosing a board, then an illustration on it.
type speaker struct {
	v     talltale.View
	board string // the board chosen for the next token; "" first
}

func (s *speaker) SetView(v rules.View) {
	nv, ok := rules.ViewAs[talltale.View](v)
	if !ok {
		return
	}
	if nv.Round != s.v.Round || nv.Phase != s.v.Phase || len(nv.MyTokens) != len(s.v.MyTokens) {
		s.board = ""
	}
	s.v = nv
}

func (s *speaker) racing() bool {
	v := s.v
	return v.Phase == talltale.PhaseRace && v.Seat >= 0 && v.Seat != v.Narrator && slices.Contains(v.Racers, v.Seat) && len(v.MyTokens) < talltale.Tokens
}

// onBoard is the illustrations of the chosen board the viewer has no token on yet.
func (s *speaker) onBoard() []talltale.Illustration {
	var out []talltale.Illustration
	for _, b := range s.v.Boards {
		if b.Colour != s.board {
			continue
		}
		for _, ill := range b.Illustrations {
			if !slices.Contains(s.v.MyTokens, ill.ID) {
				out = append(out, ill)
			}
		}
	}
	return out
}

func (s *speaker) Ask() gameui.Ask {
	v := s.v
	key := fmt.Sprintf("%d/%s", v.Round, v.Phase)
	narrator := v.Seat >= 0 && v.Seat == v.Narrator
	switch {
	case narrator && v.Phase == talltale.PhaseDiscard && v.Hand != nil && v.Hand.Discarded < 0:
		var names []string
		for _, ill := range v.Hand.Drawn {
			names = append(names, fmt.Sprintf("%s (%s board)", ill.Name, ill.Colour))
		}
		return gameui.Ask{Key: key, Question: "You are the narrator. Which illustration do you throw away? You keep the other three for your story.", Choices: names}
	case narrator && v.Phase == talltale.PhaseStory && v.Story == "":
		q := "Tell your story, two sentences that lead to your three illustrations: " + s.kept() + "."
		if v.Mode == talltale.ModeWarn {
			q += " If you are warned of a forbidden word, start the line with ! to send it anyway."
		}
		return gameui.Ask{Key: key, Question: q, Text: true}
	case s.racing() && s.board == "" && len(v.Boards) == 1:
		s.board = v.Boards[0].Colour // one board in play: no question about it
		return s.Ask()
	case s.racing() && s.board == "":
		var colours []string
		for _, b := range v.Boards {
			colours = append(colours, b.Colour+" board")
		}
		return gameui.Ask{Key: fmt.Sprintf("%s/token%d", key, len(v.MyTokens)),
			Question: fmt.Sprintf("The story: %s Place token %d of %d: on which board?", v.Story, len(v.MyTokens)+1, talltale.Tokens), Choices: colours}
	case s.racing():
		var names []string
		for _, ill := range s.onBoard() {
			names = append(names, ill.Name)
		}
		q := fmt.Sprintf("Token %d of %d: which illustration of the %s board?", len(v.MyTokens)+1, talltale.Tokens, s.board)
		if len(v.MyTokens) == 0 {
			q = "The story: " + v.Story + " " + q
		}
		if len(v.Boards) > 1 {
			names = append(names, "Another board")
		}
		return gameui.Ask{Key: fmt.Sprintf("%s/token%d/%s", key, len(v.MyTokens), s.board), Question: q, Choices: names}
	}
	return gameui.Ask{}
}

// kept names the narrator's three illustrations.
func (s *speaker) kept() string {
	var names []string
	if s.v.Hand != nil {
		for _, ill := range s.v.Hand.Kept {
			names = append(names, fmt.Sprintf("%s (%s board)", ill.Name, ill.Colour))
		}
	}
	return rules.List(names)
}

func (s *speaker) Answer(choice int, text string) (any, error) {
	a := s.Ask()
	v := s.v
	if err := a.Check(choice, text); err != nil {
		return nil, err
	}
	switch {
	case a.Text:
		confirm := strings.HasPrefix(text, "!")
		return talltale.Story{Type: "story", Text: strings.TrimSpace(strings.TrimPrefix(text, "!")), Confirm: confirm}, nil
	case v.Phase == talltale.PhaseDiscard:
		return talltale.Discard{Type: "discard", Card: v.Hand.Drawn[choice-1].ID}, nil
	case s.board == "":
		s.board = v.Boards[choice-1].Colour
		return nil, nil
	}
	on := s.onBoard()
	if choice > len(on) { // another board
		s.board = ""
		return nil, nil
	}
	return talltale.Token{Type: "token", Card: on[choice-1].ID}, nil
}

func (s *speaker) Board() []string {
	v := s.v
	var out []string
	if v.Narrator >= 0 && v.Narrator < len(v.Names) {
		out = append(out, fmt.Sprintf("Round %d. %s is the narrator.", v.Round, v.Names[v.Narrator]))
	}
	if v.Story != "" {
		out = append(out, "The story: "+v.Story)
	}
	for _, b := range v.Boards {
		var names []string
		for _, ill := range b.Illustrations {
			name := ill.Name
			if slices.Contains(v.MyTokens, ill.ID) {
				name += " (your token)"
			}
			names = append(names, name)
		}
		out = append(out, fmt.Sprintf("The %s board: %s.", b.Colour, strings.Join(names, ", ")))
	}
	if v.Hand != nil && len(v.Hand.Kept) > 0 {
		out = append(out, "Your three illustrations: "+s.kept()+".")
	}
	if r := v.Reveal; r != nil {
		out = append(out, "The narrator's rule: "+sentenceOf(r.NarratorRule))
	}
	return out
}

func sentenceOf(s string) string {
	if s == "" || strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}
