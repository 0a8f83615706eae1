package quadrant

import (
	"fmt"
	"slices"
	"strings"

	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
)

// revealLines is the scoring screen: every token with its true word and every vote on it
// right or wrong, the round's points and the totals.
func (s *Screen) revealLines(w, h int, p gameui.Painter) []string {
	v, r := s.v, s.v.Reveal
	lines := s.revealTokens(p)
	const legend = "B3✓: B voted 3 on this token, rightly (✗ wrongly)." // one line at 80 columns
	legendAt := len(lines)
	if v.Mode == qd.ModeTeam {
		lines = append(lines, "")
		lines = append(lines, fmt.Sprintf("This round: team A +%d, team B +%d", r.TeamPoints[0], r.TeamPoints[1]))
		lines = append(lines, paint(p, boldInk, fmt.Sprintf("Totals: team A %d, team B %d", v.TeamScores[0], v.TeamScores[1])))
		lines = append(lines, s.teamRoster(p)...)
	} else {
		lines = append(lines, "")
		lines = append(lines, wrap("This round:", s.perSeat(r.Points, "+"), w)...)
		lines = append(lines, wrap(paint(p, boldInk, "Totals:"), s.perSeat(v.Scores, ""), w)...)
	}
	var tail []string
	if s.waitingFor(s.seat) {
		tail = []string{"", "Press enter when you are ready for the next round."}
	} else if s.seat >= 0 {
		tail = []string{"", paint(p, dimInk, "Waiting for the others…")}
	}
	// Where the area has room, in this order: how to read the votes, then how everyone
	// scored (the sheet's breakdown); what to press comes last and always shows.
	legendLines := gameui.Wrap(paint(p, dimInk, legend), w)
	if len(lines)+len(legendLines)+len(tail) <= h {
		lines = slices.Insert(lines, legendAt, legendLines...)
	}
	var why []string
	for _, l := range v.Sheet.Last {
		why = append(why, gameui.Wrap(l, w)...)
	}
	if len(why) > 0 && len(lines)+1+len(why)+len(tail) <= h {
		lines = append(append(lines, ""), why...)
	}
	if room := h - len(tail); len(lines) > room {
		lines = lines[:max(0, room)]
	}
	return append(lines, tail...)
}

// revealTokens is the round, its criteria and a line per token: its true number and word,
// the team ballot's number on it (team mode) and every vote on it, right or wrong; in team
// mode, whether the ballot was cast. The game-over screen shows the last round with it.
func (s *Screen) revealTokens(p gameui.Painter) []string {
	v, r := s.v, s.v.Reveal
	lines := []string{
		paint(p, boldInk, fmt.Sprintf("Round %d of %d", v.Round, v.Rounds)) + "  ◆ centre: " + v.Reference,
		fmt.Sprintf("→ %s   ↑ %s", v.Horizontal, v.Vertical),
	}
	if l := s.revealTeamLine(); l != "" {
		lines = append(lines, paint(p, boldInk, l))
	}
	// The words' column is as wide as the round's longest word, so that the votes after
	// it (six, and the team ballot's, at 80 columns) stay in view with short words too.
	ww := 0
	for _, word := range v.Words {
		ww = max(ww, rules.Width(word))
	}
	ww = min(ww, qd.MaxWordLen)
	cells := cellTexts(v.Tokens, s.shown)
	for i, t := range v.Tokens {
		n := 0
		if t.Seat < len(r.Numbers) {
			n = r.Numbers[t.Seat]
		}
		word := ""
		if n >= 1 && n <= len(v.Words) {
			word = v.Words[n-1]
		}
		l := s.tokenTag(t.Seat, p) + " " + gameui.Fit(s.name(t.Seat), 8) + " " + cells[i] + fmt.Sprintf(" %d %s ", n, gameui.Fit(word, ww))
		// The team ballot's number comes first: with the longest words and seven tokens
		// the row is 80 columns wide, and after the votes it would be the part cut off.
		for _, vt := range r.TeamVotes {
			if vt.Seat == t.Seat {
				l += s.verdict("team", vt, p) + " "
			}
		}
		for _, vt := range r.Votes {
			if vt.Seat == t.Seat {
				l += " " + s.verdict(string(s.letters[vt.Voter]), vt, p)
			}
		}
		lines = append(lines, l)
	}
	if v.Mode == qd.ModeTeam {
		cast := "the team ballot was not cast"
		if r.BallotCast {
			cast = fmt.Sprintf("the team ballot was cast: teamN is team %s's number", teamName(1-v.ActiveTeam))
		}
		lines = append(lines, paint(p, dimInk, cast))
	}
	return lines
}

// verdict shows one vote: who, the number, right or wrong.
func (s *Screen) verdict(who string, vt qd.Verdict, p gameui.Painter) string {
	if vt.Right {
		return paint(p, goodInk, fmt.Sprintf("%s%d%s", who, vt.Number, tick))
	}
	return paint(p, badInk, fmt.Sprintf("%s%d%s", who, vt.Number, cross))
}

// perSeat lists "Ana +3" items for every seat.
func (s *Screen) perSeat(vals []int, sign string) []string {
	out := make([]string, 0, len(vals))
	for seat, n := range vals {
		out = append(out, fmt.Sprintf("%s %s%d", s.name(seat), sign, n))
	}
	return out
}

// teamRoster names the members of each team.
func (s *Screen) teamRoster(p gameui.Painter) []string {
	var a, b []string
	for seat, t := range s.v.Teams {
		if t == 0 {
			a = append(a, s.name(seat))
		} else {
			b = append(b, s.name(seat))
		}
	}
	return []string{
		paint(p, dimInk, "Team A: "+strings.Join(a, ", ")),
		paint(p, dimInk, "Team B: "+strings.Join(b, ", ")),
	}
}

// winners says who won, from the final scores.
func (s *Screen) winners() string {
	best := 0
	for _, n := range s.v.Scores {
		best = max(best, n)
	}
	if s.v.Mode == qd.ModeTeam {
		ts := s.v.TeamScores
		switch {
		case ts[0] == ts[1]:
			return fmt.Sprintf("The teams tie with %s: everyone shares the win", rules.Count(ts[0], "point"))
		case ts[0] > ts[1]:
			return fmt.Sprintf("Team A wins %d to %d", ts[0], ts[1])
		}
		return fmt.Sprintf("Team B wins %d to %d", ts[1], ts[0])
	}
	var names []string
	for seat, n := range s.v.Scores {
		if n == best {
			names = append(names, s.name(seat))
		}
	}
	if len(names) == 1 {
		return fmt.Sprintf("%s wins with %s", names[0], rules.Count(best, "point"))
	}
	return fmt.Sprintf("%s share the win with %s", rules.List(names), rules.Count(best, "point"))
}

// wrap lays items after a label over as many lines of width w as they need.
func wrap(label string, items []string, w int) []string {
	var out []string
	line := label
	for _, it := range items {
		if rules.Width(line)+rules.Width(it)+2 > w {
			out = append(out, line)
			line = " "
		}
		line += " " + it + " "
	}
	return append(out, line)
}
