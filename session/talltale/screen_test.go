package talltale

import (
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"os"
	"parlor/session/gameui/gameuitest"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"parlor/rules"
	tt "parlor/rules/talltale"
	"parlor/session/gameui"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func newGame(t *testing.T, opts rules.Options) *tt.Game {
	t.Helper()
	return newGameOf(t, opts, "Ann", "Bob", "Cat")
}

// newGameOf is newGame with these players.
func newGameOf(t *testing.T, opts rules.Options, names ...string) *tt.Game {
	t.Helper()
	b, err := os.ReadFile("../../assets/content/" + tt.ContentFile)
	if err != nil {
		t.Fatal(err)
	}
	g, err := tt.New(rules.Setup{Names: names, Seed: 5, Options: opts, Content: map[string][]byte{tt.ContentFile: b}, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func key(s string) tea.KeyPressMsg { return gameuitest.Key(s) }

// check renders at 80×19 (plain and coloured) and checks the size, that the plain frame
// has no escape codes, and the wanted text.
func check(t *testing.T, s *Screen, want ...string) string {
	t.Helper()
	var out string
	for _, plain := range []bool{true, false} {
		out = s.Render(gameui.Frame{Width: 80, Height: gameui.AreaHeight, Now: t0, Seat: s.seat, Plain: plain})
		lines := strings.Split(out, "\n")
		if len(lines) > gameui.AreaHeight {
			t.Errorf("%d lines", len(lines))
		}
		for _, l := range lines {
			if w := lipgloss.Width(l); w > 80 {
				t.Errorf("line %d cells wide: %q", w, l)
			}
		}
		if plain && strings.Contains(out, "\x1b") {
			t.Errorf("a plain frame has escape codes:\n%q", out)
		}
		if plain {
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("render lacks %q:\n%s", w, out)
				}
			}
		}
	}
	if err := gameuitest.FooterError(80, s.Keys(), s.Typing()); err != nil {
		t.Fatal(err)
	}
	return out
}

func send(t *testing.T, g *tt.Game, seat int, a any) {
	t.Helper()
	if a == nil {
		t.Fatal("no action")
	}
	if err := g.Apply(seat, rules.Encode(a), t0); err != nil {
		t.Fatal(err)
	}
}

func typeString(s *Screen, text string) {
	for _, r := range text {
		if r == ' ' {
			s.Update(key("space"))
		} else {
			s.Update(key(string(r)))
		}
	}
}

func TestWholeRoundThroughTheScreens(t *testing.T) {
	g := newGame(t, nil)
	narr := g.View(0).(tt.View).Narrator
	others := []int{(narr + 1) % 3, (narr + 2) % 3}
	screens := make([]*Screen, 3)
	spect := New(rules.Spectator)
	update := func() {
		for i, s := range screens {
			s.SetView(g.View(i))
		}
		spect.SetView(g.View(rules.Spectator))
	}
	for i := range screens {
		screens[i] = New(i)
	}
	update()
	ns := screens[narr]
	hand := g.View(narr).(tt.View).Hand
	check(t, ns, "You are the narrator", hand.Drawn[0].Name, hand.Drawn[3].Name, "Discard")
	out := check(t, screens[others[0]], "is choosing 3")
	for _, ill := range hand.Drawn {
		if strings.Contains(out, " "+ill.Name+" ") || strings.Contains(spect.Render(gameui.Frame{Width: 80, Height: 19, Plain: true}), ill.Name) {
			t.Errorf("a guesser sees the drawn %s", ill.Name)
		}
	}
	if a, _ := screens[others[0]].Update(key("enter")); a != nil {
		t.Fatalf("guesser acted in the discard: %+v", a)
	}
	ns.Update(key("right"))
	a, _ := ns.Update(key("enter"))
	if d, ok := a.(tt.Discard); !ok || d.Card != hand.Drawn[1].ID {
		t.Fatalf("discard %+v", a)
	}
	send(t, g, narr, a)
	update()
	if !ns.Typing() || screens[others[0]].Typing() {
		t.Fatal("the story box should have focus for the narrator only")
	}
	kept := g.View(narr).(tt.View).Hand.Kept
	check(t, ns, "do not say", kept[0].Name, "0/280")
	typeString(ns, "Once upon a time the "+kept[0].Name+" sang")
	check(t, ns, "Forbidden word", kept[0].Name)
	if a, _ := ns.Update(key("enter")); a != nil {
		t.Fatalf("sent without warning: %+v", a)
	}
	check(t, ns, "Warning", "Enter again")
	// Edit the word away: no more warning; then the story goes.
	for range len(kept[0].Name) + 5 {
		ns.Update(key("backspace"))
	}
	ns.Update(tea.PasteMsg{Content: " someone\x1b[31m sang.\n"})
	out = check(t, ns, "someone sang.") // the escape sequence is gone whole
	if strings.Contains(out, "Forbidden word") {
		t.Fatalf("still flagged:\n%s", out)
	}
	a, _ = ns.Update(key("enter"))
	st, ok := a.(tt.Story)
	if !ok || st.Confirm || !strings.HasPrefix(st.Text, "Once upon a time the someone") {
		t.Fatalf("story %+v", a)
	}
	send(t, g, narr, a)
	update()
	check(t, screens[others[0]], "Once upon a time", "Boards in play", "tokens:")
	// A guesser places a token with enter, and moving on places another; a second
	// token on the same illustration is not sent.
	gs := screens[others[0]]
	a, _ = gs.Update(key("enter"))
	if _, ok := a.(tt.Token); !ok {
		t.Fatalf("token %+v", a)
	}
	send(t, g, others[0], a)
	update()
	if a, _ := gs.Update(key("space")); a != nil {
		t.Fatalf("second token on the same illustration: %+v", a)
	}
	check(t, gs, "*1")
	// Others see the count but not where.
	other := check(t, screens[others[1]], "tokens:")
	if strings.Contains(other, "*1") {
		t.Error("another player sees the token's place")
	}
	gs.Update(key("right"))
	a, _ = gs.Update(key("space"))
	send(t, g, others[0], a)
	gs.SetView(g.View(others[0]))
	gs.Update(key("down"))
	a, _ = gs.Update(key("enter"))
	send(t, g, others[0], a)
	g2s := screens[others[1]]
	for _, k := range []string{"up", "left", "tab"} {
		g2s.SetView(g.View(others[1]))
		g2s.Update(key(k))
		a, _ = g2s.Update(key("enter"))
		send(t, g, others[1], a)
	}
	update()
	check(t, spect, "illustrations were", kept[0].Name, kept[2].Name, "scores", "this round")
	// The game goes on to the end; the final screen names the winner.
	for !g.View(0).Head().Over {
		g.Tick(t0.Add(time.Hour))
		v := g.View(0).(tt.View)
		if v.Phase == tt.PhaseReveal || v.Over {
			continue
		}
		n := v.Narrator
		send(t, g, n, tt.Discard{Type: "discard", Card: g.View(n).(tt.View).Hand.Drawn[0].ID})
		send(t, g, n, tt.Story{Type: "story", Text: "A tale."})
		for _, s := range g.View(n).(tt.View).Racers {
			for i := range 3 {
				send(t, g, s, tt.Token{Type: "token", Card: g.View(s).(tt.View).Boards[0].Illustrations[i+5*s].ID})
			}
		}
	}
	update()
	res, _ := g.Outcome()
	check(t, screens[0], "The game is over", res.Summary, "Score sheet", "narrates", "Total", "Last round:")
}

func TestStrictModeHasNoWarning(t *testing.T) {
	g := newGame(t, rules.Options{tt.OptMode: tt.ModeStrict})
	narr := g.View(0).(tt.View).Narrator
	s := New(narr)
	s.SetView(g.View(narr))
	a, _ := s.Update(key("enter"))
	send(t, g, narr, a)
	s.SetView(g.View(narr))
	kept := g.View(narr).(tt.View).Hand.Kept
	typeString(s, "The "+kept[0].Name+".")
	if out := check(t, s, "Strict"); strings.Contains(out, "Forbidden word") {
		t.Error("strict mode flags words")
	}
	a, _ = s.Update(key("enter"))
	if st, ok := a.(tt.Story); !ok || st.Text != "The "+kept[0].Name+"." {
		t.Fatalf("story %+v", a)
	}
	// Esc leaves the box; enter comes back to it.
	s.Update(key("esc"))
	if s.Typing() {
		t.Fatal("esc did not leave the box")
	}
	check(t, s, "Boards in play")
	s.Update(key("enter"))
	if !s.Typing() {
		t.Fatal("enter did not return to the box")
	}
}

func TestTimedOutRevealAndWaiting(t *testing.T) {
	g := newGame(t, rules.Options{tt.OptTimer: "60s"})
	s := New(rules.Spectator)
	s.SetView(g.View(rules.Spectator))
	check(t, s, "is choosing")
	if len(s.Keys()) != 0 {
		t.Errorf("keys %v before the boards are known", s.Keys())
	}
	g.Tick(t0.Add(61 * time.Second))
	s.SetView(g.View(rules.Spectator))
	check(t, s, "hurry: the time is nearly up (⏱ above)")
	g.Tick(t0.Add(76 * time.Second))
	s.SetView(g.View(rules.Spectator))
	check(t, s, "Time is up", "scores 2")
	// A screen with no view yet renders a placeholder.
	if out := New(0).Render(gameui.Frame{Width: 80, Height: 19}); !strings.Contains(out, "Waiting") {
		t.Error(out)
	}
	if f, ok := gameui.Lookup(tt.ID); !ok || f(0) == nil {
		t.Error("screen not registered")
	}
}

func TestWideFrameTieBreakAndNarratorMarks(t *testing.T) {
	g := newGame(t, nil)
	narr := g.View(0).(tt.View).Narrator
	g.Apply(narr, rules.Encode(tt.Discard{Type: "discard", Card: g.View(narr).(tt.View).Hand.Drawn[0].ID}), t0)
	g.Apply(narr, rules.Encode(tt.Story{Type: "story", Text: "A tale.", Confirm: true}), t0)
	// The narrator sees their own illustrations marked on the boards during the race.
	s := New(narr)
	v := g.View(narr).(tt.View)
	s.SetView(v)
	check(t, s, "## marks your illustrations")
	// A wide terminal shows every board in play side by side.
	out := s.Render(gameui.Frame{Width: 170, Height: 40, Seat: narr, Plain: true})
	for _, l := range strings.Split(out, "\n") {
		if lipgloss.Width(l) > 170 {
			t.Fatalf("wide line %d", lipgloss.Width(l))
		}
	}
	for _, b := range v.Boards {
		if !strings.Contains(out, b.Illustrations[24].Name) {
			t.Errorf("board %s not shown side by side:\n%s", b.Colour, out)
		}
	}
	// A tie-break is announced to everyone.
	tv := g.View(rules.Spectator).(tt.View)
	tv.Phase, tv.TieBreak, tv.Tied, tv.Racers = tt.PhaseDiscard, true, []int{0, 1}, []int{0, 1}
	sp := New(rules.Spectator)
	sp.SetView(tv)
	check(t, sp, "Tie-break between Ann and Bob", "only Ann and Bob race")
}

// A 280-character story still leaves the whole grid on screen, at 19 and at 18 lines.
func TestLongStoryFits(t *testing.T) {
	g := newGame(t, nil)
	narr := g.View(0).(tt.View).Narrator
	send(t, g, narr, tt.Discard{Type: "discard", Card: g.View(narr).(tt.View).Hand.Drawn[0].ID})
	story := strings.Repeat("lo ", 92) + "end."
	send(t, g, narr, tt.Story{Type: "story", Text: story, Confirm: true})
	for _, seat := range []int{narr, (narr + 1) % 3} {
		s := New(seat)
		v := g.View(seat).(tt.View)
		s.SetView(v)
		for _, h := range []int{18, 19} {
			out := s.Render(gameui.Frame{Width: 80, Height: h, Seat: seat, Plain: true})
			lines := strings.Split(out, "\n")
			last := v.Boards[0].Illustrations[24].Name
			if len(lines) > h || !strings.Contains(lines[len(lines)-1], last) || !strings.Contains(out, "lo lo") {
				t.Errorf("seat %d height %d:\n%s", seat, h, out)
			}
		}
	}
}

// writingNarrator is the narrator's screen of a new game at its story box (it kept three
// illustrations), and the narrator's seat.
func writingNarrator(t *testing.T) (*Screen, int) {
	t.Helper()
	g := newGame(t, nil)
	narr := g.View(0).(tt.View).Narrator
	send(t, g, narr, tt.Discard{Type: "discard", Card: g.View(narr).(tt.View).Hand.Drawn[0].ID})
	s := New(narr)
	s.SetView(g.View(narr))
	return s, narr
}

func TestStoryBoxWithEmojiAndWideCharacters(t *testing.T) {
	s, _ := writingNarrator(t)
	words := strings.Fields("🐝 Dr. Bee 🍯 flew over 蜂蜜の森 and 👩‍🚀 waved at the quiet 月 while 🎈 drifted past the old mill by the river bend tonight")
	for i, w := range words { // a terminal sends an emoji sequence as one key's text
		if i > 0 {
			s.Update(key("space"))
		}
		s.Update(tea.KeyPressMsg{Code: []rune(w)[0], Text: w})
	}
	// The astronaut, a sequence joined with U+200D, is kept as its two pictures, the width
	// every terminal draws it at (playertext).
	words[slices.Index(words, "👩\u200d🚀")] = "👩🚀"
	out := check(t, s)
	flat := strings.Join(strings.Fields(ansi.Strip(out)), " ")
	for _, w := range words {
		if !strings.Contains(flat, w) {
			t.Errorf("the story box hides %q:\n%s", w, ansi.Strip(out))
		}
	}
	if got := s.storyText(); got != strings.Join(words, " ") {
		t.Fatalf("the story holds %q", got)
	}
}

// A narrator who said a forbidden word sees their round's points after the penalty.
func TestPenalisedNarratorRoundPoints(t *testing.T) {
	g := newGame(t, rules.Options{tt.OptMode: tt.ModeStrict})
	narr := g.View(0).(tt.View).Narrator
	send(t, g, narr, tt.Discard{Type: "discard", Card: g.View(narr).(tt.View).Hand.Drawn[0].ID})
	kept := g.View(narr).(tt.View).Hand.Kept
	send(t, g, narr, tt.Story{Type: "story", Text: "The " + kept[0].Name + ".", Confirm: true})
	// One racer finds all three and one none, so the narrator has points to lose.
	racers := g.View(narr).(tt.View).Racers
	for _, c := range kept {
		send(t, g, racers[0], tt.Token{Type: "token", Card: c.ID})
	}
	placed := 0
	for _, b := range g.View(racers[1]).(tt.View).Boards {
		for _, ill := range b.Illustrations {
			if placed < 3 && ill.ID != kept[0].ID && ill.ID != kept[1].ID && ill.ID != kept[2].ID {
				send(t, g, racers[1], tt.Token{Type: "token", Card: ill.ID})
				placed++
			}
		}
	}
	v := g.View(narr).(tt.View)
	if v.Reveal == nil || v.Reveal.Penalty == 0 {
		t.Fatalf("no penalty in the reveal: %+v", v.Reveal)
	}
	s := New(narr)
	s.SetView(v)
	net := v.Reveal.NarratorScore - v.Reveal.Penalty
	out := check(t, s, fmt.Sprintf("(%+d this round)", net))
	if strings.Contains(out, fmt.Sprintf("(+%d this round)  narrator", v.Reveal.NarratorScore)) {
		t.Errorf("the narrator is shown the points before the penalty:\n%s", out)
	}
}

// The round number is in the session's title bar: the game area does not repeat it.
func TestRoundIsNotRepeated(t *testing.T) {
	g := newGame(t, nil)
	s := New(0)
	s.SetView(g.View(0))
	if out := check(t, s, "Narrator:"); strings.Contains(out, "round 1 of") {
		t.Errorf("round repeated:\n%s", out)
	}
	for _, l := range g.View(0).Head().Log {
		if strings.Contains(l, "of 6") {
			t.Errorf("the log repeats the round count: %q", l)
		}
	}
}

// From 120×40 the board's cells are set apart by rules, every board of the round shows
// at once (two large ones fit), and the score sheet so far is under the round where the
// boards leave room for it; every illustration keeps its place.
func TestLargeTerminalDrawsABiggerBoardAndTheSheet(t *testing.T) {
	table := gameuitest.NewTable(t, tt.ID, []string{"Ann", "Bob", "Cat"}, nil, nil, 5)
	table.Play(t, nil, nil, func() bool { // round 1 is played and scored
		h := table.Game.View(0).Head()
		return h.Round == 2 && h.Phase == tt.PhaseRace
	})
	g := table.Game
	racer := g.View(0).(tt.View).Racers[0]
	s := New(racer)
	s.SetView(g.View(racer))
	draw := func(w, h int) []string {
		return gameuitest.Area(t, s.Render(gameui.Frame{Width: w, Height: h, Seat: racer, Plain: true}), w, h)
	}
	small, large := draw(80, gameui.AreaHeight), draw(gameuitest.Width120x40, gameuitest.Height120x40)
	rules := func(lines []string) (n int) {
		for _, l := range lines {
			n += strings.Count(l, " "+strings.Repeat("─", cellWidth-2)+" ")
		}
		return n
	}
	n := len(s.v.Boards)
	if n > 2 {
		t.Fatalf("%d boards in play: this test wants at most 2", n)
	}
	if rules(small) != 0 || rules(large) != 25*n {
		t.Errorf("%d cell rules at 80×24, %d at 120×40 on %d boards:\n%s", rules(small), rules(large), n, strings.Join(large, "\n"))
	}
	out := strings.Join(large, "\n")
	for _, b := range s.v.Boards {
		for _, ill := range b.Illustrations {
			if !strings.Contains(out, ill.Name) {
				t.Errorf("%s is not on the %s board:\n%s", ill.Name, b.Colour, out)
			}
		}
	}
	taller := draw(gameuitest.Width120x40, 60)
	if gameuitest.Index(small, "Score sheet") >= 0 || gameuitest.Index(taller, "Score sheet") < 0 {
		t.Errorf("the score sheet belongs to large terminals only:\n%s", strings.Join(taller, "\n"))
	}
}

// A board in play is named on screen: at 80×24 in the tabs, at 120×40 over each board
// (all of them at once), so that colour is never the only cue.
func TestEveryBoardShownIsNamed(t *testing.T) {
	table := gameuitest.NewTable(t, tt.ID, []string{"Ann", "Bob", "Cat"}, nil, nil, 5)
	table.Play(t, nil, nil, func() bool { return table.Game.View(0).Head().Phase == tt.PhaseRace })
	racer := table.Game.View(0).(tt.View).Racers[0]
	s := New(racer)
	s.SetView(table.Game.View(racer))
	for _, f := range []gameui.Frame{{Width: 80, Height: gameui.AreaHeight}, {Width: gameuitest.Width120x40, Height: gameuitest.Height120x40}} {
		f.Seat, f.Plain = racer, true
		out := strings.Join(gameuitest.Area(t, s.Render(f), f.Width, f.Height), "\n")
		for _, b := range s.v.Boards {
			if name := strings.ToUpper(b.Colour[:1]) + b.Colour[1:] + " board"; !strings.Contains(out, name) {
				t.Errorf("%d×%d: %q is not named:\n%s", f.Width, f.Height, name, out)
			}
		}
	}
}

// In a plain frame the story box shows where the narrator types with a "_" (its own
// cursor is reverse video): at the end of the text, before a character after moving
// left, and after a wide one.
func TestPlainStoryBoxShowsTheCursor(t *testing.T) {
	s, narr := writingNarrator(t)
	boxLine := func() string {
		t.Helper()
		check(t, s)
		out := s.Render(gameui.Frame{Width: 80, Height: gameui.AreaHeight, Now: t0, Seat: narr, Plain: true})
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "_") && strings.HasPrefix(l, "> ") {
				return strings.TrimRight(l, " ")
			}
		}
		t.Fatalf("no cursor in the story box:\n%s", out)
		return ""
	}
	if got := boxLine(); got != "> _" {
		t.Errorf("empty box: %q", got)
	}
	typeString(s, "Once upon a time")
	if got := boxLine(); got != "> Once upon a time_" {
		t.Errorf("at the end: %q", got)
	}
	for range 4 {
		s.Update(key("left"))
	}
	if got := boxLine(); got != "> Once upon a _time" {
		t.Errorf("four to the left: %q", got)
	}
	s.Update(key("end"))
	s.Update(tea.KeyPressMsg{Code: '月', Text: "月"})
	if got := boxLine(); got != "> Once upon a time月_" {
		t.Errorf("after a wide character: %q", got)
	}
}

// keeping is the narrator's story box with the named illustrations kept: the view's hand
// is changed, since the screen reads nothing but its view.
func keeping(t *testing.T, names ...string) *Screen {
	t.Helper()
	s, _ := writingNarrator(t)
	b, err := os.ReadFile("../../assets/content/" + tt.ContentFile)
	if err != nil {
		t.Fatal(err)
	}
	deck, err := tt.ParseIllustrations(b)
	if err != nil {
		t.Fatal(err)
	}
	v := *s.v
	h := *v.Hand
	h.Kept = nil
	for _, n := range names {
		for _, ill := range deck {
			if ill.Name == n {
				h.Kept = append(h.Kept, ill)
			}
		}
	}
	if len(h.Kept) != len(names) {
		t.Fatalf("kept %+v, want %v", h.Kept, names)
	}
	v.Hand = &h
	s.SetView(v)
	if !s.Typing() {
		t.Fatal("the story box lost focus")
	}
	return s
}

// Enter never refuses a story without saying why, even when a forbidden word is
// flagged too: three sentences, or a story too wide, are named on screen beside it.
func TestEnterRefusalIsExplained(t *testing.T) {
	s := keeping(t, "lizard", "bike", "cheese")
	s.Update(tea.PasteMsg{Content: "A green gecko wore a cap. It ate fruit. Then it slept."})
	if a, _ := s.Update(key("enter")); a != nil {
		t.Fatalf("three sentences sent: %+v", a)
	}
	check(t, s, "3 sentences", "one or two", `"gecko" (for lizard)`, "Press esc to look at them")
	// 141 wide characters fit the box's 280 characters but not its 280 columns.
	s = keeping(t, "lizard", "bike", "cheese")
	s.Update(tea.PasteMsg{Content: "gecko " + strings.Repeat("月", 141)})
	if a, _ := s.Update(key("enter")); a != nil {
		t.Fatalf("a story 288 columns wide sent: %+v", a)
	}
	check(t, s, "288 columns", "at most 280", `"gecko" (for lizard)`, "Press esc to look at them")
}

// A racer who presses enter on an illustration that already holds one of their tokens
// is told why nothing happened; moving on clears the note.
func TestSecondTokenOnAnIllustrationIsExplained(t *testing.T) {
	g := newGame(t, nil)
	narr := g.View(0).(tt.View).Narrator
	send(t, g, narr, tt.Discard{Type: "discard", Card: g.View(narr).(tt.View).Hand.Drawn[0].ID})
	send(t, g, narr, tt.Story{Type: "story", Text: "A tale.", Confirm: true})
	racer := (narr + 1) % 3
	s := New(racer)
	s.SetView(g.View(racer))
	a, _ := s.Update(key("enter"))
	send(t, g, racer, a)
	s.SetView(g.View(racer))
	name := s.v.Boards[s.board].Illustrations[s.cell].Name
	if a, _ := s.Update(key("enter")); a != nil {
		t.Fatalf("second token on the same illustration: %+v", a)
	}
	check(t, s, "You already have a token on "+name, name+": choose another")
	s.Update(key("right"))
	if out := check(t, s); strings.Contains(out, "already have a token") {
		t.Errorf("the note outlived the move:\n%s", out)
	}
}

// A story with two forbidden words is warned about both, the penalty charged once, and
// the warning wraps within 80 columns rather than being cut; the whole frame still fits.
func TestForbiddenWarningNamesEveryWordAndFits(t *testing.T) {
	says := func(s *Screen, want ...string) {
		t.Helper()
		check(t, s, "Press esc to look at them") // the last line is still there
		out := s.Render(gameui.Frame{Width: 80, Height: gameui.AreaHeight, Now: t0, Seat: s.seat, Plain: true})
		if strings.Contains(out, "…") {
			t.Errorf("a line is cut:\n%s", out)
		}
		flat := strings.Join(strings.Fields(out), " ") // the warning may wrap
		for _, w := range want {
			if !strings.Contains(flat, w) {
				t.Errorf("render lacks %q:\n%s", w, out)
			}
		}
	}
	s := keeping(t, "lizard", "bike", "cheese")
	s.Update(tea.PasteMsg{Content: "A Bicycle made of Chéese rolled down the long hill to the market square."})
	says(s, `Forbidden words: "bicycle" (for bike) and "cheese" (for cheese) would cost 2 points (once, not per word).`)
	if a, _ := s.Update(key("enter")); a != nil {
		t.Fatalf("sent without warning: %+v", a)
	}
	says(s, `Warning: your story says "bicycle" (for bike) and "cheese" (for cheese): sending costs 2 points (once, not per word).`, "Enter again sends anyway; or edit.")
	a, _ := s.Update(key("enter"))
	if st, ok := a.(tt.Story); !ok || !st.Confirm {
		t.Fatalf("enter again did not send: %+v", a)
	}
	// Four: all are named (a playtester had to guess the third).
	s = keeping(t, "lizard", "bike", "cheese")
	s.Update(tea.PasteMsg{Content: "Geckos ride a bicycle, and cycle home with cheeses."})
	s.Update(key("enter"))
	says(s, `"geckos" (for lizard), "bicycle" (for bike), "cycle" (for bike) and "cheeses" (for cheese): sending costs 2 points (once, not per word).`, "Enter again sends anyway; or edit.")
	// Three sentences too: every line still fits the 80×24 frame.
	s = keeping(t, "lizard", "bike", "cheese")
	s.Update(tea.PasteMsg{Content: "Geckos ride a bicycle. They cycle home. With cheeses " + strings.Repeat("月", 120)})
	says(s, "Too long:", "That is 3 sentences", `"geckos" (for lizard), "bicycle" (for bike), "cycle" (for bike) and "cheeses" (for cheese)`)
}

// TestALongPasteShowsTheWholeStory: a story pasted before the box was ever drawn (at
// bubbles' default width) shows every row at the screen's width, not only the last; and
// so it does after the terminal grows.
func TestALongPasteShowsTheWholeStory(t *testing.T) {
	s, _ := writingNarrator(t)
	s.Update(tea.PasteMsg{Content: "Once upon a time " + strings.Repeat("月", 120)})
	for _, w := range []int{80, 120} {
		out := ansi.Strip(s.Render(gameui.Frame{Width: w, Height: gameui.AreaHeight, Seat: s.seat}))
		if !strings.Contains(out, "> Once upon a time") || strings.Count(out, strings.Repeat("月", 20)) < 2 {
			t.Fatalf("at %d columns the story box hides the story:\n%s", w, out)
		}
	}
}

// TestAPasteCutAtTheLimitSaysSo: the story box keeps what fits of a paste and says the
// rest was left out, as the chat box does.
func TestAPasteCutAtTheLimitSaysSo(t *testing.T) {
	s, _ := writingNarrator(t)
	s.Update(tea.PasteMsg{Content: strings.Repeat("word ", 70)})
	out := ansi.Strip(check(t, s))
	if !strings.Contains(out, fmt.Sprintf("The paste was cut at %d characters.", tt.MaxStory)) {
		t.Fatalf("the cut paste is not explained:\n%s", out)
	}
	s.Update(key("backspace"))
	if out := ansi.Strip(check(t, s)); strings.Contains(out, "The paste was cut") {
		t.Fatalf("the note stays after the next key:\n%s", out)
	}
}

// A key typed into a full story box says why nothing appeared (a terminal that sends a
// paste as keys reaches the limit that way).
func TestTypingAtTheLimitSaysSo(t *testing.T) {
	s, _ := writingNarrator(t)
	s.Update(tea.PasteMsg{Content: strings.Repeat("w", tt.MaxStory)})
	s.Update(key("x"))
	if out := ansi.Strip(check(t, s)); !strings.Contains(out, fmt.Sprintf("The story is at its limit of %d characters.", tt.MaxStory)) {
		t.Fatalf("a key at the limit is not explained:\n%s", out)
	}
}

// The reveal says where the tokens that missed went, not only the hits: a playtester
// could not tell where their third token had gone.
func TestRevealShowsTheMisses(t *testing.T) {
	g := newGame(t, nil)
	n := g.View(0).(tt.View).Narrator
	send(t, g, n, tt.Discard{Type: "discard", Card: g.View(n).(tt.View).Hand.Drawn[0].ID})
	send(t, g, n, tt.Story{Type: "story", Text: "A tale."})
	kept := map[int]bool{}
	for _, k := range g.View(n).(tt.View).Hand.Kept {
		kept[k.ID] = true
	}
	v := g.View(rules.Spectator).(tt.View)
	var misses []tt.Illustration
	for _, b := range v.Boards {
		for _, ill := range b.Illustrations {
			if !kept[ill.ID] && len(misses) < 6 {
				misses = append(misses, ill)
			}
		}
	}
	i := 0
	for _, s := range v.Racers {
		for range 3 {
			send(t, g, s, tt.Token{Type: "token", Card: misses[i].ID})
			i++
		}
	}
	spect := New(rules.Spectator)
	spect.SetView(g.View(rules.Spectator))
	want := []string{"Missed:"}
	for j, s := range v.Racers {
		want = append(want, v.Names[s]+" on "+misses[3*j].Name)
	}
	check(t, spect, want...)
}

// While the narrator writes, the others' area does not repeat the prompt above it ("X is
// writing the story…" was there twice, the second time cut at 80 columns).
func TestTheStoryPhaseDoesNotRepeatThePrompt(t *testing.T) {
	g := newGame(t, nil)
	n := g.View(0).(tt.View).Narrator
	send(t, g, n, tt.Discard{Type: "discard", Card: g.View(n).(tt.View).Hand.Drawn[0].ID})
	s := New((n + 1) % 3)
	s.SetView(g.View(s.seat))
	out := check(t, s, "The race starts as soon as the story is sent.")
	if strings.Contains(out, "is writing the story") || strings.Contains(out, "…") {
		t.Fatalf("the story phase's area:\n%s", out)
	}
}

// In the race, the narrator's line keeps every racer's tokens at 80 columns however long
// their names ("… · tokens: Annabelle Smythe ...  Benedict Cumbe…" lost the last).
func TestRaceStatusKeepsEveryRacer(t *testing.T) {
	g := newGameOf(t, nil, "Annabelle Smythe", "Benedict Cumbers", "Catherine Zetaxx", "Dorothea Lindqvi", "Evangeline Marsh")
	n := g.View(0).(tt.View).Narrator
	send(t, g, n, tt.Discard{Type: "discard", Card: g.View(n).(tt.View).Hand.Drawn[0].ID})
	send(t, g, n, tt.Story{Type: "story", Text: "A tale."})
	v := g.View(rules.Spectator).(tt.View)
	s := New(rules.Spectator)
	s.SetView(v)
	for _, away := range []gameui.SeatSet{0, gameui.SeatSet(0).With(v.Racers[0]).With(v.Racers[1]).With(v.Racers[2])} {
		line := s.status(gameui.Frame{Width: 80, Plain: true, Away: away}) // "(away)" marks take room too
		if got := strings.Count(line, "..."); got != len(v.Racers) || ansi.StringWidth(line) > 80 {
			t.Fatalf("%d racers, the line shows %d: %q (%d columns)", len(v.Racers), got, line, ansi.StringWidth(line))
		}
	}
}

// TestAStandInsStoryIsToldByTheBot: a story a bot told for an away narrator is headed as
// the bot's, on every screen.
func TestAStandInsStoryIsToldByTheBot(t *testing.T) {
	g := newGame(t, nil)
	narr := g.View(0).(tt.View).Narrator
	send(t, g, narr, tt.Discard{Type: "discard", Card: g.View(narr).(tt.View).Hand.Drawn[0].ID})
	if err := rules.ApplyBy(g, narr, rules.Encode(tt.Story{Type: "story", Text: "A short tale.", Confirm: true}), t0, true); err != nil {
		t.Fatal(err)
	}
	s := New((narr + 1) % 3)
	s.SetView(g.View((narr + 1) % 3))
	if out := s.Render(gameui.Frame{Width: 80, Height: 19, Seat: (narr + 1) % 3, Plain: true}); !strings.Contains(out, "The story, told by a bot for ") {
		t.Fatalf("the bot's story:\n%s", out)
	}
}
