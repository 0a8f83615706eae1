package quadrant

import (
	"fmt"
	"parlor/session/gameui/gameuitest"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func content() map[string][]byte {
	var w, c strings.Builder
	for i := range 220 {
		fmt.Fprintf(&w, "thing number %d\n", i)
	}
	for i := range 110 {
		fmt.Fprintf(&c, "A criterion that is long %d\n", i)
	}
	return map[string][]byte{qd.WordsFile: []byte(w.String()), qd.CriteriaFile: []byte(c.String())}
}

var allNames = []string{"Ana", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Mo", "Ned"}

// sentVote is one of the viewer's sent votes on a token's row: "→ 3 ✓ voted".
var sentVote = regexp.MustCompile(`→ \d+ (✓ voted|voting)`)

func newGame(t *testing.T, n int, mode string) *qd.Game {
	t.Helper()
	o, err := qd.Spec.CheckOptions(rules.Options{qd.OptMode: mode, qd.OptPlacement: "off", qd.OptVoting: "off"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := qd.New(rules.Setup{Names: allNames[:n], Seed: 3, Options: o, Content: content(), Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func key(k string) tea.KeyPressMsg { return gameuitest.Key(k) }

// press feeds a key and applies the action it returns to the game.
func press(t *testing.T, g *qd.Game, s *Screen, seat int, k string) any {
	t.Helper()
	a, _ := s.Update(key(k))
	if a != nil {
		if err := g.Apply(seat, rules.Encode(a), t0); err != nil {
			t.Fatalf("key %s: action %+v refused: %v", k, a, err)
		}
	}
	s.SetView(g.View(seat))
	return a
}

// render draws at 80×19 (and plain), checks the size, and returns the plain text.
func render(t *testing.T, s *Screen) string {
	t.Helper()
	var plain string
	for _, p := range []bool{false, true} {
		out := s.Render(gameui.Frame{Width: 80, Height: 19, Seat: s.seat, Plain: p, Now: t0})
		lines := strings.Split(out, "\n")
		if len(lines) > 19 {
			t.Fatalf("%d lines", len(lines))
		}
		for i, l := range lines {
			if w := lipgloss.Width(l); w > 80 {
				t.Fatalf("line %d is %d wide: %q", i, w, l)
			}
		}
		if p {
			plain = out
		}
	}
	if err := gameuitest.FooterError(80, s.Keys(), s.Typing()); err != nil {
		t.Fatal(err)
	}
	return plain
}

func screenFor(g *qd.Game, seat int) *Screen {
	f, _ := gameui.Lookup(qd.ID)
	s := f(seat).(*Screen)
	s.SetView(g.View(seat))
	return s
}

func TestPlacementKeysMoveLockAndShowLive(t *testing.T) {
	g := newGame(t, 4, qd.ModeCompetitive)
	me, other := screenFor(g, 0), screenFor(g, 1)
	want := []struct {
		key  string
		x, y int
	}{
		{"right", 1, 0}, {"l", 2, 0}, {"up", 2, 1}, {"k", 2, 2}, {"shift+right", 6, 2},
		{"L", 10, 2}, {"K", 10, 4}, {"J", 10, 2}, {"H", 6, 2}, {"left", 5, 2}, {"j", 5, 1}, {"h", 4, 1},
	}
	for _, w := range want {
		a := press(t, g, me, 0, w.key)
		m, ok := a.(qd.Move)
		if !ok || m.X != w.x || m.Y != w.y {
			t.Fatalf("key %s: action %+v, want move to %d,%d", w.key, a, w.x, w.y)
		}
	}
	// The other player sees the move as soon as their screen gets the view.
	other.SetView(g.View(1))
	if out := render(t, other); !strings.Contains(out, "Ana") || !strings.Contains(out, "+4, +1") {
		t.Fatalf("the other player does not see Ana's token at +4,+1:\n%s", out)
	}
	if a := press(t, g, me, 0, "space"); a == nil || a.(qd.Lock).Type != qd.TypeLock {
		t.Fatalf("space: %+v", a)
	}
	if a, _ := me.Update(key("left")); a != nil || !strings.Contains(render(t, me), "locked") {
		t.Fatalf("a locked token moved: %+v", a)
	}
	if keys := me.Keys(); len(keys) != 1 || !strings.Contains(keys[0].Help, "unlock") {
		t.Fatalf("keys when locked: %+v", keys)
	}
	if a := press(t, g, me, 0, "enter"); a == nil || a.(qd.Unlock).Type != qd.TypeUnlock {
		t.Fatalf("enter: %+v", a)
	}
	// The edge of the plane stops the token.
	for range 12 {
		press(t, g, me, 0, "L")
	}
	if a, _ := me.Update(key("right")); a != nil {
		t.Fatalf("moved past the edge: %+v", a)
	}
}

func TestOwnWordIsHighlightedOnlyForItsOwner(t *testing.T) {
	g := newGame(t, 5, qd.ModeCompetitive)
	for seat := range 5 {
		v := g.View(seat).(qd.View)
		out := render(t, screenFor(g, seat))
		mine := fmt.Sprintf("▶%d %s ◀ yours", v.MyNumber, v.Words[v.MyNumber-1])
		if !strings.Contains(out, mine) || strings.Count(out, "◀ yours") != 1 {
			t.Fatalf("seat %d does not see exactly its own word marked:\n%s", seat, out)
		}
	}
	if out := render(t, screenFor(g, rules.Spectator)); strings.Contains(out, "yours") {
		t.Fatalf("the spectator sees a secret word:\n%s", out)
	}
}

// lockAllByKeys locks every active token where it is with the space key: twice, as a
// token not moved this round asks.
func lockAllByKeys(t *testing.T, g *qd.Game, ss []*Screen) {
	t.Helper()
	for seat, s := range ss {
		s.SetView(g.View(seat))
		if s.role() == placing {
			if a := press(t, g, s, seat, "space"); a != nil {
				t.Fatalf("seat %d: an unmoved token locked at the first press: %+v", seat, a)
			}
			if !strings.Contains(render(t, s), "Unmoved: press space again to lock.") {
				t.Fatalf("seat %d is not asked to press again:\n%s", seat, render(t, s))
			}
			press(t, g, s, seat, "space")
		}
	}
	for seat, s := range ss {
		s.SetView(g.View(seat))
	}
}

// voteByKeys fills seat's ballot with the numbers it does not hold, in order, and sends it.
func voteByKeys(t *testing.T, g *qd.Game, s *Screen, seat int) {
	t.Helper()
	n := 1
	for range s.targets() {
		if n == s.v.MyNumber {
			n++
		}
		press(t, g, s, seat, fmt.Sprint(n))
		press(t, g, s, seat, "tab")
		n++
	}
	if a := press(t, g, s, seat, "enter"); a == nil {
		t.Fatalf("seat %d: enter sent nothing (%s)", seat, s.msg)
	}
}

func TestVotingBallot(t *testing.T) {
	g := newGame(t, 4, qd.ModeCompetitive)
	ss := []*Screen{screenFor(g, 0), screenFor(g, 1), screenFor(g, 2), screenFor(g, 3)}
	lockAllByKeys(t, g, ss)
	s := ss[0]
	if s.role() != voting || len(s.targets()) != 3 {
		t.Fatalf("role %v targets %v", s.role(), s.targets())
	}
	press(t, g, s, 0, "2") // Bob gets 2; the selection stays on Bob
	if !strings.Contains(render(t, s), "▸ B Bob") || s.ballot[1] != 2 {
		t.Fatalf("the selection left Bob's token after a number: %v", s.ballot)
	}
	press(t, g, s, 0, "3") // Bob's number changes, nothing else
	if s.ballot[1] != 3 || len(s.ballot) != 1 {
		t.Fatalf("a second number on Bob: %v", s.ballot)
	}
	// A number given to another token moves here (nothing is refused, nothing lost).
	press(t, g, s, 0, "tab")
	press(t, g, s, 0, "3")
	if s.ballot[1] != 0 || s.ballot[2] != 3 || !strings.Contains(render(t, s), "Moved 3 from Bob's token to Cid's") {
		t.Fatalf("moving 3 to Cid: %v %q", s.ballot, s.msg)
	}
	press(t, g, s, 0, "shift+tab")
	press(t, g, s, 0, "2") // Bob 2, Cid 3
	press(t, g, s, 0, "3") // Bob takes Cid's 3 and Cid gets Bob's 2
	if s.ballot[1] != 3 || s.ballot[2] != 2 || !strings.Contains(s.msg, "Swapped: 3 on Bob's token, 2 on Cid's") {
		t.Fatalf("swap: %v %q", s.ballot, s.msg)
	}
	if a := press(t, g, s, 0, "9"); a != nil || !strings.Contains(s.msg, "1 to 4") {
		t.Fatalf("9 accepted: %q", s.msg)
	}
	if a := press(t, g, s, 0, "enter"); a != nil || !strings.Contains(s.msg, "Dee's token still needs") {
		t.Fatalf("incomplete ballot sent: %+v %q", a, s.msg)
	}
	press(t, g, s, 0, "tab")
	press(t, g, s, 0, "backspace") // clears Cid
	if _, ok := s.ballot[2]; ok {
		t.Fatalf("backspace did not clear: %v", s.ballot)
	}
	press(t, g, s, 0, "4")
	press(t, g, s, 0, "tab")
	press(t, g, s, 0, "1")
	if !strings.Contains(s.msg, "complete") {
		t.Fatalf("msg %q", s.msg)
	}
	a := press(t, g, s, 0, "enter")
	cv, ok := a.(qd.CastVotes)
	if !ok || len(cv.Votes) != 3 {
		t.Fatalf("enter: %+v", a)
	}
	if out := render(t, s); !strings.Contains(out, "→ 3 ") {
		t.Fatalf("own votes not shown after sending:\n%s", out)
	}
	ss[1].SetView(g.View(1))
	if out := render(t, ss[1]); !strings.Contains(out, "voted") || strings.Contains(out, "→ 3 ") {
		t.Fatalf("Bob's screen:\n%s", out)
	}
	for seat := 1; seat < 4; seat++ {
		ss[seat].SetView(g.View(seat))
		voteByKeys(t, g, ss[seat], seat)
	}
	s.SetView(g.View(0))
	out := render(t, s)
	for _, want := range []string{"Round 1 of 3", "This round:", "Totals:", "✓", "Press enter"} {
		if !strings.Contains(out, want) && !(want == "✓" && strings.Contains(out, "✗")) {
			t.Fatalf("scoring screen lacks %q:\n%s", want, out)
		}
	}
	if a := press(t, g, s, 0, "enter"); a == nil {
		t.Fatal("enter did not continue")
	}
}

func TestTeamBallotScreen(t *testing.T) {
	g := newGame(t, 8, qd.ModeTeam)
	ss := make([]*Screen, 8)
	for i := range ss {
		ss[i] = screenFor(g, i)
	}
	lockAllByKeys(t, g, ss)
	for _, seat := range []int{0, 2, 4, 6} {
		voteByKeys(t, g, ss[seat], seat)
	}
	for seat, s := range ss {
		s.SetView(g.View(seat))
	}
	b, c := ss[1], ss[3]
	if b.role() != teamBallot || ss[0].role() != watching {
		t.Fatalf("roles %v %v", b.role(), ss[0].role())
	}
	if a := press(t, g, b, 1, "enter"); a != nil || !strings.Contains(b.msg, "no number") {
		t.Fatalf("approved an empty ballot: %+v %q", a, b.msg)
	}
	for n := 1; n <= 4; n++ {
		if a, ok := press(t, g, b, 1, fmt.Sprint(n)).(qd.BallotSet); !ok || a.Number != n {
			t.Fatalf("digit %d: %+v", n, a)
		}
		press(t, g, b, 1, "tab")
	}
	c.SetView(g.View(3))
	if out := render(t, c); !strings.Contains(out, "→ 4 Bob") {
		t.Fatalf("a teammate does not see the shared ballot:\n%s", out)
	}
	ss[0].SetView(g.View(0))
	if out := render(t, ss[0]); strings.Contains(out, "→ 4 Bob") || !sentVote.MatchString(out) {
		t.Fatalf("the active team sees the ballot:\n%s", out)
	}
	press(t, g, c, 3, "tab") // Cid's token
	if a, ok := press(t, g, c, 3, "1").(qd.BallotSet); !ok || !strings.Contains(c.msg, "Swapped: 1 on Cid's token, 2 on Ana's") {
		t.Fatalf("a used number on the team ballot: %+v %q", a, c.msg)
	}
	if out := render(t, c); !strings.Contains(out, "→ 2 Dee") || !strings.Contains(out, "→ 1 Dee") || !strings.Contains(strings.Join(c.v.Log, "\n"), "Dee swapped two numbers") {
		t.Fatalf("the swap is not on screen or in the log:\n%s\n%v", out, c.v.Log)
	}
	b.SetView(g.View(1))
	press(t, g, b, 1, "enter") // Bob approves
	c.SetView(g.View(3))
	if out := render(t, c); !strings.Contains(out, "approved: Bob") || !strings.Contains(out, "waiting: Dee") {
		t.Fatalf("approvals not shown:\n%s", out)
	}
	// A change by Dee clears Bob's approval.
	had := c.v.Ballot.Votes[c.sel].Number
	press(t, g, c, 3, "0")
	press(t, g, c, 3, fmt.Sprint(had))
	b.SetView(g.View(1))
	if b.approved() {
		t.Fatal("a change left the approval standing")
	}
	for _, seat := range []int{1, 3, 5, 7} {
		ss[seat].SetView(g.View(seat))
		press(t, g, ss[seat], seat, "enter")
	}
	ss[0].SetView(g.View(0))
	out := render(t, ss[0])
	if !strings.Contains(out, "team A") || !strings.Contains(out, "team ballot was cast") {
		t.Fatalf("team scoring screen:\n%s", out)
	}
}

func TestWholeGamesRenderAtEveryStep(t *testing.T) {
	for _, c := range []struct {
		n    int
		mode string
	}{{7, qd.ModeCompetitive}, {14, qd.ModeTeam}} {
		g := newGame(t, c.n, c.mode)
		ss := make([]*Screen, c.n)
		for i := range ss {
			ss[i] = screenFor(g, i)
		}
		spec := screenFor(g, rules.Spectator)
		step := 0
		botsPlay(t, g, func(v qd.View) bool {
			if step++; step%7 == 0 || v.Over {
				for i, s := range ss {
					s.SetView(g.View(i))
					render(t, s)
					if len(s.Keys()) == 0 && s.role() != watching {
						t.Fatal("no keys shown")
					}
				}
				spec.SetView(g.View(rules.Spectator))
				render(t, spec)
			}
			return false
		})
		out := render(t, ss[0])
		if !strings.Contains(out, "★") || !(strings.Contains(out, "win") || strings.Contains(out, "tie")) || !strings.Contains(out, "Score sheet") || !strings.Contains(out, fmt.Sprintf("Round %d of %d", ss[0].v.Rounds, ss[0].v.Rounds)) {
			t.Fatalf("final screen:\n%s", out)
		}
		t.Log("\n" + out)
	}
}

func TestBotTokensUseTheirOwnNames(t *testing.T) {
	got := Letters([]string{"Mia", "Bot Ada", "Bot Bo", "Bot Cy", "Max"})
	want := map[int]rune{0: 'M', 1: 'A', 2: 'B', 3: 'C', 4: 'X'}
	for seat, l := range want {
		if got[seat] != l {
			t.Errorf("seat %d: letter %c, want %c (all: %v)", seat, got[seat], l, got)
		}
	}
}

// The placement footer's first line starts "? help · space/enter lock your token" at
// every width down to where that alone fits, and at 80 columns it holds the moves too;
// the table's keys go to the second line.
func TestPlacementFooterKeepsLockWhole(t *testing.T) {
	g := newGame(t, 4, qd.ModeCompetitive)
	s := screenFor(g, 0)
	const lock = "space/enter lock your token"
	for w := 80; w >= ansi.StringWidth("? help · "+lock); w-- {
		first := ansi.Strip(gameui.GameFooter(w, s.Keys(), s.Typing())[0])
		if ansi.StringWidth(first) > w || !strings.HasPrefix(first, "? help · "+lock) {
			t.Fatalf("footer at %d columns: %q", w, first)
		}
		if w == 80 && !strings.Contains(first, lock+" · ←↑↓→/hjkl move · shift move faster") {
			t.Fatalf("footer at 80 columns lacks the moves: %q", first)
		}
	}
}

// A long criterion over the plane never runs into the panel beside it: a playtester read
// "▲ Hard to explain to your neighbou Team A — you are placing this round".
func TestTheVerticalLabelKeepsApartFromThePanel(t *testing.T) {
	g := newGame(t, 8, qd.ModeTeam) // criteria of 27 columns and more ("A criterion that is long 12")
	out := render(t, screenFor(g, 0))
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, "Team "); i > 0 && strings.Contains(l, "▲") {
			if !strings.HasSuffix(l[:i], "  ") {
				t.Errorf("the label runs into the team line: %q", l)
			}
			return
		}
	}
	t.Fatalf("no label beside the team line:\n%s", out)
}
