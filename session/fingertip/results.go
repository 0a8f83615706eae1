package fingertip

import (
	"fmt"

	"parlor/rules"
	"parlor/session/gameui"
)

// results is the final screen: the winner(s), then the score sheet (the cards each
// seat gained turn by turn) with the last turn's breakdown.
func (s *Screen) results(w, h int, plain bool) []string {
	v := s.v
	title := "Game over"
	if v.Result != nil {
		title += ": " + v.Result.Summary + "." // a tie's says who share the victory
	}
	var out []string
	for _, l := range gameui.Wrap(title, w) { // long names: the winners are never cut
		out = append(out, gameui.Fit(gameui.Painter{Plain: plain}.Paint(boldStyle, l), w))
	}
	out = append(out,
		gameui.Fit(fmt.Sprintf("Draw pile: %s left; %d discarded.", rules.Count(v.Pile, "card"), v.Discarded), w),
		gameui.Fit("", w),
	)
	names := make([]string, len(v.Players))
	for i, p := range v.Players {
		names[i] = p.Name
	}
	return append(out, gameui.Sheet(v.Sheet, names, w, h-len(out), plain)...)
}
