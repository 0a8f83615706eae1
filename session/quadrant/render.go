package quadrant

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
)

// Symbols carry every meaning on their own, so nothing depends on colour.
const (
	tick   = "✓"
	cross  = "✗"
	cursor = "▸"
)

var (
	dimStyle  = lipgloss.NewStyle().Faint(true)
	boldStyle = lipgloss.NewStyle().Bold(true)
	mineStyle = lipgloss.NewStyle().Bold(true).Reverse(true)
	goodStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("#7BD88F")).Bold(true)
	badStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("#F2668B"))
	warnStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("#E8B04B")).Bold(true)
)

// Render draws the game area, exactly f.Width wide and at most f.Height tall.
func (s *Screen) Render(f gameui.Frame) string {
	key := f.Key()
	if !s.dirty && key == s.cacheKey && s.cache != "" {
		return s.cache
	}
	var lines []string
	switch {
	case !s.have:
		lines = []string{"Waiting for the table…"}
	case s.v.Reveal != nil:
		lines = s.revealLines(f.Width, gameui.Painter{Plain: f.Plain})
	default:
		lines = s.boardLines(f)
	}
	if len(lines) > f.Height {
		lines = lines[:f.Height]
	}
	for i := range lines {
		lines[i] = gameui.Fit(lines[i], f.Width)
	}
	s.cache, s.cacheKey, s.dirty = strings.Join(lines, "\n"), key, false
	return s.cache
}

// boardLines is the plane beside the words and the tokens' panel.
func (s *Screen) boardLines(f gameui.Frame) []string {
	side := f.Width - planeCols - 1
	if side < 24 {
		// Too narrow for both: the panel alone still lets the player follow and vote.
		return s.panel(f.Width, f.Height, gameui.Painter{Plain: f.Plain})
	}
	plane := s.drawPlane(f.Height, f.Plain)
	panel := s.panel(side, f.Height, gameui.Painter{Plain: f.Plain})
	out := make([]string, max(len(plane), len(panel)))
	for i := range out {
		var l, r string
		if i < len(plane) {
			l = plane[i]
		}
		if i < len(panel) {
			r = panel[i]
		}
		out[i] = gameui.Fit(l, planeCols) + " " + gameui.Fit(r, side)
	}
	return out
}

// panel lists the criteria, the reference word, the numbered words (the viewer's own
// highlighted) and the tokens with what the phase needs: lock state, votes, the ballot.
func (s *Screen) panel(w, h int, p gameui.Painter) []string {
	v := s.v
	lines := []string{
		p.Paint(boldStyle, "→ "+v.Horizontal),
		p.Paint(boldStyle, "↑ "+v.Vertical),
		"◆ " + v.Reference + p.Paint(dimStyle, " (centre)"),
	}
	for i, word := range v.Words {
		l := fmt.Sprintf(" %d %s", i+1, word)
		if i+1 == v.MyNumber {
			l = p.Paint(mineStyle, fmt.Sprintf("▶%d %s", i+1, word)) + " ◀ yours"
		}
		lines = append(lines, l)
	}
	role := s.role()
	targets := s.targets()
	selected := -2
	if (role == voting || role == teamBallot) && s.sel < len(targets) {
		selected = targets[s.sel]
	}
	for _, t := range v.Tokens {
		mark := " "
		if t.Seat == selected {
			mark = cursor
		}
		l := mark + s.tokenTag(t.Seat, p) + " " + gameui.Fit(s.name(t.Seat), 10) + " "
		switch v.Phase {
		case qd.PhasePlacement:
			pt := qd.Point{X: t.X, Y: t.Y}
			if t.Seat == s.seat {
				pt = s.mine
			}
			l += fmt.Sprintf("%+3d,%+3d ", pt.X, pt.Y)
			if t.Locked {
				l += p.Paint(goodStyle, tick+" locked")
			} else {
				l += p.Paint(dimStyle, "moving")
			}
		case qd.PhaseVoting:
			l += s.voteCell(t, p)
		case qd.PhaseTeamVote:
			l += s.ballotCell(t, p)
		}
		lines = append(lines, l)
	}
	if v.Phase == qd.PhaseTeamVote && v.Ballot != nil {
		lines = append(lines, s.approvals(p))
	}
	for _, l := range wordWrap(s.msg, w) {
		lines = append(lines, p.Paint(warnStyle, l))
	}
	if len(lines) > h {
		// Keep the message and the tokens: drop words from the top of the list first.
		lines = lines[len(lines)-h:]
	}
	for i := range lines {
		lines[i] = gameui.Fit(lines[i], w)
	}
	return lines
}

// tokenTag is a seat's token letter in its colour; plain frames rely on the letter.
func (s *Screen) tokenTag(seat int, p gameui.Painter) string {
	l := string(s.letters[seat])
	if seat == s.seat {
		return p.Paint(gameui.SeatStyle(seat).Reverse(true), l)
	}
	return p.Paint(gameui.SeatStyle(seat), l)
}

// voteCell is a token's line while the active players vote.
func (s *Screen) voteCell(t qd.Token, p gameui.Painter) string {
	status := p.Paint(dimStyle, "voting")
	if t.Voted {
		status = p.Paint(goodStyle, tick+" voted")
	}
	if t.Seat == s.seat {
		return "(you) " + status
	}
	if s.role() != voting {
		for _, mv := range s.v.MyVotes {
			if mv.Seat == t.Seat {
				return fmt.Sprintf("you: %d  ", mv.Number) + status
			}
		}
		return status
	}
	if n := s.ballot[t.Seat]; n != 0 {
		return p.Paint(boldStyle, fmt.Sprintf("→ %d", n)) + "  " + status
	}
	return "→ ?  " + status
}

// ballotCell is a token's line on the team ballot (numbers only for the inactive team).
func (s *Screen) ballotCell(t qd.Token, p gameui.Painter) string {
	if s.v.Ballot == nil {
		// The active team never sees the ballot: it sees its own votes instead.
		return s.voteCell(t, p)
	}
	for _, e := range s.v.Ballot.Votes {
		if e.Seat == t.Seat && e.Number != 0 {
			return p.Paint(boldStyle, fmt.Sprintf("team → %d", e.Number))
		}
	}
	return "team → ?"
}

// approvals shows who approved the team ballot.
func (s *Screen) approvals(p gameui.Painter) string {
	ok := map[int]bool{}
	for _, a := range s.v.Ballot.Approved {
		ok[a] = true
	}
	parts := []string{"OK:"}
	for seat, team := range s.v.Teams {
		if team == s.v.ActiveTeam {
			continue
		}
		mark := "·"
		if ok[seat] {
			mark = tick
		}
		parts = append(parts, s.tokenTag(seat, p)+mark)
	}
	return strings.Join(parts, " ")
}

// wordWrap breaks plain text into lines of at most w cells.
func wordWrap(text string, w int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && ansi.StringWidth(line)+1+ansi.StringWidth(word) > w {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
