package topfive

import (
	"fmt"
	"slices"
	"strings"

	"parlor/rules"
	"parlor/rules/topfive"
	"parlor/session/gameui"
)

func init() {
	gameui.RegisterSpeaker(topfive.ID, func(seat int) gameui.Speaker { return &speaker{} })
}

// speaker says Top Five for the linear mode: a ranking is chosen one rank at a time,
// from 1 (most liked) to 5, then a Guesser's "I know this one!" marker, and sent whole
// as the same rank action the screen sends.
type speaker struct {
	v     topfive.View
	round int
	order []int // topic indices chosen so far: order[0] has rank 1

	events []string // what the last view's reveal steps showed (Events)
}

func (s *speaker) SetView(v rules.View) {
	nv, ok := rules.ViewAs[topfive.View](v)
	if !ok {
		return
	}
	if nv.Round != s.round || nv.Phase != topfive.PhaseRanking || nv.Mine != nil {
		s.order = nil
	}
	s.events = nil
	shown := 0
	if nv.Round == s.round {
		shown = len(s.v.Reveal)
	}
	for _, row := range nv.Reveal[min(shown, len(nv.Reveal)):] {
		s.events = append(s.events, guesses(nv, row))
	}
	s.v, s.round = nv, nv.Round
}

func (s *speaker) Events() []string { return s.events }

// guesses says one reveal step's guesses: "Bot Ada said 4, right, with the marker; Bot
// Bo said 2." The game's log has said the topic and its rank just before.
func guesses(v topfive.View, row topfive.Row) string {
	var parts []string
	for _, g := range row.Guesses {
		if g.Seat >= len(v.Names) {
			continue
		}
		p := fmt.Sprintf("%s said %d", v.Names[g.Seat], g.Rank)
		if g.Rank == 0 {
			p = v.Names[g.Seat] + " gave no ranking"
		}
		if g.Right {
			p += ", right"
		}
		if g.Marker {
			p += ", with the marker"
		}
		parts = append(parts, p)
	}
	if row.Match {
		return strings.Join(parts, "; ") + ": a match."
	}
	return strings.Join(parts, "; ") + "."
}

// ranking tells whether the viewer has a ranking to give now.
func (s *speaker) ranking() bool {
	v := s.v
	return v.Phase == topfive.PhaseRanking && v.Seat >= 0 && v.Mine == nil && v.Role != topfive.RoleSpectator
}

func (s *speaker) Ask() gameui.Ask {
	v := s.v
	key := fmt.Sprintf("%d/%s", v.Round, v.Phase)
	switch {
	case s.ranking() && len(s.order) < topfive.Hand:
		rank := len(s.order) + 1
		q := fmt.Sprintf("Which topic is your number %d?", rank)
		if v.Role == topfive.RoleGuesser {
			q = fmt.Sprintf("Which topic do you think %s ranks number %d?", v.Names[v.Honour], rank)
		}
		if rank == 1 && v.Role == topfive.RoleGuesser {
			q = strings.TrimSuffix(q, "?") + ", the one they like most?"
		} else if rank == 1 {
			q = strings.TrimSuffix(q, "?") + ", the one you like most?"
		}
		var choices []string
		for _, t := range s.left() {
			choices = append(choices, v.Topics[t])
		}
		return gameui.Ask{Key: fmt.Sprintf("%s/rank%d", key, rank), Question: q, Choices: choices}
	case s.ranking() && v.Role == topfive.RoleGuesser:
		var choices []string
		for r, t := range s.order {
			choices = append(choices, fmt.Sprintf("%s (your rank %d)", v.Topics[t], r+1))
		}
		return gameui.Ask{Key: key + "/marker", Question: "Which guess are you surest of? It gets the \"I know this one!\" marker.", Choices: choices}
	case v.Phase == topfive.PhaseResults && v.Seat >= 0 && v.Seat < len(v.Ready) && !v.Ready[v.Seat]:
		return gameui.Ask{Key: key, Question: "Type s for the scores; say when you are ready.", Choices: []string{"Ready for the next round"}}
	}
	return gameui.Ask{}
}

// left are the topics not ranked yet, in the round's order.
func (s *speaker) left() []int {
	var out []int
	for t := range s.v.Topics {
		if !slices.Contains(s.order, t) {
			out = append(out, t)
		}
	}
	return out
}

func (s *speaker) Answer(choice int, _ string) (any, error) {
	if err := s.Ask().Check(choice, ""); err != nil {
		return nil, err
	}
	if s.v.Phase == topfive.PhaseResults {
		return topfive.Ready{Type: topfive.TypeReady}, nil
	}
	if len(s.order) < topfive.Hand {
		s.order = append(s.order, s.left()[choice-1])
		if left := s.left(); len(left) == 1 { // the last rank is the last topic
			s.order = append(s.order, left[0])
		}
		if len(s.order) < topfive.Hand || s.v.Role == topfive.RoleGuesser {
			return nil, nil
		}
		return s.rank(nil), nil
	}
	marker := s.order[choice-1]
	return s.rank(&marker), nil
}

// rank is the rank action for the chosen order, as the screen sends it.
func (s *speaker) rank(marker *int) topfive.Rank {
	ranks := make([]int, len(s.v.Topics))
	for r, t := range s.order {
		ranks[t] = r + 1
	}
	return topfive.Rank{Type: topfive.TypeRank, Ranks: ranks, Marker: marker}
}

func (s *speaker) Board() []string {
	v := s.v
	var out []string
	if v.Round > 0 {
		role := map[string]string{topfive.RoleHonour: "You are the Player of Honour.", topfive.RoleGuesser: "You are a Guesser.", topfive.RoleDuo: "You rank by your own taste."}[v.Role]
		if v.Honour >= 0 && v.Honour < len(v.Names) && v.Role != topfive.RoleHonour {
			role += fmt.Sprintf(" %s is the Player of Honour.", v.Names[v.Honour])
		}
		out = append(out, fmt.Sprintf("Round %d of %d. %s", v.Round, v.Rounds, role))
	}
	for i, t := range v.Topics {
		line := fmt.Sprintf("Topic %d: %s.", i+1, t)
		if v.Mine != nil && i < len(v.Mine.Ranks) {
			line += fmt.Sprintf(" You gave it rank %d", v.Mine.Ranks[i])
			if v.Mine.Marker != nil && *v.Mine.Marker == i {
				line += ", with your marker"
			}
			line += "."
		} else if k := slices.Index(s.order, i); k >= 0 {
			line += fmt.Sprintf(" You chose rank %d so far.", k+1)
		}
		out = append(out, line)
	}
	for _, row := range v.Reveal {
		line := fmt.Sprintf("Revealed: %s", v.Topics[row.Topic])
		if row.Rank > 0 {
			line += fmt.Sprintf(" is rank %d", row.Rank)
		}
		for _, g := range row.Guesses {
			if g.Seat < len(v.Names) {
				line += fmt.Sprintf("; %s said %d", v.Names[g.Seat], g.Rank)
				if g.Right {
					line += " (right)"
				}
				if g.Marker {
					line += " with the marker"
				}
			}
		}
		out = append(out, line+".")
	}
	var waiting []string
	for _, w := range v.Waiting {
		if w < len(v.Names) {
			waiting = append(waiting, v.Names[w])
		}
	}
	if len(waiting) > 0 && v.Phase == topfive.PhaseRanking {
		out = append(out, "Still ranking: "+rules.List(waiting)+".")
	}
	return out
}
