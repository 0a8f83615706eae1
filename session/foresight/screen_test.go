package foresight

import (
	"fmt"
	"parlor/session/gameui/gameuitest"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
	fs "parlor/rules/foresight"
	"parlor/session/gameui"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

var names8 = []string{"Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"}

// deck has long 3- and 5-choice questions, to stress the layout.
func deck(n int) []byte {
	var b strings.Builder
	for i := range n {
		if i%2 == 0 {
			fmt.Fprintf(&b, "family | Question %d: %s? | one | two | three\n", i, strings.Repeat("a rather long question ", 6)[:130])
		} else {
			fmt.Fprintf(&b, "family | Question %d? | %s | %s | %s | %s | %s\n", i,
				strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40), strings.Repeat("d", 40), strings.Repeat("e", 40))
		}
	}
	return []byte(b.String())
}

func newGame(t testing.TB, n int, d []byte) *fs.Game {
	t.Helper()
	g, err := fs.New(rules.Setup{Names: names8[:n], Seed: 1, Options: rules.Options{"timer": "off"},
		Content: map[string][]byte{fs.QuestionsFile: d}, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func press(s *Screen, keys ...string) any {
	var last any
	for _, k := range keys {
		last, _ = s.Update(gameuitest.Key(k))
	}
	return last
}

var frame = gameui.Frame{Width: 80, Height: 19, Now: t0}

// render draws at 80×19 and checks the size.
func render(t *testing.T, s *Screen, f gameui.Frame) string {
	t.Helper()
	out := s.Render(f)
	lines := strings.Split(out, "\n")
	if len(lines) > f.Height {
		t.Fatalf("%d lines, at most %d:\n%s", len(lines), f.Height, out)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > f.Width {
			t.Fatalf("a line %d wide, at most %d: %q", w, f.Width, l)
		}
	}
	if err := gameuitest.FooterError(80, s.Keys(), s.Typing()); err != nil {
		t.Fatal(err)
	}
	return ansi.Strip(out)
}

func mustContain(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Fatalf("screen lacks %q:\n%s", w, out)
		}
	}
}

// With many players, what is still to choose reads whole at 80 columns: the form's rows
// show whom a prediction is missing for.
func TestTodoReadsWholeWithManyPlayers(t *testing.T) {
	g := newGame(t, 8, deck(4))
	s := New(0)
	s.SetView(g.View(0))
	press(s, "enter")
	mustContain(t, render(t, s, frame), "Not sent. Still to choose: your answer and predictions for 7 players.")
	press(s, "2", "down", "1", "down", "1", "down", "1", "down", "1", "down", "1", "down", "1") // all but the last
	press(s, "enter")
	mustContain(t, render(t, s, frame), "Not sent. Still to choose: a prediction for "+names8[7]+".")
}

// TestFormLiveRulesAndSubmit: the form shows each breach as it is made, names the rule,
// only submits a valid form, and what it submits the engine accepts.
func TestFormLiveRulesAndSubmit(t *testing.T) {
	g := newGame(t, 3, deck(4))
	s := New(0)
	s.SetView(g.View(0))
	if a := press(s, "enter"); a != nil {
		t.Fatal("an empty form was submitted")
	}
	mustContain(t, render(t, s, frame), "Not sent. Still to choose: your answer and predictions for Ben and Cat.", "Wagered 0 of your 600 points · 600 left")
	press(s, "2", "down", "1", "right", "1", "down", "1") // answer 2; Ben 1 with A 100; Cat A 100
	out := render(t, s, frame)
	mustContain(t, out, "✗ At most one 100-point wager per column: column A has 2", "Wagered 200 of your 600 points · 400 left")
	if a := press(s, "enter"); a != nil {
		t.Fatal("a form breaking a wager rule was submitted")
	}
	press(s, "5", "left", "3", "right", "right", "+", "+") // Cat: A 50, prediction 3, B 50
	out = render(t, s, frame)
	if strings.Contains(out, "✗") {
		t.Fatalf("a valid form shows a breach:\n%s", out)
	}
	mustContain(t, out, "Ready: press enter to submit", "[   50]")
	a := press(s, "enter")
	sub, ok := a.(fs.Submit)
	if !ok {
		t.Fatalf("enter gave %#v, want a submission", a)
	}
	want := fs.Submit{Type: fs.TypeSubmit, Answer: 2, Predictions: []fs.Prediction{{Seat: 1, Choice: 1, A: 100}, {Seat: 2, Choice: 3, A: 50, B: 50}}}
	if fmt.Sprint(sub) != fmt.Sprint(want) {
		t.Fatalf("submitted %+v, want %+v", sub, want)
	}
	if err := g.Apply(0, rules.Encode(sub), t0); err != nil {
		t.Fatal(err)
	}
	s.SetView(g.View(0))
	mustContain(t, render(t, s, frame), "sent ✓")
	if press(s, "enter") != nil {
		t.Fatal("the same form was sent twice")
	}
}

// TestOverPointsShownLive: a player low on points sees the total rule named as they break it.
func TestOverPointsShownLive(t *testing.T) {
	g := newGame(t, 2, deck(4))
	s := New(1)
	v := g.View(1).(fs.View)
	v.Scores[1] = 25
	s.SetView(v)
	press(s, "down", "right", "5")
	mustContain(t, render(t, s, frame), "✗ Your wagers may not total more than your points: you wager 50 but have 25", "-25 left")
	v.Scores[1] = 0
	s.SetView(v)
	press(s, "right", "2")
	mustContain(t, render(t, s, frame), "You have 0 points", "✗ With 0 points you may wager at most 50 in total, all on one single wager")
	// The rule reads whole (it wraps), and enter says it was not sent without repeating it.
	press(s, "up", "1", "down", "left", "left", "1", "enter") // the answer and the prediction too
	flat := strings.Join(strings.Fields(render(t, s, frame)), " ")
	mustContain(t, flat, "all on one single wager (you wager 75 on 2 wagers)", "Not sent: a wager breaks the rule marked ✗.")
}

// TestRevealShowsTheWorkedExample: the reveal table of the rules page's example.
func TestRevealShowsTheWorkedExample(t *testing.T) {
	g := newGame(t, 3, []byte("family | Which? | one | two | three\nfamily | Next? | a | b | c\n"))
	subs := []fs.Submit{
		{Type: "submit", Answer: 1, Predictions: []fs.Prediction{{Seat: 1, Choice: 2, A: 100, B: 50}, {Seat: 2, Choice: 1, A: 25}}},
		{Type: "submit", Answer: 2, Predictions: []fs.Prediction{{Seat: 0, Choice: 1, A: 50, B: 25}, {Seat: 2, Choice: 2, A: 50, B: 100}}},
		{Type: "submit", Answer: 2, Predictions: []fs.Prediction{{Seat: 0, Choice: 3, B: 25}, {Seat: 1, Choice: 2, A: 100, B: 25}}},
	}
	for p, sub := range subs {
		if err := g.Apply(p, rules.Encode(sub), t0); err != nil {
			t.Fatal(err)
		}
	}
	s := New(1)
	s.SetView(g.View(1))
	out := render(t, s, frame)
	mustContain(t, out, "Round 1 results", "+125", "725", "+225", "825", "+100", "700", "2 +100", "1 -25", "B 0 ", "3 0 ", "▸ Ben")
	if a := press(s, "enter"); a != (fs.Ready{Type: fs.TypeReady}) {
		t.Fatalf("enter in the reveal gave %#v, want ready", a)
	}
	for _, k := range s.Keys() {
		if k.Keys == "enter" {
			return
		}
	}
	t.Fatal("the keys do not show enter in the reveal")
}

// TestAZeroWagerHasNoSign: a wager of 0 neither wins nor loses anything, so the reveal
// shows it as 0, won or lost: "B -0" read like a loss.
func TestAZeroWagerHasNoSign(t *testing.T) {
	g := newGame(t, 3, []byte("family | Which? | one | two | three\nfamily | Next? | a | b | c\n"))
	subs := []fs.Submit{
		{Type: "submit", Answer: 1, Predictions: []fs.Prediction{{Seat: 1, Choice: 3, A: 100}, {Seat: 2, Choice: 1}}},
		{Type: "submit", Answer: 2, Predictions: []fs.Prediction{{Seat: 0, Choice: 2}, {Seat: 2, Choice: 1}}},
		{Type: "submit", Answer: 1, Predictions: []fs.Prediction{{Seat: 0, Choice: 1}, {Seat: 1, Choice: 2}}},
	}
	for p, sub := range subs {
		if err := g.Apply(p, rules.Encode(sub), t0); err != nil {
			t.Fatal(err)
		}
	}
	for seat := range 3 {
		s := New(seat)
		s.SetView(g.View(seat))
		for _, plain := range []bool{false, true} {
			f := frame
			f.Plain = plain
			out := render(t, s, f)
			mustContain(t, out, "Round 1 results", "3 -100", "B 0 ", "1 0 ", "2 0 ")
			for _, signed := range []string{"-0 ", "+0 ", "B -0", "B +0"} {
				if strings.Contains(out, signed) {
					t.Fatalf("seat %d: a zero wager shows as %q:\n%s", seat, signed, out)
				}
			}
		}
	}
}

// TestRevealSaysWhatADashMeans: a player who gave no answer in time shows as "—", and
// the legend under the table says so then.
func TestRevealSaysWhatADashMeans(t *testing.T) {
	g := newGame(t, 3, []byte("family | Which? | one | two | three\nfamily | Next? | a | b | c\n"))
	for p := range 3 {
		var preds []fs.Prediction
		for o := range 3 {
			if o != p {
				preds = append(preds, fs.Prediction{Seat: o, Choice: 1})
			}
		}
		if err := g.Apply(p, rules.Encode(fs.Submit{Type: "submit", Answer: 1, Predictions: preds}), t0); err != nil {
			t.Fatal(err)
		}
	}
	v := g.View(0).(fs.View)
	s := New(0)
	s.SetView(v)
	if out := render(t, s, frame); strings.Contains(out, "no answer in time") {
		t.Fatalf("the legend speaks of a late answer nobody gave:\n%s", out)
	}
	v.Reveal.Players[2].TimedOut, v.Reveal.Players[2].Answer = true, 0
	s.SetView(v)
	mustContain(t, render(t, s, frame), "— : no answer in time.")
}

// TestWholeGamesRender: bots play whole games at 2 to 8 players; every seat's screen and
// the spectator's fit 80×19 at every step, in colour and plain, and show what matters.
func TestWholeGamesRender(t *testing.T) {
	for n := 2; n <= 8; n++ {
		g := newGame(t, n, deck(6))
		bots := make([]*fs.Bot, n)
		screens := make([]*Screen, n+1)
		for p := range bots {
			bots[p] = fs.NewBot(rules.BotSetup{Seat: p, Seed: uint64(p)})
		}
		for i := range screens {
			screens[i] = New(i - 1)
		}
		now := t0
		for step := 0; ; step++ {
			if step > 5000 {
				t.Fatalf("%d players: game did not end", n)
			}
			now = now.Add(time.Second)
			g.Tick(now)
			for p, b := range bots {
				if a := b.Act(g.View(p), now); a != nil {
					if err := g.Apply(p, rules.Encode(a), now); err != nil {
						t.Fatal(err)
					}
				}
			}
			for i, s := range screens {
				v := g.View(i - 1).(fs.View)
				s.SetView(v)
				f := frame
				f.Plain = step%2 == 0
				f.Height -= step % 3 % 2 // 80×18 too, the smallest area a session gives
				if step%7 == 0 {
					f.Width, f.Height = 120, 30
				}
				out := render(t, s, f)
				switch {
				case v.Over:
					mustContain(t, out, "Game over")
				case v.Phase == fs.PhaseReveal:
					mustContain(t, out, fmt.Sprintf("Round %d results", v.Round))
				case i > 0:
					mustContain(t, out, "You (answer)", "Question", "Wagered")
					for p, name := range v.Names { // every opponent keeps their row
						if p != i-1 {
							mustContain(t, out, name)
						}
					}
				default:
					mustContain(t, out, "Question", "Submitted")
				}
			}
			if _, over := g.Outcome(); over {
				break
			}
		}
		s := screens[1]
		out := render(t, s, frame)
		mustContain(t, out, "Game over", "Score sheet", "Total", "Last round:", "A (own predictions)")
		press(s, "tab")
		mustContain(t, render(t, s, frame), "results")
	}
}

// TestReconnectRestoresDraft: a fresh screen shows the submission already sent.
func TestReconnectRestoresDraft(t *testing.T) {
	g := newGame(t, 2, deck(4))
	sub := fs.Submit{Type: "submit", Answer: 3, Predictions: []fs.Prediction{{Seat: 0, Choice: 2, A: 50, B: 25}}}
	if err := g.Apply(1, rules.Encode(sub), t0); err != nil {
		t.Fatal(err)
	}
	s := New(1)
	s.SetView(g.View(1))
	out := render(t, s, frame)
	mustContain(t, out, "3 three", "2 two", "sent ✓", "Wagered 75 of your 600 points")
	press(s, "down", "right", "0")
	mustContain(t, render(t, s, frame), "changes not sent", "Wagered 25")
}

// TestSpectatorAndPlain: a spectator sees who has submitted, never a form; plain frames
// carry no colour codes and still mark the selected cell.
func TestSpectatorAndPlain(t *testing.T) {
	g := newGame(t, 3, deck(4))
	if err := g.Apply(2, rules.Encode(fs.Submit{Type: "submit", Answer: 1, Predictions: []fs.Prediction{{Seat: 0, Choice: 1}, {Seat: 1, Choice: 1}}}), t0); err != nil {
		t.Fatal(err)
	}
	sp := New(rules.Spectator)
	sp.SetView(g.View(rules.Spectator))
	out := render(t, sp, frame)
	mustContain(t, out, "Cat", "✓ submitted", "Ann", "… choosing")
	if strings.Contains(out, "You (answer)") || sp.Keys() != nil || press(sp, "enter") != nil {
		t.Fatal("a spectator gets a form")
	}
	s := New(0)
	s.SetView(g.View(0))
	f := frame
	f.Plain = true
	raw := s.Render(f)
	if strings.Contains(raw, "\x1b[") {
		t.Fatal("a plain frame has escape codes")
	}
	mustContain(t, raw, "▸ You (answer)", "[—")
	if press(s, "9"); !strings.Contains(render(t, s, f), "only 3 answers") {
		t.Fatal("no message for an answer past the choices")
	}
}

// TestKeysByMode: the footer always lists the keys that work now.
func TestKeysByMode(t *testing.T) {
	g := newGame(t, 2, deck(4))
	s := New(0)
	s.SetView(g.View(0))
	has := func(want string) {
		t.Helper()
		for _, k := range s.Keys() {
			if k.Keys == want {
				return
			}
		}
		t.Fatalf("keys %v lack %q", s.Keys(), want)
	}
	has("1-3")
	has("enter")
	press(s, "down", "right")
	has("0 2 5 1 + -")
	for _, k := range s.Keys() {
		for _, reserved := range []string{"?", "q", "/"} {
			if k.Keys == reserved {
				t.Fatalf("uses the reserved key %q", reserved)
			}
		}
	}
}

// From 120×40 the form's rows stand apart and the score sheet so far is under the round.
func TestLargeTerminalSpacesTheFormAndShowsTheSheet(t *testing.T) {
	table := gameuitest.NewTable(t, "foresight", names8[:4], rules.Options{"timer": "off"}, map[string][]byte{fs.QuestionsFile: deck(6)}, 1)
	table.Play(t, nil, nil, func() bool { // round 1 is played and scored
		h := table.Game.View(0).Head()
		return h.Round == 2 && h.Phase == fs.PhaseAnswering
	})
	g, now := table.Game, table.Now
	s := New(0)
	s.SetView(g.View(0))
	draw := func(w, h int) []string {
		return gameuitest.Area(t, s.Render(gameui.Frame{Width: w, Height: h, Now: now}), w, h)
	}
	small, large := draw(80, gameui.AreaHeight), draw(gameuitest.Width120x40, gameuitest.Height120x40)
	gap := func(lines []string) int {
		return gameuitest.Index(lines, names8[1]) - gameuitest.Index(lines, "You (answer)")
	}
	if gap(small) != 1 || gap(large) != 2 {
		t.Errorf("form rows %d apart at 80×24, %d at 120×40:\n%s", gap(small), gap(large), strings.Join(large, "\n"))
	}
	if gameuitest.Index(small, "Score sheet") >= 0 || gameuitest.Index(large, "Score sheet") < 0 || gameuitest.Index(large, "Total") < 0 {
		t.Errorf("the score sheet belongs to large terminals only:\n%s\n\n%s", strings.Join(small, "\n"), strings.Join(large, "\n"))
	}
}

// The help shows the game's keys (Keys): on every cell of the form they are all there,
// the wager keys too, and the answer keys say what they choose on the selected row.
func TestEveryFormKeyIsInTheHelp(t *testing.T) {
	g := newGame(t, 3, deck(4))
	s := New(0)
	s.SetView(g.View(0))
	keys := func() map[string]string {
		t.Helper()
		render(t, s, frame) // the footer shows them all, on at most two lines
		if len(gameui.GameFooter(120, s.Keys(), false)) > 1 {
			t.Fatalf("row %d column %d: the footer takes two lines at 120 columns (the game would lose its large layout): %v", s.row, s.col, s.Keys())
		}
		m := map[string]string{}
		for _, k := range s.Keys() {
			m[k.Keys] = k.Help
		}
		for _, want := range []string{"enter", "↑↓←→", "1-3", "0 2 5 1 + -"} {
			if m[want] == "" {
				t.Fatalf("row %d column %d: the keys %v lack %q", s.row, s.col, s.Keys(), want)
			}
		}
		return m
	}
	if k := keys(); !strings.Contains(k["1-3"], "your answer") || strings.Contains(k["1-3"], "predict") {
		t.Errorf("on the own answer, 1-3 is %q", k["1-3"])
	}
	press(s, "down") // Ben's prediction
	if k := keys(); !strings.Contains(k["1-3"], "predict") || strings.Contains(k["1-3"], "your answer") {
		t.Errorf("on an opponent's prediction, 1-3 is %q", k["1-3"])
	}
	for range 2 { // Ben's A, then B
		press(s, "right")
		if k := keys(); !strings.Contains(k["0 2 5 1 + -"], "0/25/50/100") || !strings.Contains(k["1-3"], "predict") {
			t.Errorf("on a wager, the keys are %v", s.Keys())
		}
	}
	// The footer has no room to say what + and - do: the help does.
	more := map[string]string{}
	for _, k := range s.MoreKeys() {
		more[k.Keys] = k.Help
	}
	if !strings.Contains(more["+ - space"], "step") {
		t.Errorf("the help does not say what + and - do: %v", s.MoreKeys())
	}
}

// The form says what its columns A and B are, at 80×24 (a game area of 80×19 under a
// footer of two lines, 80×18 at the smallest) with 8 players, the most notes and the
// longest answers, and keeps every row and every answer.
func TestFormExplainsColumnsAAndB(t *testing.T) {
	g := newGame(t, 8, deck(4))
	s := New(0)
	v := g.View(0).(fs.View)
	d := strings.Split(strings.TrimSpace(string(deck(2))), "\n")[1] // five answers of 40 letters
	v.Choices = strings.Split(d, " | ")[2:]
	s.SetView(v)
	press(s, "down", "right", "1", "down", "1", "enter") // a breach and a refusal: three notes
	for _, h := range []int{19, 18} {
		f := frame
		f.Height = h
		out := render(t, s, f)
		mustContain(t, out, "A: wager that you predict them right", "B: wager that they predict you right",
			"✗ At most one 100-point wager", "Not sent.")
		mustContain(t, out, names8[1:]...)
		for i := range v.Choices {
			mustContain(t, out, fmt.Sprintf(" %d  %c", i+1, 'a'+i))
		}
	}
}

// revealOf8 is a round of 8 players scored, with five long answers; over, the game ended
// with it and the screen shows its table (tab).
func revealOf8(t *testing.T, over bool) *Screen {
	t.Helper()
	q := "| " + strings.Join([]string{strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40), strings.Repeat("d", 40), strings.Repeat("e", 40)}, " | ") + "\n"
	g := newGame(t, 8, []byte("family | Which? "+q+"family | Which now? "+q))
	for p := range 8 {
		sub := fs.Submit{Type: "submit", Answer: p%5 + 1}
		for o := range 8 {
			if o != p {
				sub.Predictions = append(sub.Predictions, fs.Prediction{Seat: o, Choice: 3, A: 25, B: 25})
			}
		}
		if err := g.Apply(p, rules.Encode(sub), t0); err != nil {
			t.Fatal(err)
		}
	}
	v := g.View(0).(fs.View)
	if over {
		v.Over, v.Phase, v.Winners = true, fs.PhaseOver, []int{0}
	}
	s := New(0)
	s.SetView(v)
	if over {
		press(s, "tab") // the last round's table
	}
	return s
}

// With 8 players at 80×24 (80×20) the round's table keeps the legend of its answers,
// every answer numbered and readable, in the reveal and once the game is over.
func TestRevealOf8KeepsTheAnswerLegend(t *testing.T) {
	for _, over := range []bool{false, true} {
		s := revealOf8(t, over)
		for _, h := range []int{gameui.AreaHeight, gameui.AreaHeight - 1} {
			f := frame
			f.Height = h
			out := render(t, s, f)
			mustContain(t, out, "Round 1 results", "Hal")
			for i := range 5 {
				mustContain(t, out, fmt.Sprintf("%d %s", i+1, strings.Repeat(string(rune('a'+i)), 5)))
			}
		}
	}
}

// The names in the round's table take the room the frame leaves, up to a whole name
// (the away mark too), at 80×24 and 120×40; with 8 players at 80 columns they get
// what is left.
func TestRevealNamesUseTheRoom(t *testing.T) {
	long := []string{"漢字漢字漢字漢字", "Bot Alexander", "WWWWWWWWWWWWWWWW", "bob"}
	play := func(names []string) *Screen {
		table := gameuitest.NewTable(t, "foresight", names, rules.Options{"timer": "off"}, nil, 1)
		table.Play(t, nil, nil, func() bool { return table.Game.View(0).Head().Phase == fs.PhaseReveal })
		s := New(0)
		s.SetView(table.Game.View(0))
		return s
	}
	four := play(long)
	f := gameui.Frame{Width: 80, Height: gameui.AreaHeight, Now: t0, Away: gameui.SeatSet(0).With(3)}
	out := strings.Join(gameuitest.Area(t, four.Render(f), f.Width, f.Height), "\n")
	mustContain(t, out, "▸ 漢字漢字漢字漢字 ", "  Bot Alexander ", "  WWWWWWWWWWWWWWWW ", "  bob (away) ")
	three := play(long[:3])
	f = gameui.Frame{Width: gameuitest.Width120x40, Height: gameuitest.Height120x40, Now: t0}
	out = strings.Join(gameuitest.Area(t, three.Render(f), f.Width, f.Height), "\n")
	mustContain(t, out, "▸ 漢字漢字漢字漢字 ", "  Bot Alexander ", "  WWWWWWWWWWWWWWWW ")
	eight := play(append(long, "Eve", "Fay", "Gus", "Hal"))
	out = render(t, eight, gameui.Frame{Width: 80, Height: gameui.AreaHeight, Now: t0})
	mustContain(t, out, "▸ 漢字漢… ", "  Bot Al… ", "  bob     ")
}

// TestWagerCellSaysItsDigits: on a wager cell, a digit that is not a wager key (3 for a
// third answer, meant for the prediction beside it) is not dropped in silence: the
// screen says which keys a wager takes and where the prediction is.
func TestWagerCellSaysItsDigits(t *testing.T) {
	g := newGame(t, 3, deck(4))
	s := New(0)
	s.SetView(g.View(0))
	press(s, "down", "right", "3") // Ben's column A wager
	out := render(t, s, frame)
	mustContain(t, out, "A wager takes 0, 2 (25), 5 (50), 1 (100), + or -. An answer goes in Prediction.")
	if s.f.choice[0] != 0 || s.f.a[0] != 0 {
		t.Fatalf("3 on a wager changed the form: prediction %d, wager %d", s.f.choice[0], s.f.a[0])
	}
	press(s, "1")
	if s.f.a[0] != 100 || strings.Contains(render(t, s, frame), "A wager takes") {
		t.Fatalf("1 on a wager: %d, and the hint stays", s.f.a[0])
	}
}

// TestAWideQuestionWrapsByColumns: a question is limited to MaxQuestionLen columns, and
// one written without spaces (Japanese, Chinese) as wide as that is wrapped where its
// lines end, as an English one is between words, not cut to its first line with "…".
func TestAWideQuestionWrapsByColumns(t *testing.T) {
	question := strings.Repeat("東京大阪京都奈良神戸横浜名古屋札幌仙台", 4) + "か" // 154 columns
	choice := strings.Repeat("漢字仮名", 4) + "漢字仮"                // 38 columns
	if rules.Width(question) > fs.MaxQuestionLen || rules.Width(choice) > fs.MaxChoiceLen {
		t.Fatal("the fixture is past the content limits")
	}
	g := newGame(t, 3, []byte("family | "+question+" | "+choice+" | "+choice+"二 | "+choice+"三\n"))
	s := New(0)
	s.SetView(g.View(0))
	for _, plain := range []bool{false, true} {
		f := frame
		f.Plain = plain
		out := render(t, s, f)
		joined := strings.ReplaceAll(strings.ReplaceAll(out, " ", ""), "\n", "")
		if !strings.Contains(joined, question) {
			t.Fatalf("the question is cut:\n%s", out)
		}
		mustContain(t, out, choice+"二", choice+"三")
	}
}
