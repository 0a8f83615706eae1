package quadrant

import (
	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
)

// overLines is the end of the game: the winners, the last round revealed as every round
// is (who held which word, every vote on it), then the score sheet, with the last round's
// breakdown when it fits whole (the reveal above says the same in full).
func (s *Screen) overLines(f gameui.Frame) []string {
	p := gameui.Painter{Plain: f.Plain}
	lines := []string{paint(p, goodInk, "★ Game over: "+s.winners()+" ★")}
	if s.v.Reveal != nil {
		lines = append(lines, s.revealTokens(p)...)
	}
	lines = append(lines, "")
	sheet, names := s.v.Sheet, s.v.Names
	if s.v.Mode == qd.ModeTeam {
		sheet, names = teamSheet(sheet, s.v.Teams), []string{"Team A", "Team B"}
	}
	room := f.Height - len(lines)
	if len(gameui.Sheet(sheet, names, f.Width, f.Height+len(sheet.Rows)+len(sheet.Last), f.Plain)) > room {
		sheet.Last = nil
	}
	lines = append(lines, gameui.Sheet(sheet, names, f.Width, room, f.Plain)...)
	if s.v.Mode == qd.ModeTeam && len(lines)+3 <= f.Height {
		lines = append(append(lines, ""), s.teamRoster(p)...)
	}
	return lines
}

// teamSheet is a team game's score sheet with a column per team rather than per seat:
// every member carries their team's points, so fourteen columns would say two numbers
// seven times each, too narrow to name their seats at 80 columns.
func teamSheet(s rules.Sheet, teams []int) rules.Sheet {
	member := [2]int{-1, -1}
	for seat, t := range teams {
		if t >= 0 && t < 2 && member[t] < 0 {
			member[t] = seat
		}
	}
	of := func(vals []int) []int {
		out := make([]int, 2)
		for t, seat := range member {
			if seat >= 0 && seat < len(vals) {
				out[t] = vals[seat]
			}
		}
		return out
	}
	out := rules.Sheet{Rows: make([]rules.SheetRow, len(s.Rows)), Totals: of(s.Totals), Last: s.Last}
	for i, r := range s.Rows {
		out.Rows[i] = rules.SheetRow{Round: r.Round, Label: r.Label, Points: of(r.Points)}
	}
	return out
}
