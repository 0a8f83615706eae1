package quadrant

import "parlor/session/gameui"

// overLines is the end of the game: the winners, then the score sheet with the last
// round's breakdown.
func (s *Screen) overLines(f gameui.Frame) []string {
	p := gameui.Painter{Plain: f.Plain}
	lines := []string{paint(p, goodInk, "★ Game over: "+s.winners()+" ★"), ""}
	return append(lines, gameui.Sheet(s.v.Sheet, s.v.Names, f.Width, f.Height-len(lines), f.Plain)...)
}
