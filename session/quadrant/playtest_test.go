package quadrant

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
)

// The playtest's sizes: the game areas of 80×24 and 120×40 terminals.
var playtestAreas = []gameui.Frame{areas[0], areas[2]}

// drawAt draws s in f, in colour and plain, checks its lines (checkLines), and returns
// the plain lines with their trailing blanks cut.
func drawAt(t *testing.T, s *Screen, f gameui.Frame) []string {
	t.Helper()
	var plain []string
	for _, p := range []bool{false, true} {
		f.Plain, f.Seat = p, s.seat
		s.dirty = true
		lines := strings.Split(s.Render(f), "\n")
		checkLines(t, lines, f)
		if p {
			for _, l := range lines {
				plain = append(plain, strings.TrimRight(l, " "))
			}
		}
	}
	return plain
}

// botsPlay lets bots play every seat of g until stop says so (or the game ends).
func botsPlay(t *testing.T, g *qd.Game, stop func(v qd.View) bool) {
	t.Helper()
	n := len(g.View(0).(qd.View).Names)
	bots := make([]rules.Bot, n)
	for i := range bots {
		bots[i] = qd.NewBot(rules.BotSetup{Seat: i, Seed: uint64(i)})
	}
	now := t0
	for step := 0; step < 20000; step++ {
		v := g.View(0).(qd.View)
		if stop(v) || v.Over {
			return
		}
		now = now.Add(500 * time.Millisecond)
		g.Tick(now)
		for i, b := range bots {
			if a := b.Act(g.View(i), now); a != nil {
				if err := g.Apply(i, rules.Encode(a), now); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Fatal("the bots did not get there")
}

// tokenRow is the line of the token list or reveal that shows seat's token.
func tokenRow(lines []string, s *Screen, seat int) string {
	prefix := string(s.letters[seat]) + " " + s.name(seat)
	for _, l := range lines {
		if strings.Contains(l, prefix) {
			return l
		}
	}
	return ""
}

// 1. The last round is revealed like the others: the game-over screen shows who held which
// word and every vote on it, with the final standings.
func TestGameOverRevealsTheLastRound(t *testing.T) {
	for _, c := range []struct {
		n    int
		mode string
	}{{7, qd.ModeCompetitive}, {14, qd.ModeTeam}} {
		g := newGame(t, c.n, c.mode)
		botsPlay(t, g, func(qd.View) bool { return false })
		for _, seat := range []int{0, rules.Spectator} {
			s := screenFor(g, seat)
			if !s.v.Over || s.v.Reveal == nil {
				t.Fatalf("%s: over %v, reveal %v", c.mode, s.v.Over, s.v.Reveal)
			}
			for _, f := range playtestAreas {
				lines := drawAt(t, s, f)
				out := strings.Join(lines, "\n")
				if !strings.Contains(out, "★ Game over: ") || !strings.Contains(out, "Total") {
					t.Fatalf("%s %dx%d: no winners or standings:\n%s", c.mode, f.Width, f.Height, out)
				}
				for _, tk := range s.v.Tokens {
					n := s.v.Reveal.Numbers[tk.Seat]
					row := tokenRow(lines, s, tk.Seat)
					if !strings.Contains(row, fmt.Sprintf(" %d %s", n, s.v.Words[n-1])) || !strings.ContainsAny(row, tick+cross) {
						t.Fatalf("%s %dx%d: %s's word and votes are not revealed:\n%s", c.mode, f.Width, f.Height, s.name(tk.Seat), out)
					}
				}
			}
		}
	}
}

// 3. At 80 columns the team ballot's verdict on every token and every vote on it stay in
// view, even with the longest words.
func TestTeamRevealFitsTheBallotAt80(t *testing.T) {
	g := newGame(t, 14, qd.ModeTeam)
	botsPlay(t, g, func(v qd.View) bool { return v.Phase == qd.PhaseScoring && v.Reveal.BallotCast })
	for _, seat := range []int{1, 2, rules.Spectator} {
		s := screenFor(g, seat)
		for i := range s.v.Words {
			s.v.Words[i] = fmt.Sprintf("%d%s", i, strings.Repeat("w", qd.MaxWordLen-1))
		}
		for _, f := range playtestAreas {
			lines := drawAt(t, s, f)
			for _, tk := range s.v.Tokens {
				row := tokenRow(lines, s, tk.Seat)
				var team qd.Verdict
				for _, vt := range s.v.Reveal.TeamVotes {
					if vt.Seat == tk.Seat {
						team = vt
					}
				}
				if !strings.Contains(row, s.verdict("team", team, gameui.Painter{Plain: true})) || !strings.HasSuffix(row, tick) && !strings.HasSuffix(row, cross) {
					t.Fatalf("seat %d %dx%d: %s's row lacks the team ballot or its last vote: %q\n%s", seat, f.Width, f.Height, s.name(tk.Seat), row, strings.Join(lines, "\n"))
				}
			}
		}
	}
}

// 4. An away player's token keeps the list's columns and its row's end in view.
func TestAwayTokenKeepsTheColumns(t *testing.T) {
	g := newGame(t, 7, qd.ModeCompetitive)
	botsPlay(t, g, func(v qd.View) bool { return v.Phase == qd.PhaseVoting })
	s := screenFor(g, 1)
	for _, f := range playtestAreas {
		f.Away = gameui.SeatSet(0).With(2)
		lines := drawAt(t, s, f)
		out := strings.Join(lines, "\n")
		ana, cid := tokenRow(lines, s, 0), tokenRow(lines, s, 2)
		col := func(row string) int { return ansi.StringWidth(row[:strings.Index(row, "→ ?")]) }
		if !strings.Contains(cid, "→ ?") || col(cid) != col(ana) || !strings.HasSuffix(cid, "voting") {
			t.Fatalf("%dx%d: Cid (away) %q, Ana %q:\n%s", f.Width, f.Height, cid, ana, out)
		}
		if !strings.Contains(out, "~ away") {
			t.Fatalf("%dx%d: nothing says Cid is away:\n%s", f.Width, f.Height, out)
		}
	}
}

// 5. The team game's score sheet has a column per team, not one per seat.
func TestTeamScoreSheetIsPerTeam(t *testing.T) {
	g := newGame(t, 14, qd.ModeTeam)
	botsPlay(t, g, func(qd.View) bool { return false })
	s := screenFor(g, 0)
	for _, f := range playtestAreas {
		lines := drawAt(t, s, f)
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "Score sheet") })
		if i < 0 || strings.Fields(lines[i])[2] != "Team" || strings.Count(lines[i], "Team") != 2 || strings.Contains(lines[i], "…") {
			t.Fatalf("%dx%d: sheet head %d:\n%s", f.Width, f.Height, i, strings.Join(lines, "\n"))
		}
		total := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "Total") })
		if want := fmt.Sprint(s.v.TeamScores[0], s.v.TeamScores[1]); total < 0 || strings.Join(strings.Fields(lines[total])[1:], " ") != want {
			t.Fatalf("%dx%d: totals, want %s:\n%s", f.Width, f.Height, want, strings.Join(lines, "\n"))
		}
	}
}

// 6. The voting keys name the numbers there are: 1 to N.
func TestNumberKeysSayHowManyWords(t *testing.T) {
	g := newGame(t, 4, qd.ModeCompetitive)
	ss := []*Screen{screenFor(g, 0), screenFor(g, 1), screenFor(g, 2), screenFor(g, 3)}
	lockAllByKeys(t, g, ss)
	if k := ss[0].Keys(); len(k) < 2 || k[1].Keys != "1-4" {
		t.Fatalf("voting keys %+v, want 1-4", k)
	}
	tg := newGame(t, 10, qd.ModeTeam)
	botsPlay(t, tg, func(v qd.View) bool { return v.Phase == qd.PhaseTeamVote })
	if k := screenFor(tg, 1).Keys(); len(k) < 2 || k[1].Keys != "1-5" {
		t.Fatalf("team ballot keys %+v, want 1-5", k)
	}
}

// 7. The team ballot says by name who approved it and whom it waits for (the guessing
// team has no tokens, so letters would say nothing), and its legend is whole.
func TestTeamBallotApprovalsByName(t *testing.T) {
	g := newGame(t, 14, qd.ModeTeam)
	botsPlay(t, g, func(v qd.View) bool { return v.Phase == qd.PhaseTeamVote })
	// Bot Fay suggests a number, Bob approves nothing yet.
	v := g.View(5).(qd.View)
	if err := g.Apply(5, rules.Encode(qd.BallotSet{Type: qd.TypeBallotSet, Seat: v.Tokens[0].Seat, Number: 1, Suggest: true}), t0); err != nil {
		t.Fatal(err)
	}
	s := screenFor(g, 1)
	for _, f := range playtestAreas {
		lines := drawAt(t, s, f)
		out := strings.Join(lines, "\n")
		// The approvals' lines, from the column where they start (the plane is beside them).
		i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "approved:") })
		if i < 0 {
			t.Fatalf("%dx%d: no approvals:\n%s", f.Width, f.Height, out)
		}
		col := ansi.StringWidth(lines[i][:strings.Index(lines[i], tick+" approved:")])
		var text []string
		for _, l := range lines[i:min(i+4, len(lines))] {
			text = append(text, ansi.Cut(l, col, f.Width))
		}
		flat := strings.Join(strings.Fields(strings.Join(text, " ")), " ")
		if !strings.Contains(flat, "? after a name: a bot's suggestion") || !strings.Contains(flat, "waiting: Bob, Dee, Fay, Hal, Jon, Lou, Ned") {
			t.Fatalf("%dx%d: the approvals do not name the team, or the legend is cut:\n%s", f.Width, f.Height, out)
		}
		for _, l := range lines {
			if strings.HasSuffix(l, "…") && !strings.Contains(l, "▲") {
				t.Fatalf("%dx%d: a cut line %q:\n%s", f.Width, f.Height, l, out)
			}
		}
	}
}

// 2. Counts agree with their nouns: "1 point", not "1 points".
func TestWinnersCountPoints(t *testing.T) {
	s := New(0)
	s.v = qd.View{Mode: qd.ModeCompetitive, Names: []string{"Ana", "Bob"}}
	s.v.Scores = []int{1, 0}
	if got := s.winners(); got != "Ana wins with 1 point" {
		t.Fatalf("winners %q", got)
	}
}

// A revealed team round (and the last one, at game over) says which team placed the
// tokens listed under it and which guessed, in the past: a heading "Team A — you are
// guessing this round" over team B's tokens read as if they were team A's.
func TestTeamRevealSaysWhoPlacedTheTokens(t *testing.T) {
	g := newGame(t, 8, qd.ModeTeam)
	botsPlay(t, g, func(v qd.View) bool { return v.Phase == qd.PhaseScoring && v.Reveal.BallotCast })
	for _, seat := range []int{0, 1, rules.Spectator} {
		s := screenFor(g, seat)
		active, other := teamName(s.v.ActiveTeam), teamName(1-s.v.ActiveTeam)
		want := fmt.Sprintf("Team %s placed these tokens, team %s guessed them", active, other)
		if seat >= 0 {
			want += " · you: team " + teamName(s.v.Teams[seat])
		}
		out := strings.Join(drawAt(t, s, playtestAreas[0]), "\n")
		if !strings.Contains(out, want) || strings.Contains(out, "this round") && strings.Contains(out, "guessing") {
			t.Fatalf("seat %d: want %q:\n%s", seat, want, out)
		}
	}
}

// A round's results say how to read the votes on the tokens and, where the area has the
// room, how each player scored (a playtester saw the breakdown only at game over), and
// the line saying what to press is never pushed off.
func TestRoundResultsExplainThemselves(t *testing.T) {
	for _, c := range []struct {
		n    int
		mode string
	}{{5, qd.ModeCompetitive}, {7, qd.ModeCompetitive}, {14, qd.ModeTeam}} {
		g := newGame(t, c.n, c.mode)
		botsPlay(t, g, func(v qd.View) bool { return v.Phase == qd.PhaseScoring })
		s := screenFor(g, 0)
		for _, f := range playtestAreas {
			out := strings.Join(drawAt(t, s, f), "\n")
			if !strings.Contains(out, "Press enter when you are ready") {
				t.Fatalf("%d %s %dx%d: no key to go on:\n%s", c.n, c.mode, f.Width, f.Height, out)
			}
			if !strings.Contains(out, "B voted 3 on this token") {
				t.Errorf("%d %s %dx%d: nothing says how to read the votes:\n%s", c.n, c.mode, f.Width, f.Height, out)
			}
			if c.mode == qd.ModeCompetitive && f.Height >= 35 && !strings.Contains(out, "right vote") {
				t.Errorf("%d %s %dx%d: no breakdown of the points:\n%s", c.n, c.mode, f.Width, f.Height, out)
			}
		}
	}
}

// After sending your votes, each token's row keeps your number and whether its player
// has voted whole at 80×24 ("you: 3 ✓ vot…" was cut).
func TestSentVotesRowsAreWhole(t *testing.T) {
	g := newGame(t, 7, qd.ModeCompetitive)
	botsPlay(t, g, func(v qd.View) bool { return v.Phase == qd.PhaseVoting && len(v.MyVotes) > 0 })
	s := screenFor(g, 0)
	lines := drawAt(t, s, playtestAreas[0])
	for _, tk := range s.v.Tokens {
		if tk.Seat == 0 {
			continue
		}
		row := tokenRow(lines, s, tk.Seat)
		if strings.Contains(row, "…") || !sentVote.MatchString(row) {
			t.Fatalf("%s's row: %q\n%s", s.name(tk.Seat), row, strings.Join(lines, "\n"))
		}
	}
}

// The marker of your token's row (◀ at the plane's right edge) does not take the place
// of the horizontal axis's ▶ when your token is on the axis: a playtester read "◀" there
// as the axis pointing left.
func TestTheAxisArrowStaysWhenYourTokenIsOnIt(t *testing.T) {
	g := newGame(t, 5, qd.ModeCompetitive)
	s := screenFor(g, 0) // every token starts at the centre
	f := playtestAreas[0]
	lines := drawAt(t, s, f)
	geo := s.layout(f.Width, f.Height)
	for _, l := range lines {
		if strings.Contains(l, "──────") { // the horizontal axis
			plane := ansi.Cut(l, 0, geo.width())
			if !strings.HasSuffix(strings.TrimRight(plane, " "), "▶") || strings.Contains(plane, "◀") {
				t.Fatalf("the axis row: %q\n%s", plane, strings.Join(lines, "\n"))
			}
			return
		}
	}
	t.Fatalf("no axis row:\n%s", strings.Join(lines, "\n"))
}

// Numbers typed into the team ballot faster than the table answers are not told from a
// ballot that has not caught up: a playtester typed quickly and read "Swapped: 3 on
// eve's token, 1 on Cid's", which never happened.
func TestFastBallotKeysAreNotToldFromAStaleBallot(t *testing.T) {
	g := newGame(t, 8, qd.ModeTeam)
	botsPlay(t, g, func(v qd.View) bool { return v.Phase == qd.PhaseTeamVote })
	seat := -1
	for i := range 8 {
		if vi := g.View(i).(qd.View); vi.Ballot != nil && len(vi.Ballot.Votes) >= 2 {
			seat = i
			break
		}
	}
	if seat < 0 {
		t.Fatal("nobody votes on a ballot")
	}
	votes := g.View(seat).(qd.View).Ballot.Votes
	t0s, t1s := votes[0].Seat, votes[1].Seat
	// The ballot before: 1 on the first token, 2 on the second.
	for _, set := range []qd.BallotSet{{Type: qd.TypeBallotSet, Seat: t0s, Number: 1}, {Type: qd.TypeBallotSet, Seat: t1s, Number: 2}} {
		if err := g.Apply(seat, rules.Encode(set), t0); err != nil {
			t.Fatal(err)
		}
	}
	s := screenFor(g, seat)
	for s.targets()[s.sel] != t0s {
		s.Update(key("tab"))
	}
	a1, _ := s.Update(key("2")) // 2 on the first token: a swap, told rightly
	if !strings.Contains(s.msg, "Swapped") {
		t.Fatalf("the swap is not told: %q", s.msg)
	}
	for s.targets()[s.sel] != t1s {
		s.Update(key("tab"))
	}
	// 1 on the second token before the table's answer: it has 1 already, so nothing
	// moves; the stale ballot (1 on the first token) would tell a swap.
	a2, _ := s.Update(key("1"))
	if strings.Contains(s.msg, "Swapped") || strings.Contains(s.msg, "Moved") {
		t.Errorf("a note from a ballot that has not caught up: %q", s.msg)
	}
	for _, a := range []any{a1, a2} {
		if err := g.Apply(seat, rules.Encode(a), t0); err != nil {
			t.Fatal(err)
		}
	}
}
