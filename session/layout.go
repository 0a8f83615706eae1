package session

import (
	"slices"
	"strings"

	"parlor/rules"
	"parlor/session/gameui"
)

// fit makes one line exactly w cells wide (gameui.Fit, the game screens' too).
func fit(s string, w int) string { return gameui.Fit(s, w) }

// block makes text exactly w×h: every line fitted, cut or padded with blank lines.
func block(s string, w, h int) []string { return gameui.Block(strings.Split(s, "\n"), w, h) }

// blockOf is block over lines, some of which may hold line breaks of their own. Lines
// are seldom joined: joining them into one string to split it again was a fifth of a
// waiting room's redraw.
func blockOf(lines []string, w, h int) []string {
	if slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "\n") }) {
		return block(strings.Join(lines, "\n"), w, h)
	}
	return gameui.Block(lines, w, h)
}

// columns puts blocks side by side, separated by gap spaces.
func columns(gap int, cols ...[]string) []string {
	h := 0
	for _, c := range cols {
		if len(c) > h {
			h = len(c)
		}
	}
	out := make([]string, h)
	sep := strings.Repeat(" ", gap)
	for i := range out {
		parts := make([]string, len(cols))
		for j, c := range cols {
			if i < len(c) {
				parts[j] = c[i]
			} else if len(c) > 0 {
				parts[j] = strings.Repeat(" ", rules.Width(c[0]))
			}
		}
		out[i] = strings.Join(parts, sep)
	}
	return out
}
