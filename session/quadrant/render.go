package quadrant

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

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

// The styles above as inks, made once (gameui.Ink): the token list paints a dozen short
// strings per seat and frame, and rendering each through its lipgloss style was most of
// the panel's time.
var (
	dimInk  = gameui.InkOf(dimStyle)
	boldInk = gameui.InkOf(boldStyle)
	mineInk = gameui.InkOf(mineStyle)
	goodInk = gameui.InkOf(goodStyle)
	badInk  = gameui.InkOf(badStyle)
	warnInk = gameui.InkOf(warnStyle)
)

// paint is gameui.Painter.Paint with an ink.
func paint(p gameui.Painter, k gameui.Ink, text string) string {
	if p.Plain || text == "" {
		return text
	}
	return k.Paint(text)
}

// Render draws the game area, exactly f.Width wide and at most f.Height tall.
func (s *Screen) Render(f gameui.Frame) string { return strings.Join(s.Lines(f), "\n") }

// Lines is Render's lines (gameui.Lines). They are the screen's own: the caller copies
// what it changes.
func (s *Screen) Lines(f gameui.Frame) []string {
	key := f.Key()
	if !s.dirty && key == s.cacheKey && s.cache != nil {
		return s.cache
	}
	s.frame = f
	var lines []string
	switch {
	case !s.have:
		lines = []string{"Waiting for the table…"}
	case s.v.Over:
		lines = s.overLines(f)
	case s.v.Reveal != nil:
		lines = s.revealLines(f.Width, f.Height, gameui.Painter{Plain: f.Plain})
	default:
		s.cache, s.cacheKey, s.dirty = s.board(f), key, false
		return s.cache
	}
	if len(lines) > f.Height {
		lines = lines[:f.Height]
	}
	for i := range lines {
		lines[i] = gameui.Fit(lines[i], f.Width)
	}
	s.cache, s.cacheKey, s.dirty = lines, key, false
	return s.cache
}

// board is the plane beside the words and the tokens' panel, at most f.Height rows.
// Both are fitted already (drawPlane and panel fit their lines). This is drawn for every
// seat at every move, which changes a row or two: a row whose two halves are the ones
// it was joined from last time is that row again, the same string (boardRow).
func (s *Screen) board(f gameui.Frame) []string {
	p := gameui.Painter{Plain: f.Plain}
	geo := s.layout(f.Width, f.Height)
	if geo.below {
		return s.boardBelow(f, geo, p)
	}
	side := f.Width - geo.width() - 1
	if side < 24 {
		// Too narrow for both: the panel alone, with the exact positions, still lets the
		// player follow and vote.
		return s.panel(f.Width, f.Height, p, true)
	}
	plane := s.drawPlane(geo, f.Plain, f.Memo)
	panel := s.panel(side, f.Height, p, false)
	// Only the shorter one is filled out with blank lines.
	rows := min(max(len(plane), len(panel)), f.Height)
	blankL, blankR := strings.Repeat(" ", geo.width()), strings.Repeat(" ", side)
	out := make([]string, rows)
	kept := s.rows.board
	if len(kept) != rows {
		kept = make([]boardRow, rows)
	}
	for i := range out {
		l, r := at(plane, i, blankL), at(panel, i, blankR)
		if k := kept[i]; k.line != "" && k.left == l && k.right == r {
			s.rows.boardReused++
		} else {
			kept[i] = boardRow{l, r, l + " " + r}
		}
		out[i] = kept[i].line
	}
	s.rows.board = kept
	return out
}

// boardBelow is the plane across the area with the words and the tokens' panel under
// it, at most f.Height rows; rows the same as last time are the same strings (boardRow).
func (s *Screen) boardBelow(f gameui.Frame, geo geometry, p gameui.Painter) []string {
	plane := s.drawPlane(geo, f.Plain, f.Memo)
	if len(plane) > f.Height {
		plane = plane[:f.Height]
	}
	panel := s.panel(f.Width, f.Height-len(plane), p, false)
	pad := strings.Repeat(" ", f.Width-geo.width())
	rows := len(plane) + len(panel)
	out := make([]string, rows)
	kept := s.rows.board
	if len(kept) != rows {
		kept = make([]boardRow, rows)
	}
	for i := range out {
		l, r := at(plane, i, ""), pad
		if i >= len(plane) {
			l, r = panel[i-len(plane)], ""
		}
		if k := kept[i]; k.line != "" && k.left == l && k.right == r {
			s.rows.boardReused++
		} else {
			kept[i] = boardRow{l, r, l + r}
		}
		out[i] = kept[i].line
	}
	s.rows.board = kept
	return out
}

// at is s[i], or def past its end.
func at(s []string, i int, def string) string {
	if i < len(s) {
		return s[i]
	}
	return def
}

// sideBySide is the panel width from which the words and the tokens stand side by side.
const sideBySide = 64

// panel lists the player's team, the numbered words (the viewer's own highlighted) and the
// tokens with their exact cells and what the phase needs: lock state, votes, the ballot.
// With criteria it also names the axes and the reference word (when no plane shows them).
func (s *Screen) panel(w, h int, p gameui.Painter, criteria bool) []string {
	v := s.v
	var head, body, tail []string
	if l := s.teamLine(); l != "" {
		head = append(head, paint(p, boldInk, l))
	}
	if criteria {
		body = append(body,
			paint(p, boldInk, "→ "+v.Horizontal),
			paint(p, boldInk, "↑ "+v.Vertical),
			"◆ "+v.Reference+paint(p, dimInk, " (centre)"))
	}
	words := s.wordLines(p)
	var tokens []string
	list := s.tokenList(p)
	focus, hasFocus := s.focus()
	if s.role() == placing {
		hasFocus = false // the plane points at the own token; the list has no cursor then
	}
	for i, t := range v.Tokens {
		tokens = append(tokens, s.tokenLine(t, p, list, i, hasFocus && focus == t.Seat))
	}
	lw := qd.MaxWordLen + 6 // the words' column, when the tokens stand beside it
	if v.Phase == qd.PhaseTeamVote && v.Ballot != nil {
		tw := w
		if w >= sideBySide {
			tw = w - lw - 1
		}
		tokens = append(tokens, s.approvals(p, tw)...)
	}
	if list.away {
		tokens = append(tokens, paint(p, dimInk, awayLegend))
	}
	if w >= sideBySide {
		for i := range max(len(words), len(tokens)) {
			var l, r string
			if i < len(words) {
				l = words[i]
			}
			if i < len(tokens) {
				r = tokens[i]
			}
			tail = append(tail, gameui.Fit(l, lw)+" "+r)
		}
	} else {
		body = append(body, words...)
		tail = tokens
	}
	if s.msg != "" {
		for _, l := range gameui.Wrap(s.msg, w) {
			tail = append(tail, paint(p, warnInk, l))
		}
	}
	if excess := len(head) + len(body) + len(tail) - h; excess > 0 {
		// Keep the team, the tokens and the message: drop words from the top first.
		body = body[min(excess, len(body)):]
	}
	lines := append(append(head, body...), tail...)
	if len(lines) > h {
		lines = lines[:h]
	}
	return s.panelFit.Block(lines, w, len(lines), s.frame.Memo)
}

// wordsKey is what the numbered words are kept under in one table state: the words are
// the same for every seat then.
type wordsKey struct{}

// wordLines are the round's numbered words, the viewer's own highlighted. The words as
// every seat sees them are made once per table state (the frame's memo); a seat with a
// number of its own puts in its own line.
func (s *Screen) wordLines(p gameui.Painter) []string {
	public := func() any {
		words := make([]string, len(s.v.Words))
		for i, word := range s.v.Words {
			words[i] = fmt.Sprintf(" %d %s", i+1, word)
		}
		return words
	}
	var words []string
	if s.frame.Memo == nil {
		words = public().([]string)
	} else {
		words = slices.Clone(s.frame.Memo.Remember(wordsKey{}, public).([]string))
	}
	if n := s.v.MyNumber; n >= 1 && n <= len(words) {
		k := ownWord{n, s.v.Words[n-1], p.Plain}
		if s.rows.word != k || s.rows.wordLine == "" {
			// The seat's word is the same all round: drawn once.
			s.rows.word, s.rows.wordLine = k, paint(p, mineInk, fmt.Sprintf("▶%d %s", n, k.word))+" ◀ yours"
		}
		words[n-1] = s.rows.wordLine
	}
	return words
}

// ownWord is what the viewer's own line of the words is drawn from.
type ownWord struct {
	n     int
	word  string
	plain bool
}

// teamLine says which team the viewer is on and what it does this round; "" outside
// team mode.
func (s *Screen) teamLine() string {
	v := s.v
	if v.Mode != qd.ModeTeam || len(v.Teams) == 0 {
		return ""
	}
	active, other := teamName(v.ActiveTeam), teamName(1-v.ActiveTeam)
	if s.seat < 0 || s.seat >= len(v.Teams) {
		return fmt.Sprintf("Team %s places, team %s guesses", active, other) // whole beside the plane at 80
	}
	if v.Teams[s.seat] == v.ActiveTeam {
		// The active team places its tokens, then votes on them: "placing" alone
		// read wrong over a prompt to vote.
		return fmt.Sprintf("Team %s — your team plays this round", active)
	}
	return fmt.Sprintf("Team %s — you are guessing this round", other)
}

// revealTeamLine says, over a revealed round's tokens, which team placed them and which
// guessed, and the viewer's team; "" outside team mode.
func (s *Screen) revealTeamLine() string {
	v := s.v
	if v.Mode != qd.ModeTeam || len(v.Teams) == 0 {
		return ""
	}
	l := fmt.Sprintf("Team %s placed these tokens, team %s guessed them", teamName(v.ActiveTeam), teamName(1-v.ActiveTeam))
	if s.seat >= 0 && s.seat < len(v.Teams) {
		l += " · you: team " + teamName(v.Teams[s.seat])
	}
	return l
}

// teamName names team 0 and 1 as the game does.
func teamName(t int) string { return string(rune('A' + t)) }

// tokenLine is one token in the list: selection cursor (when the token is in focus),
// a space, then the shared part (the letter, the name, the exact cell and how many
// tokens share it, the lock state while placing: publicList, token i of list), then the
// vote cells the phase needs.
func (s *Screen) tokenLine(t qd.Token, p gameui.Painter, list *publicList, i int, focused bool) string {
	mark := " "
	if focused {
		mark = cursor
	}
	var cells string
	switch s.v.Phase {
	case qd.PhasePlacement:
		cells = list.states[i]
	case qd.PhaseVoting:
		cells = s.voteCell(t, p)
	case qd.PhaseTeamVote:
		cells = s.ballotCell(t, p)
	}
	// (A round's tokens are all the active team's: a mark for the viewer's teammates,
	// as there was, marked all of them or none, and nobody knew what it meant.)
	return mark + " " + list.tags[i] + list.names[i] + list.cells[i] + cells
}

// tokenTag is a seat's token letter in its colour; plain frames rely on the letter.
func (s *Screen) tokenTag(seat int, p gameui.Painter) string {
	l := string(s.letters[seat])
	if seat == s.seat {
		return paint(p, lookInk(look{kind: focusLook, a: seat}), l)
	}
	return paint(p, lookInk(look{kind: seatLook, a: seat}), l)
}

// voteCell is a token's line while the active players vote.
func (s *Screen) voteCell(t qd.Token, p gameui.Painter) string {
	status := paint(p, dimInk, "voting")
	if t.Voted {
		status = paint(p, goodInk, tick+" voted")
	}
	if t.Seat == s.seat {
		return "(you) " + status
	}
	if s.role() != voting {
		for _, mv := range s.v.MyVotes {
			if mv.Seat == t.Seat {
				// Your number as while you chose it ("→ 3"): "you: 3 ✓ voted" was cut at 80.
				return fmt.Sprintf("→ %d ", mv.Number) + status
			}
		}
		return status
	}
	if n := s.ballot[t.Seat]; n != 0 {
		return paint(p, boldInk, fmt.Sprintf("→ %d", n)) + "  " + status
	}
	return "→ ?  " + status
}

// ballotCell is a token's line on the team ballot (numbers only for the inactive team):
// the number and who wrote it last, "?" after a name marking a suggestion.
func (s *Screen) ballotCell(t qd.Token, p gameui.Painter) string {
	if s.v.Ballot == nil {
		// The active team never sees the ballot: it sees its own votes instead.
		return s.voteCell(t, p)
	}
	for _, e := range s.v.Ballot.Votes {
		if e.Seat != t.Seat {
			continue
		}
		by := ""
		if e.By != qd.NoSeat {
			by = " " + s.name(e.By)
			if e.Suggested {
				by += "?"
			}
		}
		if e.Number == 0 {
			return "→ ?" + paint(p, dimInk, by)
		}
		return paint(p, boldInk, fmt.Sprintf("→ %d", e.Number)) + paint(p, dimInk, by)
	}
	return "→ ?"
}

// approvals says who approved the team ballot and whom it waits for, by name: the
// guessing team has no tokens, so their letters would say nothing. With a suggestion on
// the ballot, a line says what the "?" after a name means. Laid over lines of width w.
func (s *Screen) approvals(p gameui.Painter, w int) []string {
	ok := map[int]bool{}
	for _, a := range s.v.Ballot.Approved {
		ok[a] = true
	}
	var yes, no []string
	for seat, team := range s.v.Teams {
		switch {
		case team == s.v.ActiveTeam:
		case ok[seat]:
			yes = append(yes, s.name(seat))
		default:
			no = append(no, s.name(seat))
		}
	}
	text := tick + " approved: nobody yet"
	if len(yes) > 0 {
		text = tick + " approved: " + strings.Join(yes, ", ")
	}
	if len(no) > 0 {
		text += " · waiting: " + strings.Join(no, ", ")
	}
	lines := gameui.Wrap(text, w)
	for _, e := range s.v.Ballot.Votes {
		if e.Suggested {
			for _, l := range gameui.Wrap("? after a name: a bot's suggestion", w) {
				lines = append(lines, paint(p, dimInk, l))
			}
			break
		}
	}
	return lines
}
