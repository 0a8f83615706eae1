package quadrant

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"parlor/rules"
	"parlor/rules/quadrant"
	"parlor/session/gameui"
)

func init() {
	gameui.RegisterSpeaker(quadrant.ID, func(seat int) gameui.Speaker { return &speaker{line: -1} })
}

// speaker says Quadrant for the linear mode: positions as coordinates (across, then up)
// and in the criteria's words, a placement typed as two numbers, and votes chosen token
// by token among the words, sent as the same actions the screen sends.
type speaker struct {
	v     quadrant.View
	votes []quadrant.Vote // the votes chosen so far, in token order
	line  int             // team ballot: the seat whose line is being written; -1 none
}

func (s *speaker) SetView(v rules.View) {
	nv, ok := rules.ViewAs[quadrant.View](v)
	if !ok {
		return
	}
	if nv.Round != s.v.Round || nv.Phase != s.v.Phase || len(nv.MyVotes) > 0 {
		s.votes, s.line = nil, -1
	}
	s.v = nv
}

func (s *speaker) name(seat int) string {
	if seat >= 0 && seat < len(s.v.Names) {
		return s.v.Names[seat]
	}
	return fmt.Sprintf("seat %d", seat+1)
}

func (s *speaker) mine() (quadrant.Token, bool) {
	for _, t := range s.v.Tokens {
		if t.Seat == s.v.Seat {
			return t, true
		}
	}
	return quadrant.Token{}, false
}

// where says a position as coordinates and in the criteria's words: "5 across, -3 up:
// 5 more fast and 3 less big than cat".
func (s *speaker) where(x, y int) string {
	v := s.v
	var parts []string
	for _, c := range []struct {
		n    int
		crit string
	}{{x, v.Horizontal}, {y, v.Vertical}} {
		switch {
		case c.n > 0:
			parts = append(parts, fmt.Sprintf("%d more %s", c.n, c.crit))
		case c.n < 0:
			parts = append(parts, fmt.Sprintf("%d less %s", -c.n, c.crit))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("0 across, 0 up: the centre, like %s", v.Reference)
	}
	return fmt.Sprintf("%d across, %d up: %s than %s", x, y, strings.Join(parts, " and "), v.Reference)
}

// word is word number n, with its number.
func (s *speaker) word(n int) string {
	if n >= 1 && n <= len(s.v.Words) {
		return fmt.Sprintf("%d, %s", n, s.v.Words[n-1])
	}
	return "nothing"
}

// toVote are the other tokens, in seat order.
func (s *speaker) toVote() []quadrant.Token {
	var out []quadrant.Token
	for _, t := range s.v.Tokens {
		if t.Seat != s.v.Seat {
			out = append(out, t)
		}
	}
	return out
}

// free are the word numbers not used in the votes so far, nor the viewer's own.
func (s *speaker) free() []int {
	var out []int
	for n := 1; n <= len(s.v.Words); n++ {
		if n == s.v.MyNumber || slices.ContainsFunc(s.votes, func(v quadrant.Vote) bool { return v.Number == n }) {
			continue
		}
		out = append(out, n)
	}
	return out
}

func (s *speaker) Ask() gameui.Ask {
	v := s.v
	key := fmt.Sprintf("%d/%s", v.Round, v.Phase)
	tok, active := s.mine()
	switch {
	case v.Phase == quadrant.PhasePlacement && active && !tok.Locked:
		return gameui.Ask{Key: key, Text: true,
			Question: fmt.Sprintf("Your word is %s. Place your token: right is more %s, up is more %s, the centre is %s. Your token is at %s.", s.word(v.MyNumber), v.Horizontal, v.Vertical, v.Reference, s.where(tok.X, tok.Y)),
			Choices:  []string{fmt.Sprintf("Lock your token at %d across, %d up", tok.X, tok.Y), fmt.Sprintf("Move it: type two numbers, across from %d to %d, then up from %d to %d, as in 5 -3", quadrant.MinX, quadrant.MaxX, quadrant.MinY, quadrant.MaxY)}}
	case v.Phase == quadrant.PhasePlacement && active:
		return gameui.Ask{Key: key + "/locked", Question: "Your token is locked; the others are still placing.", Choices: []string{"Unlock it to move it again"}}
	case v.Phase == quadrant.PhaseVoting && active && len(v.MyVotes) == 0 && len(s.votes) < len(s.toVote()):
		t := s.toVote()[len(s.votes)]
		var words []string
		for _, n := range s.free() {
			words = append(words, s.v.Words[n-1])
		}
		return gameui.Ask{Key: fmt.Sprintf("%s/vote%d", key, t.Seat), Question: fmt.Sprintf("Which word is %s's token, at %s?", s.name(t.Seat), s.where(t.X, t.Y)), Choices: words}
	case v.Phase == quadrant.PhaseTeamVote && v.Ballot != nil && !active && v.Seat >= 0:
		return s.ballotAsk(key)
	case v.Phase == quadrant.PhaseScoring && v.Seat >= 0 && slices.Contains(v.Waiting, v.Seat):
		return gameui.Ask{Key: key, Question: "Type b for the round's numbers and votes; say when you are ready.", Choices: []string{"Continue to the next round"}}
	}
	return gameui.Ask{}
}

// ballotAsk is the inactive team's question: write a line of the shared ballot, or
// approve it as it stands.
func (s *speaker) ballotAsk(key string) gameui.Ask {
	b := s.v.Ballot
	if s.line >= 0 {
		var words []string
		for n := 1; n <= len(s.v.Words); n++ {
			words = append(words, s.v.Words[n-1])
		}
		return gameui.Ask{Key: fmt.Sprintf("%s/line%d", key, s.line), Question: fmt.Sprintf("Which word is %s's token?", s.name(s.line)), Choices: words}
	}
	var choices []string
	complete := !slices.ContainsFunc(b.Votes, func(l quadrant.BallotLine) bool { return l.Number == 0 })
	switch {
	case slices.Contains(b.Approved, s.v.Seat):
		choices = append(choices, "Take back your approval")
	case complete:
		choices = append(choices, "Approve the ballot as it stands: "+s.ballotWords())
	default:
		choices = append(choices, "Approve (not yet: every token needs a number)")
	}
	for _, l := range b.Votes {
		choices = append(choices, fmt.Sprintf("Write %s's line, now %s", s.name(l.Seat), s.word(l.Number)))
	}
	return gameui.Ask{Key: fmt.Sprintf("%s/ballot%d", key, b.Rev), Question: "Your team agrees on one ballot; it counts once all of you approve it.", Choices: choices}
}

func (s *speaker) ballotWords() string {
	var parts []string
	for _, l := range s.v.Ballot.Votes {
		parts = append(parts, fmt.Sprintf("%s %s", s.name(l.Seat), s.word(l.Number)))
	}
	return strings.Join(parts, "; ")
}

func (s *speaker) Answer(choice int, text string) (any, error) {
	a := s.Ask()
	v := s.v
	if a.Asking() && text != "" {
		f := strings.Fields(strings.ReplaceAll(text, ",", " "))
		if len(f) != 2 {
			return nil, fmt.Errorf("type two numbers, across then up, as in 5 -3")
		}
		x, err1 := strconv.Atoi(f[0])
		y, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("type two numbers, across then up, as in 5 -3")
		}
		return quadrant.Move{Type: quadrant.TypeMove, X: x, Y: y}, nil
	}
	if err := a.Check(choice, ""); err != nil {
		return nil, err
	}
	tok, _ := s.mine()
	switch {
	case v.Phase == quadrant.PhasePlacement && tok.Locked:
		return quadrant.Unlock{Type: quadrant.TypeUnlock}, nil
	case v.Phase == quadrant.PhasePlacement && choice == 1:
		return quadrant.Lock{Type: quadrant.TypeLock}, nil
	case v.Phase == quadrant.PhasePlacement:
		return nil, fmt.Errorf("type the two numbers of the place, as in 5 -3")
	case v.Phase == quadrant.PhaseVoting:
		t := s.toVote()[len(s.votes)]
		s.votes = append(s.votes, quadrant.Vote{Seat: t.Seat, Number: s.free()[choice-1]})
		if others, free := s.toVote(), s.free(); len(s.votes) == len(others)-1 && len(free) == 1 {
			// the last token gets the last word
			s.votes = append(s.votes, quadrant.Vote{Seat: others[len(s.votes)].Seat, Number: free[0]})
		}
		if len(s.votes) < len(s.toVote()) {
			return nil, nil
		}
		return quadrant.CastVotes{Type: quadrant.TypeVote, Votes: s.votes}, nil
	case v.Phase == quadrant.PhaseTeamVote && s.line >= 0:
		seat := s.line
		s.line = -1
		return quadrant.BallotSet{Type: quadrant.TypeBallotSet, Seat: seat, Number: choice}, nil
	case v.Phase == quadrant.PhaseTeamVote && choice == 1 && slices.Contains(v.Ballot.Approved, v.Seat):
		return quadrant.Unapprove{Type: quadrant.TypeUnapprove}, nil
	case v.Phase == quadrant.PhaseTeamVote && choice == 1 && strings.HasPrefix(a.Choices[0], "Approve (not yet"):
		return nil, fmt.Errorf("every token needs a number before the ballot can be approved: write the empty lines first")
	case v.Phase == quadrant.PhaseTeamVote && choice == 1:
		return quadrant.Approve{Type: quadrant.TypeApprove, Rev: v.Ballot.Rev}, nil
	case v.Phase == quadrant.PhaseTeamVote:
		s.line = v.Ballot.Votes[choice-2].Seat
		return nil, nil
	}
	return quadrant.Continue{Type: quadrant.TypeContinue}, nil
}

func (s *speaker) Board() []string {
	v := s.v
	out := []string{fmt.Sprintf("Round %d. Right is more %s, up is more %s; the centre is %s.", v.Round, v.Horizontal, v.Vertical, v.Reference)}
	var words []string
	for i, w := range v.Words {
		words = append(words, fmt.Sprintf("%d %s", i+1, w))
	}
	out = append(out, "The words: "+strings.Join(words, ", ")+".")
	if v.MyNumber > 0 {
		out = append(out, "Your word is "+s.word(v.MyNumber)+".")
	}
	for _, t := range v.Tokens {
		line := fmt.Sprintf("%s's token: %s", s.name(t.Seat), s.where(t.X, t.Y))
		if t.Locked {
			line += ", locked"
		}
		if v.Reveal != nil && t.Seat < len(v.Reveal.Numbers) {
			line += "; the word was " + s.word(v.Reveal.Numbers[t.Seat])
		}
		out = append(out, line+".")
	}
	if v.Ballot != nil {
		out = append(out, "The team ballot: "+s.ballotWords()+".")
	}
	return out
}
