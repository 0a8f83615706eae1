package gameui

import "parlor/rules"

// A large game area is what a terminal of 120×40 or more leaves a game: from 120 columns
// the session puts the log and chat beside the game (session/chrome.go), which leaves
// 82×37. The large layouts fit 80 columns, so a tall 80-column terminal gets them too;
// at 80×24 (80×AreaHeight) a game draws its compact layout.
const (
	LargeWidth  = 80
	LargeHeight = 37
)

// Large reports that the frame has room for a game's large layout: bigger pictures and
// boards, and the score sheet so far.
func (f Frame) Large() bool { return f.Width >= LargeWidth && f.Height >= LargeHeight }

// ScorePanel is the score sheet so far (a row per round played, the totals and the last
// round's breakdown) under a blank line, in at most width×height cells, for the rows a
// large layout has to spare. It is empty before the first round is scored or when fewer
// than five rows are left.
func ScorePanel(s rules.Sheet, names []string, width, height int, plain bool) []string {
	if len(s.Rows) == 0 || height < 5 {
		return nil
	}
	return append([]string{""}, Sheet(s, names, width, height-1, plain)...)
}
