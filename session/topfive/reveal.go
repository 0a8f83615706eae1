package topfive

import (
	"fmt"
	"slices"

	"parlor/rules"
	tf "parlor/rules/topfive"
	"parlor/session/gameui"
)

// reveal draws the reveal and the round's scores: one row per topic in reveal order,
// rows not yet reached shown as "?", each player's rank with a tick or a cross and the
// marker, then the points.
func (s *Screen) reveal(f gameui.Frame) []string {
	if s.v.Variant == tf.VariantDuo {
		return s.duoReveal(f)
	}
	p := gameui.Painter{Plain: f.Plain}
	v := s.v
	var guessers []int
	for seat := range v.Names {
		if seat != v.Honour {
			guessers = append(guessers, seat)
		}
	}
	cellW := max(6, min(10, (f.Width-6-20)/max(1, len(guessers))))
	topicW := min(tf.MaxTopicWidth+1, f.Width-6-cellW*len(guessers))
	out := []string{s.status(f)}
	if v.Tally != nil && v.Tally.Forfeit {
		out = append(out, "", p.Paint(bad, s.seatName(f, v.Honour, 0)+" did not rank in time: the round is forfeited and no one scores."))
		return append(out, s.standings(f)...)
	}
	out = append(out, p.Paint(bold, s.nameOf(f, v.Honour)+"'s ranking, revealed from 5 to 1")+p.Paint(dim, "  ("+tick+" right, "+markerSym+" marker)"))
	head := gameui.Fit("rank", 6) + gameui.Fit("topic", topicW-1) + " "
	for _, g := range guessers {
		head += gameui.Fit(s.seatName(f, g, cellW-1), cellW)
	}
	out = append(out, p.Paint(dim, head))
	points := make(map[int]int)
	first := len(out)
	for k := range tf.Hand {
		if k >= len(v.Reveal) {
			out = append(out, p.Paint(dim, gameui.Fit(fmt.Sprintf("  %d", tf.Hand-k), 6)+"?"))
			continue
		}
		row := v.Reveal[k]
		line := fmt.Sprintf("  %d   ", row.Rank)
		topic := ""
		if row.Topic >= 0 && row.Topic < len(v.Topics) {
			topic = v.Topics[row.Topic]
		}
		line = gameui.Fit(line, 6) + gameui.Fit(p.Paint(bold, gameui.Fit(topic, topicW-1)), topicW)
		for _, g := range guessers {
			line += gameui.Fit(s.cell(p, row, g), cellW)
			for _, gs := range row.Guesses {
				if gs.Seat == g {
					points[g] += gs.Points
				}
			}
		}
		out = append(out, line)
	}
	if f.Large() {
		out = append(out[:first], spaced(out[first:], 0)...)
	}
	sum := gameui.Fit("", 6) + gameui.Fit("points this round", topicW)
	for _, g := range guessers {
		n := points[g]
		if v.Tally != nil && g < len(v.Tally.Lines) {
			n = v.Tally.Lines[g].Points
		}
		sum += gameui.Fit(fmt.Sprintf("+%d", n), cellW)
	}
	out = append(out, p.Paint(bold, sum))
	if v.Tally == nil {
		return out
	}
	out = append(out, "")
	for _, l := range v.Tally.Lines {
		out = append(out, s.tallyLine(f, l))
	}
	return out
}

// cell is one player's guess for a revealed topic, e.g. "3 ✓ !".
func (s *Screen) cell(p gameui.Painter, row tf.Row, seat int) string {
	for _, g := range row.Guesses {
		if g.Seat != seat {
			continue
		}
		if g.Rank == 0 {
			return p.Paint(dim, "—")
		}
		mark := p.Paint(bad, cross)
		if g.Right {
			mark = p.Paint(good, tick)
		}
		c := fmt.Sprintf("%d %s", g.Rank, mark)
		if g.Marker {
			c += " " + p.Paint(warn, markerSym)
		}
		return c
	}
	return ""
}

// tallyLine explains one seat's points for the round.
func (s *Screen) tallyLine(f gameui.Frame, l tf.Line) string {
	p := gameui.Painter{Plain: f.Plain}
	name := gameui.Fit(s.seatName(f, l.Seat, 12), 13)
	total := 0
	if l.Seat < len(s.v.Scores) {
		total = s.v.Scores[l.Seat]
	}
	tail := fmt.Sprintf("   total %d", total)
	switch {
	case l.Role == tf.RoleHonour:
		return name + gameui.Fit(fmt.Sprintf("Player of Honour: as the best Guesser = +%d", l.Points), 50) + tail
	case !l.Submitted:
		return name + gameui.Fit("ran out of time = +0", 50) + tail
	}
	var why string
	why = fmt.Sprintf("%d right", l.Right)
	if l.Marker > 0 {
		why += " · marker +1"
	} else {
		why += " · marker +0"
	}
	if l.Perfect > 0 {
		why += " · " + p.Paint(good, "perfect +1")
	}
	return name + gameui.Fit(why+fmt.Sprintf(" = +%d", l.Points), 50) + tail
}

// nameMax is the widest a player's name is, in columns (session.NameMax).
const nameMax = 16

// duoReveal draws both rankings topic by topic and the matches.
func (s *Screen) duoReveal(f gameui.Frame) []string {
	p := gameui.Painter{Plain: f.Plain}
	v := s.v
	out := []string{s.status(f)}
	if v.Tally != nil && v.Tally.Forfeit {
		out = append(out, "", p.Paint(bad, s.duoWho(f, "One of you", "One of them")+" did not rank in time: the round is forfeited."))
		return out
	}
	out = append(out, p.Paint(bold, s.duoWho(f, "Your", "Their")+" two rankings, one topic at a time"), "")
	topicW := min(tf.MaxTopicWidth+2, f.Width-40)
	// A column per player as wide as the area allows (a name has up to 16 columns), and
	// "✓ match" after them.
	colW := max(12, min(nameMax+2, (f.Width-2-topicW-len("✓ match"))/max(1, len(v.Names))))
	head := gameui.Fit("", 2) + gameui.Fit("topic", topicW)
	for seat := range v.Names {
		head += gameui.Fit(s.seatName(f, seat, colW-1), colW)
	}
	out = append(out, p.Paint(dim, head+"same?"))
	matched := 0
	for k := range tf.Hand {
		if k >= len(v.Reveal) {
			out = append(out, p.Paint(dim, "  ?"))
			continue
		}
		row := v.Reveal[k]
		topic := ""
		if row.Topic >= 0 && row.Topic < len(v.Topics) {
			topic = v.Topics[row.Topic]
		}
		line := "  " + gameui.Fit(topic, topicW)
		for _, g := range row.Guesses {
			line += gameui.Fit(fmt.Sprint(g.Rank), colW)
		}
		if row.Match {
			matched++
			line += p.Paint(good, tick+" match")
		} else {
			line += p.Paint(bad, cross)
		}
		out = append(out, line)
	}
	out = append(out, "")
	if v.Tally != nil {
		matched = v.Tally.Joint
	}
	who := s.duoWho(f, "You", "")
	msg := fmt.Sprintf("%s matched %d of %d", who, matched, len(v.Reveal))
	if v.Tally != nil {
		msg = fmt.Sprintf("%s matched %d of %d this round.", who, v.Tally.Joint, tf.Hand)
	}
	out = append(out, p.Paint(bold, msg))
	switch {
	case len(v.Scores) == 0:
	case v.Tally != nil: // the round is scored
		out = append(out, fmt.Sprintf("Together: %s after %d of %d rounds (50 is perfect, 15 is already good).", rules.Count(v.Scores[0], "point"), v.Round, v.Rounds))
	case v.Round > 1: // still revealing: the total does not have this round yet
		out = append(out, fmt.Sprintf("Together before this round: %s.", rules.Count(v.Scores[0], "point")))
	}
	return out
}

// duoWho is the pair in a duo, as the viewer reads it: you (a player), else their names
// ("Ann and Ben"), or watching if given ("One of them").
func (s *Screen) duoWho(f gameui.Frame, playing, watching string) string {
	if s.seat >= 0 {
		return playing
	}
	if watching != "" {
		return watching
	}
	return s.seatName(f, 0, 16) + " and " + s.seatName(f, 1, 16)
}

// standings lists every seat by total, best first.
func (s *Screen) standings(f gameui.Frame) []string {
	p := gameui.Painter{Plain: f.Plain}
	v := s.v
	seats := make([]int, len(v.Names))
	for i := range seats {
		seats[i] = i
	}
	score := func(seat int) int {
		if seat < len(v.Scores) {
			return v.Scores[seat]
		}
		return 0
	}
	slices.SortStableFunc(seats, func(a, b int) int { return score(b) - score(a) })
	out := []string{"", p.Paint(bold, "Totals")}
	for _, seat := range seats {
		tag := ""
		if slices.Contains(v.Winners, seat) {
			tag += "  " + p.Paint(good, "winner")
		}
		out = append(out, fmt.Sprintf("  %s %3d%s", gameui.Fit(s.seatName(f, seat, 16), 17), score(seat), tag))
	}
	return out
}

// final draws the end of the game: the winner(s) and every total.
func (s *Screen) final(f gameui.Frame) []string {
	p := gameui.Painter{Plain: f.Plain}
	v := s.v
	out := []string{p.Paint(bold, "Game over after "+fmt.Sprint(v.Rounds)+" rounds"), ""}
	if v.Variant == tf.VariantDuo {
		total := 0
		if len(v.Scores) > 0 {
			total = v.Scores[0]
		}
		verdict := "keep practising!"
		switch {
		case total >= 50:
			verdict = "a perfect score!"
		case total >= 30:
			verdict = "you two think alike!"
		case total >= 15:
			verdict = "a good score."
		}
		who := "you"
		if f.Seat < 0 { // a spectator watches the pair
			who = rules.List(f.Names)
		}
		out = append(out, p.Paint(good, fmt.Sprintf("Together %s scored %d of 50: %s", who, total, verdict)),
			"50 is perfect; 15 is already a good score.")
	} else if v.Summary != "" {
		out = append(out, p.Paint(good, v.Summary+"!"))
	}
	out = append(out, "")
	return append(out, gameui.Sheet(v.Sheet, v.Names, f.Width, f.Height-len(out), f.Plain)...)
}
