package fingertip

import (
	"encoding/json"
	"parlor/session/gameui/gameuitest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/assets"
	"parlor/playertext"
	"parlor/rules"
	ft "parlor/rules/fingertip"
	"parlor/session/gameui"
)

var t0 = time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)

func newGame(t *testing.T, players int) *ft.Game {
	t.Helper()
	content, err := assets.Load(ft.Spec.Content)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ft.New(rules.Setup{Names: []string{"Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"}[:players],
		Seed: 3, Options: ft.Spec.Defaults(), Content: content, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func press(s *Screen, k string) any {
	a, _ := s.Update(gameuitest.Key(k))
	return a
}

func typeText(s *Screen, text string) {
	for _, r := range text {
		press(s, string(r))
	}
}

// render draws at 80×24 (a 80×19 game area) and checks the size limits.
func render(t *testing.T, s *Screen, plain bool) string {
	t.Helper()
	return renderAt(t, s, 80, gameui.AreaHeight, plain)
}

func renderAt(t *testing.T, s *Screen, w, h int, plain bool) string {
	t.Helper()
	out := s.Render(gameui.Frame{Width: w, Height: h, Now: t0, Seat: s.seat, Plain: plain})
	lines := strings.Split(out, "\n")
	if len(lines) > h {
		t.Fatalf("%d lines, at most %d:\n%s", len(lines), h, out)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Fatalf("line %d is %d wide (at most %d): %q", i, lw, w, ansi.Strip(l))
		}
	}
	if plain && strings.Contains(out, "\x1b") {
		t.Fatalf("plain mode uses escape sequences:\n%q", out)
	}
	if err := gameuitest.FooterError(80, s.Keys(), s.Typing()); err != nil {
		t.Fatal(err)
	}
	return ansi.Strip(out)
}

func screens(g *ft.Game, n int) []*Screen {
	out := make([]*Screen, n+1)
	for i := range out {
		out[i] = New(i - 1)
	}
	refresh(g, out)
	return out
}

// refresh hands every screen (spectator first) its newest view.
func refresh(g *ft.Game, ss []*Screen) {
	for _, s := range ss {
		s.SetView(g.View(s.seat))
	}
}

func mustApply(t *testing.T, g *ft.Game, seat int, a any) {
	t.Helper()
	if a == nil {
		t.Fatalf("seat %d: no action", seat)
	}
	if err := g.Apply(seat, rules.Encode(a), t0); err != nil {
		t.Fatalf("seat %d: %v", seat, err)
	}
}

func activeAndTarget(g *ft.Game) (int, int) {
	v := g.View(0).(ft.View)
	tv := g.View(v.Active).(ft.View)
	return v.Active, tv.Target
}

func TestWholeTurnOnScreens(t *testing.T) {
	g := newGame(t, 4)
	ss := screens(g, 4)
	active, target := activeAndTarget(g)
	act := ss[active+1]

	// The active player sees the target marked and how to write the clue; the box opens
	// on enter, so that keys pressed as the turn came (a pointing digit, v for the log)
	// are not typed into it.
	if act.Typing() {
		t.Fatal("the clue box opened by itself")
	}
	for _, k := range []string{"3", "v", "x"} {
		if a := press(act, k); a != nil || act.Typing() {
			t.Fatalf("%q before the box was opened: %#v, typing %v", k, a, act.Typing())
		}
	}
	if out := render(t, act, false); !strings.Contains(out, "Press enter to write your clue") {
		t.Fatalf("active screen before the box:\n%s", out)
	}
	press(act, "enter")
	if !act.Typing() || act.clue.Value() != "" {
		t.Fatalf("enter did not open an empty clue box: %q", act.clue.Value())
	}
	out := render(t, act, false)
	if !strings.Contains(out, "★ your card") || !strings.Contains(out, "0/80") {
		t.Fatalf("active screen:\n%s", out)
	}
	for _, s := range ss {
		if s != act && strings.Contains(render(t, s, false), "your card") {
			t.Fatalf("seat %d sees the target:\n%s", s.seat, render(t, s, false))
		}
	}
	typeText(act, "fog")
	act.Update(tea.PasteMsg{Content: " and\x1b[31m rain"})
	if out := render(t, act, true); !strings.Contains(out, "fog and[31m rain") || !strings.Contains(out, "16/80") {
		t.Fatalf("after typing:\n%s", out)
	}
	a := press(act, "enter")
	clue, ok := a.(ft.Clue)
	if !ok || clue.Text != "fog and[31m rain" {
		t.Fatalf("enter gave %#v", a)
	}
	mustApply(t, g, active, clue)
	refresh(g, ss)
	if act.Typing() {
		t.Fatal("still typing after the clue")
	}

	// Guessers: a wrong card first, then a contested card is refused on the screen.
	g1, g2 := ss[(active+1)%4+1], ss[(active+2)%4+1]
	wrong := 1
	if wrong == target {
		wrong = 2
	}
	if out := render(t, g1, false); !strings.Contains(out, "fog and[31m rain") {
		t.Fatalf("the clue is not shown:\n%s", out)
	}
	mustApply(t, g, g1.seat, press(g1, string(rune('0'+wrong))))
	refresh(g, ss)
	if out := render(t, g1, false); !strings.Contains(out, "out") || !strings.Contains(out, "✗ no: "+g1.name(g1.seat)) {
		t.Fatalf("after a wrong card:\n%s", out)
	}
	if a := press(g2, string(rune('0'+wrong))); a != nil {
		t.Fatalf("a taken card gave %#v", a)
	}
	if out := render(t, g2, false); !strings.Contains(out, "taken —") || !strings.Contains(out, "another") {
		t.Fatalf("no taken note:\n%s", out)
	}
	if out := render(t, ss[0], true); !strings.Contains(out, "✗ no: "+g1.name(g1.seat)) {
		t.Fatalf("the spectator does not see the no:\n%s", out)
	}

	// Move with the arrows onto the target and point with enter.
	g2.cursor = 4
	press(g2, "right") // aimed: the cursor shows
	press(g2, "left")
	row, col := (target-1)/3, (target-1)%3
	for range (row - 1 + 3) % 3 {
		press(g2, "down")
	}
	for range (col - 1 + 3) % 3 {
		press(g2, "right")
	}
	p, ok := press(g2, "enter").(ft.Point)
	if !ok || p.Position != target {
		t.Fatalf("arrows+enter gave %#v, want card %d", p, target)
	}
	mustApply(t, g, g2.seat, p)
	refresh(g, ss)
	for _, s := range ss {
		for _, plain := range []bool{false, true} {
			out := render(t, s, plain)
			if !strings.Contains(out, "★ marks the target") || !strings.Contains(out, "★ yes: "+g2.name(g2.seat)) ||
				!strings.Contains(out, "clue: “"+s.v.Clue+"”") || s.v.Clue == "" {
				t.Fatalf("seat %d reveal, with the clue:\n%s", s.seat, out)
			}
			// The summary is the prompt line's, above the game area: not printed twice.
			if strings.Contains(out, "found card") || strings.Contains(out, "Turn over") {
				t.Fatalf("seat %d: the turn's summary is in the game area too:\n%s", s.seat, out)
			}
		}
	}
}

func TestTextModeShowsDescriptions(t *testing.T) {
	g := newGame(t, 3)
	s := screens(g, 3)[0]
	alt := g.View(-1).(ft.View).Square[0].Alt
	first := strings.Fields(alt)[0] + " " + strings.Fields(alt)[1]
	if out := render(t, s, false); strings.Contains(out, first) {
		t.Fatalf("colour mode starts with descriptions:\n%s", out)
	}
	press(s, "t")
	if out := render(t, s, false); !strings.Contains(out, first) {
		t.Fatalf("t does not show %q:\n%s", first, out)
	}
	if k := s.Keys(); len(k) == 0 || k[0].Help != "pictures" {
		t.Fatalf("keys %v", k)
	}
	// The no-colour mode starts with the descriptions; t shows the pictures.
	p := New(-1)
	p.SetView(g.View(-1))
	if out := render(t, p, true); !strings.Contains(out, first) {
		t.Fatalf("plain mode does not show %q:\n%s", first, out)
	}
	press(p, "t")
	if out := render(t, p, true); strings.Contains(out, first) {
		t.Fatalf("t in plain mode does not show the pictures:\n%s", out)
	}
}

func TestFinalResults(t *testing.T) {
	g := newGame(t, 3)
	ss := screens(g, 3)
	now := t0
	bots := []rules.Bot{ft.NewBot(rules.BotSetup{Seat: 0, Seed: 1}), ft.NewBot(rules.BotSetup{Seat: 1, Seed: 2}), ft.NewBot(rules.BotSetup{Seat: 2, Seed: 3})}
	for step := 0; ; step++ {
		if _, over := g.Outcome(); over || step > 20000 {
			break
		}
		now = now.Add(500 * time.Millisecond)
		g.Tick(now)
		for seat, b := range bots {
			if a := b.Act(g.View(seat), now); a != nil {
				if err := g.Apply(seat, rules.Encode(a), now); err != nil {
					t.Fatal(err)
				}
			}
		}
		if step%50 == 0 { // every screen fits at every stage of the game
			refresh(g, ss)
			for _, s := range ss {
				render(t, s, step%100 == 0)
			}
		}
	}
	res, over := g.Outcome()
	if !over {
		t.Fatal("no end")
	}
	refresh(g, ss)
	out := render(t, ss[1], false)
	if !strings.Contains(out, "Game over") || !strings.Contains(out, res.Summary) || !strings.Contains(out, "Score sheet") || !strings.Contains(out, "Last turn:") {
		t.Fatalf("results:\n%s", out)
	}
	for _, s := range ss {
		if a := press(s, "1"); a != nil {
			t.Fatalf("an action after the end: %#v", a)
		}
	}
	// One card is "1 card", not "1 cards".
	v := g.View(1).(ft.View)
	v.Pile, v.Discarded = 1, 1
	ss[1].SetView(v)
	if out := render(t, ss[1], true); !strings.Contains(out, "Draw pile: 1 card left; 1 discarded.") {
		t.Errorf("draw pile line:\n%s", out)
	}
}

func TestLargeAndSmallFrames(t *testing.T) {
	g := newGame(t, 6)
	ss := screens(g, 6)
	for _, s := range ss {
		for _, sz := range [][2]int{{80, 19}, {120, 40}, {80, 18}, {60, 15}} {
			renderAt(t, s, sz[0], sz[1], false)
		}
	}
	out := renderAt(t, ss[0], 120, 40, true)
	if !strings.Contains(out, "Pile 62") {
		t.Fatalf("large frame:\n%s", out)
	}
}

func TestClueBoxKeys(t *testing.T) {
	g := newGame(t, 3)
	active, _ := activeAndTarget(g)
	s := screens(g, 3)[active+1]
	press(s, "enter") // opens the box
	if a := press(s, "enter"); a != nil {
		t.Fatalf("an empty clue was sent: %#v", a)
	}
	if out := render(t, s, true); !strings.Contains(out, "empty") {
		t.Fatalf("no note for an empty clue:\n%s", out)
	}
	typeText(s, strings.Repeat("q", 90))
	if out := render(t, s, true); !strings.Contains(out, "80/80") {
		t.Fatalf("the clue box is not capped at 80:\n%s", out)
	}
	press(s, "esc")
	if s.Typing() {
		t.Fatal("esc did not leave the clue box")
	}
	if keys := s.Keys(); keys[0].Help != "write the clue" {
		t.Fatalf("keys %v", keys)
	}
	press(s, "enter")
	if !s.Typing() {
		t.Fatal("enter did not reopen the clue box")
	}
}

// TestPlainClueBoxScrollsByColumns types wide characters into the plain clue box (a
// terminal without colour draws "_" at the cursor): the box scrolls by the columns they
// take, so the cursor and the counter stay on screen wherever the cursor is.
func TestPlainClueBoxScrollsByColumns(t *testing.T) {
	g := newGame(t, 3)
	active, _ := activeAndTarget(g)
	s := screens(g, 3)[active+1]
	press(s, "enter")                                                  // opens the box
	typeText(s, strings.Repeat("霧", 25)+"end"+strings.Repeat("雨", 13)) // 79 columns
	clueLine := func() string {
		for _, l := range strings.Split(render(t, s, true), "\n") {
			if strings.HasPrefix(l, "Clue: ") {
				return strings.TrimRight(l, " ")
			}
		}
		t.Fatal("no clue line")
		return ""
	}
	if l := clueLine(); !strings.HasSuffix(l, "雨_ 79/80") || !strings.Contains(l, "…") {
		t.Fatalf("cursor at the end: %q", l)
	}
	for range 3 {
		press(s, "left")
	}
	if l := clueLine(); !strings.HasPrefix(l, "Clue: …") || !strings.Contains(l, "end"+strings.Repeat("雨", 10)+"_") || !strings.HasSuffix(l, "… 79/80") {
		t.Fatalf("cursor in the middle of the third part: %q", l)
	}
	for range 10 {
		press(s, "left")
	}
	if l := clueLine(); !strings.HasPrefix(l, "Clue: 霧") || !strings.Contains(l, "end_雨") || !strings.HasSuffix(l, "… 79/80") {
		t.Fatalf("cursor after \"end\": %q", l)
	}
	press(s, "home")
	if l := clueLine(); !strings.HasPrefix(l, "Clue: _霧") || !strings.HasSuffix(l, "… 79/80") {
		t.Fatalf("cursor at the start: %q", l)
	}
}

func TestViewsDecodeLikeTheAPI(t *testing.T) {
	// A view that went through JSON (as the API sends it) renders the same.
	g := newGame(t, 3)
	b, _ := json.Marshal(g.View(1))
	var v ft.View
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	a, b2 := New(1), New(1)
	a.SetView(g.View(1))
	b2.SetView(&v)
	if render(t, a, false) != render(t, b2, false) {
		t.Fatal("a decoded view renders differently")
	}
}

// From 120×40 the pictures are drawn twice as tall, every row of them kept.
func TestLargeTerminalDrawsTallerPictures(t *testing.T) {
	g := newGame(t, 6)
	s := screens(g, 6)[0]
	small := gameuitest.Area(t, s.Render(gameui.Frame{Width: 80, Height: gameui.AreaHeight}), 80, gameui.AreaHeight)
	w, h := gameuitest.Width120x40, gameuitest.Height120x40
	large := gameuitest.Area(t, s.Render(gameui.Frame{Width: w, Height: h}), w, h)
	cellRows := func(lines []string) int { return gameuitest.Index(lines, " 4 ─") - gameuitest.Index(lines, " 1 ─") }
	if cellRows(small) != 1+s.tallest() || cellRows(large) < 1+2*s.tallest() {
		t.Fatalf("a cell is %d rows at 80×24 and %d at 120×40 (pictures of %d rows):\n%s", cellRows(small), cellRows(large), s.tallest(), strings.Join(large, "\n"))
	}
	out := strings.Join(large, "\n")
	for _, c := range s.v.Square {
		for _, l := range stretch(c.Art) {
			if l = strings.TrimSpace(l); l != "" && !strings.Contains(out, l) {
				t.Fatalf("card %d lost its row %q:\n%s", c.Position, l, out)
			}
		}
	}
	if rows := len(stretch(s.v.Square[0].Art)); rows != 2*len(s.v.Square[0].Art) {
		t.Fatalf("a picture of %d rows stretched to %d", len(s.v.Square[0].Art), rows)
	}
}

// sidebar is the players' column of an 80-column area, its lines joined by spaces: where
// the screen's notes go.
func sidebar(out string) string {
	var b []string
	for _, l := range strings.Split(out, "\n") {
		if s := strings.TrimSpace(ansi.Cut(l, 3*cellCols+3, 80)); s != "" {
			b = append(b, s)
		}
	}
	return strings.Join(b, " ")
}

// TestClueBoxCountsColumns: the clue's limit is in columns, as CheckClue counts it (a
// wide character takes two): a character that would pass it is not taken, a paste is cut
// there, and the screen says why; enter is never refused without a word.
func TestClueBoxCountsColumns(t *testing.T) {
	g := newGame(t, 6)
	active, _ := activeAndTarget(g)
	s := screens(g, 6)[active+1]
	press(s, "enter") // opens the box
	for range 20 {
		s.Update(tea.PasteMsg{Content: "漢字😀"})
	}
	want := strings.Repeat("漢字😀", 13) + "漢" // 78 columns, then what fits of the next paste
	if v := s.clue.Value(); v != want {
		t.Fatalf("after pasting: %q (%d columns), want %q", v, playertext.Width(v), want)
	}
	note := s.note
	out := render(t, s, false)
	if !strings.Contains(out, " 80/80") || note == "" || !strings.Contains(sidebar(out), note) {
		t.Fatalf("a cut paste, note %q:\n%s", note, out)
	}
	press(s, "x")
	if v := s.clue.Value(); v != want || !strings.Contains(sidebar(render(t, s, true)), note) {
		t.Fatalf("a character past the limit: %q, note %q", v, s.note)
	}
	if a, ok := press(s, "enter").(ft.Clue); !ok || a.Text != want {
		t.Fatalf("enter gave %#v", a)
	}

	// Typed characters, at the end or in the middle: 漢 needs two columns, q one.
	s.clue.Reset()
	typeText(s, strings.Repeat("q", 79))
	press(s, "home")
	press(s, "漢")
	if v := s.clue.Value(); v != strings.Repeat("q", 79) || s.note == "" {
		t.Fatalf("漢 at 79 columns: %q, note %q", v, s.note)
	}
	press(s, "q")
	if v := s.clue.Value(); v != strings.Repeat("q", 80) || s.note != "" {
		t.Fatalf("q at 79 columns: %q, note %q", v, s.note)
	}

	// A clue too long for CheckClue (not typed: the box no longer takes one) is refused
	// with a note that the sidebar shows whole.
	s.clue.SetValue(strings.Repeat("漢", 43))
	if a := press(s, "enter"); a != nil {
		t.Fatalf("a clue of 86 columns was sent: %#v", a)
	}
	if out := render(t, s, false); s.note == "" || !strings.Contains(sidebar(out), s.note) {
		t.Fatalf("enter refused, note %q:\n%s", s.note, out)
	}
	press(s, "backspace") // deleting is allowed, even above the limit
	if v := s.clue.Value(); v != strings.Repeat("漢", 42) {
		t.Fatalf("backspace above the limit: %q", v)
	}
}

// TestClueBoxIsOneLine: with its counter, the clue box takes exactly one line at 80
// columns, in colour and without, wherever the cursor is and whatever the text: the
// square starts on the next line.
func TestClueBoxIsOneLine(t *testing.T) {
	g := newGame(t, 3)
	active, _ := activeAndTarget(g)
	s := screens(g, 3)[active+1]
	press(s, "enter") // opens the box
	for _, text := range []string{"", strings.Repeat("q", 80), strings.Repeat("word ", 16), strings.Repeat("漢字😀", 13) + "漢"} {
		s.clue.Reset()
		s.Update(tea.PasteMsg{Content: text})
		n := len([]rune(s.clue.Value()))
		for i := 0; i <= n+1; i++ {
			for _, plain := range []bool{false, true} {
				lines := strings.Split(render(t, s, plain), "\n")
				if !strings.HasPrefix(lines[0], "Clue: ") || !strings.HasSuffix(strings.TrimRight(lines[0], " "), "/80") ||
					!strings.HasPrefix(lines[1], " 1 ") || ansi.StringWidth(lines[0]) != 80 {
					t.Fatalf("%q, %d left of the end, plain %v:\n%s", text, i, plain, strings.Join(lines[:3], "\n"))
				}
				if plain && !strings.Contains(lines[0], "_") {
					t.Fatalf("no cursor: %q", lines[0])
				}
			}
			press(s, "left")
		}
	}
}

// newGameOf is newGame with these names.
func newGameOf(t *testing.T, names ...string) *ft.Game {
	t.Helper()
	content, err := assets.Load(ft.Spec.Content)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ft.New(rules.Setup{Names: names, Seed: 3, Options: ft.Spec.Defaults(), Content: content, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestRevealSummaryIsWhole: a turn in which nobody finds the target has the longest
// summary (the target discarded with the wrong cards, and the active player has no card
// to give back: the first turn). The prompt
// line, which the table never cuts (it wraps), says it; the game area below does not
// repeat any of it (a playtester read "gives a card back" twice).
func TestRevealSummaryIsWhole(t *testing.T) {
	for _, names := range [][]string{{"Ann", "Bob", "Cleo"}, {"Bartholomew Jone", "漢字漢字漢字漢字", "Maximiliana Rose"}} {
		g := newGameOf(t, names...)
		ss := screens(g, 3)
		active, target := activeAndTarget(g)
		mustApply(t, g, active, ft.Clue{Type: ft.TypeClue, Text: "somewhere"})
		wrong := 1
		for seat := range 3 {
			if seat != active {
				if wrong == target {
					wrong++
				}
				mustApply(t, g, seat, ft.Point{Type: ft.TypePoint, Position: wrong})
				wrong++
			}
		}
		refresh(g, ss)
		v := g.View(-1).(ft.View)
		if v.LastTurn == nil || v.LastTurn.Finder >= 0 || len(v.LastTurn.Wrong) != 2 || v.LastTurn.Returned {
			t.Fatalf("not the longest summary: %+v", v.LastTurn)
		}
		var sentences []string
		for _, s := range strings.SplitAfter(v.LastTurn.Summary, ". ") {
			sentences = append(sentences, strings.TrimSpace(s))
		}
		for _, s := range ss {
			for _, plain := range []bool{false, true} {
				area := render(t, s, plain)
				for _, sentence := range sentences {
					if !strings.Contains(s.v.Prompt, sentence) || strings.Contains(area, sentence) {
						t.Fatalf("%q: the prompt line %q, the area:\n%s", sentence, s.v.Prompt, area)
					}
				}
				if strings.Contains(area, "Turn over") {
					t.Fatalf("the area repeats the prompt's \"Turn over\":\n%s", area)
				}
			}
		}
	}
}

// TestWaitingForClueSaidOnce: while the active player thinks of the clue, the others are
// told so once: the prompt line says whom they wait for (the table adds no "Waiting
// for" of its own), and the line above the square does not repeat it.
func TestWaitingForClueSaidOnce(t *testing.T) {
	g := newGame(t, 3)
	ss := screens(g, 3)
	active, _ := activeAndTarget(g)
	name := ss[0].name(active)
	for _, s := range ss {
		if s.seat == active {
			continue
		}
		prompt := s.v.Prompt
		if !strings.Contains(prompt, "Waiting for") { // session/table.go adds it then
			prompt += " Waiting for " + name + "."
		}
		if n := strings.Count(prompt, name); n != 1 {
			t.Fatalf("seat %d: the prompt line names %s %d times: %q", s.seat, name, n, prompt)
		}
		for _, plain := range []bool{false, true} {
			if top := strings.Split(render(t, s, plain), "\n")[0]; strings.Contains(top, name) || strings.Contains(top, "clue") {
				t.Fatalf("seat %d: the line above the square says it again: %q", s.seat, top)
			}
		}
	}
}

// TestARacerReadsALongClueWhole: at 80×24 a racer's footer keeps to one line (the arrows
// are in the help), so the game area has the two lines an 80-column clue takes above the
// square.
func TestARacerReadsALongClueWhole(t *testing.T) {
	g := newGame(t, 3)
	active, _ := activeAndTarget(g)
	clue := strings.Repeat("fog and rain ", 6)[:78]
	mustApply(t, g, active, ft.Clue{Type: ft.TypeClue, Text: clue})
	racer := screens(g, 3)[(active+1)%3+1]
	foot := gameui.GameFooter(80, racer.Keys(), racer.Typing())
	if len(foot) > 1 {
		t.Fatalf("a racer's footer takes two lines at 80 columns:\n%s", ansi.Strip(strings.Join(foot, "\n")))
	}
	if more := racer.MoreKeys(); len(more) != 1 || more[0].Keys != "arrows+enter" {
		t.Fatalf("the help's other keys: %v", more)
	}
	out := renderAt(t, racer, 80, gameui.AreaHeight, false)
	if got := strings.Join(strings.Fields(out), " "); !strings.Contains(got, "“"+strings.TrimSpace(clue)+"”") {
		t.Fatalf("the clue is not whole:\n%s", out)
	}
}

// TestGameOverNamesEveryWinner: a tie between long names is said whole on the final
// screen (it was cut: "…Tied players sh…"), once.
func TestGameOverNamesEveryWinner(t *testing.T) {
	g := newGameOf(t, "Bartholomew Jone", "Maximiliana Rose", "Cleo")
	v := g.View(0).(ft.View)
	v.Phase, v.Over = ft.PhaseOver, true
	v.Result = &rules.Result{Winners: []int{0, 1}, Scores: []int{9, 9, 3}, Summary: "Bartholomew Jone and Maximiliana Rose share the victory with 9 cards each"}
	s := New(0)
	s.SetView(v)
	for _, w := range []int{80, 120 - 32} {
		out := renderAt(t, s, w, gameui.AreaHeight, true)
		flat := strings.Join(strings.Fields(out), " ")
		if !strings.Contains(flat, "Game over: "+v.Result.Summary+".") || strings.Count(flat, "share the victory") != 1 {
			t.Fatalf("%d columns: the winners are not said whole, once:\n%s", w, out)
		}
	}
}

// TestRevealLabelsFitAt80: what happened to a card reads whole above it at 80 columns
// with short names: "✗ no: Ben → Bot A…" and "★ target → discar…" were cut.
func TestRevealLabelsFitAt80(t *testing.T) {
	g := newGameOf(t, "Ann", "Ben", "Bot Ada")
	s := New(0)
	s.SetView(g.View(0))
	s.v.Phase = ft.PhaseReveal
	cw := min(cellCols, (80-minSidebar-1-2)/3) // as playing lays the square out
	for _, c := range []ft.Card{
		{Position: 2, Answer: "no", Finger: 1, Leaves: "taken", TakenBy: 2},
		{Position: 8, Target: true, Leaves: "discarded"},
		{Position: 5, Answer: "yes", Finger: 1, Target: true, Leaves: "taken", TakenBy: 1},
	} {
		if c.Answer == "no" {
			c.TakenBy = 2
			g := newGameOf(t, "Ann", "Ben", "Charlotte")
			s.SetView(g.View(0))
			s.v.Phase = ft.PhaseReveal
		}
		if l := s.label(c, 0, cw, true); strings.Contains(l, "…") {
			t.Errorf("card %d's label is cut at %d columns: %q", c.Position, cw, l)
		}
	}
}

// TestTheCursorShowsOnceTheArrowsMoveIt: a racer who points with the digits never sees
// a marked card they did not choose, and enter before any arrow points at nothing but
// says how to point.
func TestTheCursorShowsOnceTheArrowsMoveIt(t *testing.T) {
	g := newGame(t, 3)
	active, _ := activeAndTarget(g)
	mustApply(t, g, active, ft.Clue{Type: ft.TypeClue, Text: "fog"})
	racer := screens(g, 3)[(active+1)%3+1]
	if out := render(t, racer, true); strings.Contains(out, "[5]") {
		t.Fatalf("a cursor before any arrow:\n%s", out)
	}
	if a := press(racer, "enter"); a != nil {
		t.Fatalf("enter before any arrow pointed: %#v", a)
	}
	if racer.note != "Press 1-9, or aim with the arrows first." {
		t.Fatalf("enter says %q", racer.note)
	}
	press(racer, "right")
	if out := render(t, racer, true); !strings.Contains(out, "[6]") {
		t.Fatalf("no cursor after an arrow:\n%s", out)
	}
	if p, ok := press(racer, "enter").(ft.Point); !ok || p.Position != 6 {
		t.Fatalf("enter after the arrow gave %#v, want card 6", p)
	}
}
