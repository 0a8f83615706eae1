package talltale

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"parlor/playertext"
	"parlor/rules"
	tt "parlor/rules/talltale"
	"parlor/session/gameui"
)

// Render draws the game area: exactly f.Width wide and at most f.Height tall.
func (s *Screen) Render(f gameui.Frame) string {
	if s.v == nil {
		return gameui.Fit("Waiting for the game to start…", f.Width)
	}
	// Nothing drawn depends on f.Now (the session shows the time left) nor on f.Names
	// (the view has them), so the frame is reused until the view, a key or the size changes.
	key := f.Key()
	if !s.fresh || key != s.cachedFrame {
		s.cached, s.cachedFrame, s.fresh = s.render(f), key, true
	}
	return s.cached
}

func (s *Screen) render(f gameui.Frame) string {
	var lines []string
	switch {
	case s.v.Phase == tt.PhaseOver:
		lines = s.renderOver(f)
	case s.v.Phase == tt.PhaseReveal && s.v.Reveal != nil:
		lines = s.renderReveal(f)
	case s.v.Phase == tt.PhaseDiscard && s.narrating():
		lines = s.renderDiscard(f)
	case s.Typing():
		lines = s.renderWriting(f)
	default:
		lines = s.renderBoards(f)
	}
	if f.Large() && s.v.Phase != tt.PhaseOver {
		// A large area has room for the score history under the round.
		lines = append(lines, gameui.ScorePanel(s.v.Sheet, s.v.Names, f.Width, f.Height-len(lines), f.Plain)...)
	}
	if len(lines) > f.Height {
		lines = lines[:f.Height]
	}
	for i, l := range lines {
		lines[i] = gameui.Fit(l, f.Width)
	}
	return strings.Join(lines, "\n")
}

// status says who narrates and how many tokens each racer has placed.
func (s *Screen) status(f gameui.Frame) string {
	v := s.v
	line := "Narrator: " + s.seatName(v.Narrator, f.Plain)
	if v.TieBreak { // the title bar above shows the round
		line = "Tie-break! " + line
	}
	if v.Phase == tt.PhaseRace {
		line += " · tokens: "
		// mark is how an away racer is marked: " (away)", or "~" where that is too long.
		tokens := func(nameW int, mark func(int) string) string {
			parts := make([]string, 0, len(v.Racers))
			for _, r := range v.Racers {
				name := v.Names[r]
				if r == s.seat {
					name = "you"
				}
				parts = append(parts, ansi.Truncate(name, nameW, "…")+mark(r)+" "+
					strings.Repeat("*", v.Placed[r])+strings.Repeat(".", tt.Tokens-v.Placed[r]))
			}
			return strings.Join(parts, "  ")
		}
		long := func(r int) string { return gameui.AwayMark(f, r) }
		all := tokens(f.Width, long)
		for _, mark := range []func(int) string{long, func(r int) string {
			if f.Away.Has(r) {
				return "~"
			}
			return ""
		}} {
			if rules.Width(line+all) <= f.Width {
				break
			}
			// Every racer's count shows: long names give way, each to its share of what
			// the counts and the away marks leave.
			marks := 0
			for _, r := range v.Racers {
				marks += rules.Width(mark(r))
			}
			all = tokens(max(3, (f.Width-rules.Width(line)-marks)/max(1, len(v.Racers))-len(" ***  ")), mark)
		}
		line += all
	}
	if v.Reminded && (v.Phase == tt.PhaseDiscard || v.Phase == tt.PhaseStory) {
		line += " · " + gameui.Painter{Plain: f.Plain}.Paint(warn, "hurry: the time is nearly up (⏱ above)") // the title counts the seconds
	}
	return line
}

func (s *Screen) storyLines(f gameui.Frame, max int) []string {
	if s.v.Story == "" {
		return nil
	}
	lines := gameui.Wrap("“"+s.v.Story+"”", f.Width-2)
	if len(lines) > max {
		lines = lines[:max]
	}
	for i := range lines {
		lines[i] = "  " + gameui.Painter{Plain: f.Plain}.Paint(bold, lines[i])
	}
	teller := s.seatName(s.v.Narrator, f.Plain)
	if s.v.StoryBot {
		teller = "a bot for " + teller
	}
	return append([]string{"The story, told by " + teller + ":"}, lines...)
}

// renderBoards is the race (and the wait for the story): the story and the boards.
func (s *Screen) renderBoards(f gameui.Frame) []string {
	p := gameui.Painter{Plain: f.Plain}
	v := s.v
	lines := []string{s.status(f)}
	switch {
	case v.Phase == tt.PhaseDiscard:
		lines = append(lines, "")
		if v.TieBreak {
			lines = append(lines, p.Paint(bold, "Tie-break between "+s.nameList(v.Tied, f.Plain)+": only "+s.nameList(v.Racers, f.Plain)+" race this round."), "")
		}
		lines = append(lines, s.seatName(v.Narrator, f.Plain)+" drew 4 illustrations and is choosing 3 for the story.", "")
		return append(lines, s.standings(f, nil)...)
	case v.Phase == tt.PhaseStory && s.narrating():
		lines = append(lines, "Your story so far: "+s.storyText()+p.Paint(dim, "  (enter to go on writing)"))
	case v.Phase == tt.PhaseStory:
		lines = append(lines, "The race starts as soon as the story is sent.") // the prompt says who writes it
	}
	var note string
	switch {
	case s.note != "":
		note = p.Paint(warn, s.note)
	case v.Phase == tt.PhaseRace && !slices.Contains(v.Racers, s.seat) && s.seat >= 0 && s.seat != v.Narrator:
		note = "You are not in this tie-break: watch the race."
	case v.Hand != nil && v.Phase == tt.PhaseRace:
		note = p.Paint(dim, "## marks your illustrations; the others' tokens stay hidden until the reveal.")
	}
	if v.Phase != tt.PhaseStory {
		// The story gets what the boards leave: status, header, tabs and the grid.
		room := f.Height - 3 - gridRows(f.Large())
		if note != "" {
			room--
		}
		lines = append(lines, s.storyLines(f, max(2, room))...)
	}
	if len(v.Boards) == 0 {
		return lines
	}
	if note != "" {
		lines = append(lines, note)
	}
	// A wide terminal shows the boards side by side; a tall one one above the other;
	// 80×24 one at a time, tab switching.
	perRow := max(1, min(len(v.Boards), f.Width/(5*cellWidth+2)))
	if perRow == 1 {
		if stacked := s.stackedBoards(f, f.Height-len(lines)); stacked != nil {
			return append(lines, stacked...)
		}
		return append(append(lines, s.tabs(f.Plain)), s.grid(f.Plain, s.board, f.Large())...)
	}
	lines = append(lines, s.tabs(f.Plain))
	grids := make([][]string, len(v.Boards))
	for i := range v.Boards {
		grids[i] = s.grid(f.Plain, i, f.Large())
	}
	for start := 0; start < len(grids); start += perRow {
		for row := range grids[start] {
			var line strings.Builder
			for i := start; i < min(start+perRow, len(grids)); i++ {
				line.WriteString(grids[i][row] + "  ")
			}
			lines = append(lines, line.String())
		}
	}
	return lines
}

// nameList names seats, "Ann, Bob and Cat".
func (s *Screen) nameList(seats []int, plain bool) string {
	var names []string
	for _, seat := range seats {
		names = append(names, s.seatName(seat, plain))
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// renderDiscard shows the narrator's 4 drawn illustrations.
func (s *Screen) renderDiscard(f gameui.Frame) []string {
	h := s.v.Hand
	lines := []string{s.status(f), "You are the narrator! You drew these 4 illustrations. Discard one and keep 3:", ""}
	var rows [4]strings.Builder
	w := f.Width / 4
	for i, ill := range h.Drawn {
		mark := "  "
		if i == s.pick {
			mark = "> "
		}
		cells := []string{
			fmt.Sprintf("%s%d  %s", mark, i+1, ill.Colour),
			"     " + ill.Glyph,
			"     " + ill.Name,
			"",
		}
		if i == s.pick {
			cells[3] = "   (discard)"
		}
		for r, c := range cells {
			c = gameui.Fit(c, w)
			if i == s.pick && !f.Plain {
				c = cursor.Render(c)
			} else {
				c = gameui.Painter{Plain: f.Plain}.Paint(colourStyle(ill.Colour, f.Plain), c)
			}
			rows[r].WriteString(c)
		}
	}
	for _, r := range rows {
		lines = append(lines, r.String())
	}
	if s.pick < len(h.Drawn) {
		var kept []string
		cols := map[string]bool{}
		for i, ill := range h.Drawn {
			if i != s.pick {
				kept = append(kept, ill.Name)
				cols[ill.Colour] = true
			}
		}
		var boards []string
		for _, c := range tt.Colours {
			if cols[c] {
				boards = append(boards, c)
			}
		}
		lines = append(lines, "", fmt.Sprintf("Discard %s and keep %s:", h.Drawn[s.pick].Name, strings.Join(kept, ", ")),
			fmt.Sprintf("then the %s in play.", plural(boards)))
	}
	return append(append(lines, ""), s.standings(f, nil)...)
}

func plural(boards []string) string {
	if len(boards) == 1 {
		return boards[0] + " board is"
	}
	return strings.Join(boards[:len(boards)-1], ", ") + " and " + boards[len(boards)-1] + " boards are"
}

// renderWriting is the narrator's story box with its counter and live checks.
func (s *Screen) renderWriting(f gameui.Frame) []string {
	p := gameui.Painter{Plain: f.Plain}
	v := s.v
	lines := []string{s.status(f), "Your illustrations: hint at them, but do not say these words:"}
	for _, k := range v.Hand.Kept {
		lines = append(lines, "  "+cardLine(k, f.Plain)+p.Paint(dim, " · "+strings.Join(k.Forbidden[1:], ", ")))
	}
	text := s.storyText()
	lines = append(lines, "", fmt.Sprintf("Your story, one or two sentences (%d/%d):", tt.StoryWidth(text), tt.MaxStory))
	lines = append(lines, s.storyView(f.Width, f.Plain)...)
	// Every reason enter refuses the story is on screen, the forbidden words beside them.
	clean := playertext.Clean(text)
	problems := storyProblems(clean)
	if clean == "" {
		lines = append(lines, p.Paint(dim, "Write the story, then press enter: \"The end of the story!\""))
	}
	if s.note != "" && s.writing {
		lines = append(lines, p.Paint(warn, s.note)) // a paste cut at the box's limit
	}
	for _, l := range problems {
		lines = append(lines, p.Paint(warn, l))
	}
	if found := s.forbidden(); len(found) > 0 && v.Mode != tt.ModeStrict {
		for _, para := range forbiddenNote(found, s.warned != "") {
			for _, l := range gameui.Wrap(para, f.Width) {
				lines = append(lines, p.Paint(warn, l))
			}
		}
	} else if clean != "" && len(problems) == 0 {
		lines = append(lines, "Press enter to send it: \"The end of the story!\"")
	}
	if v.Mode == tt.ModeStrict {
		lines = append(lines, p.Paint(dim, "Strict table: forbidden words cost 2 points, with no warning."))
	}
	var boards []string
	for _, b := range v.Boards {
		boards = append(boards, b.Colour)
	}
	return append(lines, fmt.Sprintf("Boards in play: %s. Press esc to look at them.", strings.Join(boards, ", ")))
}

// misses says where the round's tokens that found nothing went, racer by racer: "Ann on
// ball and bus; Bob on umbrella" ("" if none).
func (s *Screen) misses() string {
	r := s.v.Reveal
	kept := map[int]bool{}
	for _, k := range r.Kept {
		kept[k.Card.ID] = true
	}
	names := map[int]string{}
	for _, b := range s.v.Boards {
		for _, ill := range b.Illustrations {
			names[ill.ID] = ill.Name
		}
	}
	bySeat := map[int][]string{}
	var order []int
	for _, t := range r.Tokens {
		if kept[t.Card] {
			continue
		}
		if _, seen := bySeat[t.Seat]; !seen {
			order = append(order, t.Seat)
		}
		bySeat[t.Seat] = append(bySeat[t.Seat], names[t.Card])
	}
	slices.Sort(order)
	parts := make([]string, 0, len(order))
	for _, seat := range order {
		parts = append(parts, s.v.Names[seat]+" on "+rules.List(bySeat[seat]))
	}
	return strings.Join(parts, "; ")
}

// renderReveal shows the narrator's illustrations, the tokens on them and the points.
func (s *Screen) renderReveal(f gameui.Frame) []string {
	p := gameui.Painter{Plain: f.Plain}
	r := s.v.Reveal
	narr := s.seatName(r.Narrator, f.Plain)
	lines := []string{s.status(f)}
	if r.TimedOut {
		lines = append(lines, fmt.Sprintf("Time is up: %s told no story. Everyone else scores %d.", narr, tt.TimeoutScore))
	} else {
		lines = append(lines, s.storyLines(f, f.Height)...)
		if r.Narrator == s.seat {
			lines = append(lines, "Your illustrations were:")
		} else {
			lines = append(lines, p.Paint(bold, s.v.Names[r.Narrator])+"'s illustrations were:")
		}
	}
	for _, k := range r.Kept {
		var hits []string
		for _, h := range k.Hits {
			hits = append(hits, fmt.Sprintf("%s +%d", s.v.Names[h.Seat], h.Points))
		}
		got := "nobody found it"
		if len(hits) > 0 {
			got = strings.Join(hits, ", ")
		}
		lines = append(lines, "  "+cardLine(k.Card, f.Plain)+"  ← "+got)
	}
	missedAt := len(lines)
	if !r.TimedOut {
		lines = append(lines, gameui.Wrap(fmt.Sprintf("The narrator, %s, scores %d: %s.", s.v.Names[r.Narrator], r.NarratorScore, r.NarratorRule), f.Width)...)
	}
	if r.Forbidden != "" {
		for _, l := range gameui.Wrap(fmt.Sprintf("The story said %s: -%d.", r.ForbiddenSaid(), r.Penalty), f.Width) {
			lines = append(lines, p.Paint(warn, l))
		}
	}
	// The round's points after the penalty, so a penalised narrator sees what they got.
	net := slices.Clone(r.Points)
	net[r.Narrator] -= r.Penalty
	// The whole story stays: when the scores would not fit one per line, they share lines.
	if table := s.standings(f, net); len(lines)+1+len(table) <= f.Height {
		lines = append(append(lines, ""), table...)
	} else {
		lines = append(lines, s.standingsLine(f, net)...)
	}
	// Where the tokens that found nothing went, where there is room for it.
	if missed := s.misses(); missed != "" {
		if more := gameui.Wrap(p.Paint(dim, "Missed: "+missed+"."), f.Width); len(lines)+len(more) <= f.Height {
			lines = slices.Insert(lines, missedAt, more...)
		}
	}
	return lines
}

// renderOver shows the final results.
func (s *Screen) renderOver(f gameui.Frame) []string {
	lines := []string{gameui.Painter{Plain: f.Plain}.Paint(bold, "The game is over: "+s.v.Outcome+"!"), ""}
	return append(lines, gameui.Sheet(s.v.Sheet, s.v.Names, f.Width, f.Height-len(lines), f.Plain)...)
}

// standings lists every player by score, with this round's points when given.
func (s *Screen) standings(f gameui.Frame, round []int) []string {
	v := s.v
	order := make([]int, len(v.Names))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return v.Scores[b] - v.Scores[a] })
	lines := []string{"Scores:"}
	for _, seat := range order {
		line := fmt.Sprintf("  %3d  %s%s", v.Scores[seat], s.seatName(seat, f.Plain), gameui.AwayMark(f, seat))
		if round != nil {
			line += fmt.Sprintf("  (%+d this round)", round[seat])
		}
		if slices.Contains(v.Winners, seat) {
			line += "  winner!"
		} else if v.TieBreak && slices.Contains(v.Tied, seat) {
			line += "  tied"
		}
		if seat == v.Narrator && v.Phase != tt.PhaseOver {
			line += "  narrator"
		}
		lines = append(lines, line)
	}
	return lines
}

// standingsLine is the scores in as few lines as the width allows: "Ann 12 (+3) · …".
func (s *Screen) standingsLine(f gameui.Frame, round []int) []string {
	v := s.v
	order := make([]int, len(v.Names))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return v.Scores[b] - v.Scores[a] })
	var parts []string
	for _, seat := range order {
		part := fmt.Sprintf("%s %d", v.Names[seat], v.Scores[seat])
		if round != nil {
			part += fmt.Sprintf(" (%+d)", round[seat])
		}
		parts = append(parts, strings.ReplaceAll(part, " ", "\u00a0")) // one entry never breaks
	}
	lines := gameui.Wrap("Scores: "+strings.Join(parts, " · "), f.Width)
	for i := range lines {
		lines[i] = strings.ReplaceAll(lines[i], "\u00a0", " ")
	}
	return lines
}
