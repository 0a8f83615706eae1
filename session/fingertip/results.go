package fingertip

import (
	"fmt"
	"slices"

	"parlor/session/gameui"
)

// results is the final screen: the winner(s), then every player's pile, most first.
func (s *Screen) results(w int, plain bool) []string {
	v := s.v
	out := []string{}
	title := "Game over"
	if v.Result != nil {
		title += ": " + v.Result.Summary + "."
	}
	out = append(out, gameui.Fit(gameui.Painter{Plain: plain}.Paint(boldStyle, title), w), gameui.Fit("", w))
	order := make([]int, len(v.Players))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return v.Players[b].Cards - v.Players[a].Cards })
	winners := []int{}
	if v.Result != nil {
		winners = v.Result.Winners
	}
	for _, p := range order {
		mark := "  "
		if slices.Contains(winners, p) {
			mark = "★ "
		}
		name := v.Players[p].Name
		if !plain {
			name = gameui.SeatStyle(p).Render(name)
		}
		unit := "cards"
		if v.Players[p].Cards == 1 {
			unit = "card"
		}
		out = append(out, gameui.Fit(fmt.Sprintf("  %s%s: %d %s", mark, name, v.Players[p].Cards, unit), w))
	}
	out = append(out, gameui.Fit("", w), gameui.Fit(fmt.Sprintf("Draw pile: %d cards left; %d discarded.", v.Pile, v.Discarded), w))
	if v.LastTurn != nil {
		out = append(out, gameui.Fit("Last turn: "+v.LastTurn.Summary, w))
	}
	if len(winners) > 1 {
		out = append(out, gameui.Fit("Tied players share the victory.", w))
	}
	return out
}
