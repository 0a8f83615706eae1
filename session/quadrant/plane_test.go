package quadrant

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
	"parlor/session/gameui/gameuitest"
)

// The game areas of 80×24, 100×30, 120×40 and 160×50 terminals without the log panel
// (the session takes five rows): half-height rows; full rows; scales and the lists side
// by side; two columns a cell. And a 120×40 terminal's beside the log panel: two columns
// a cell, the lists under the plane.
var areas = []gameui.Frame{
	{Width: 80, Height: 19}, {Width: 100, Height: 25}, {Width: 120, Height: 35}, {Width: 160, Height: 45},
	{Width: gameuitest.Width120x40, Height: gameuitest.Height120x40},
}

// screenOf draws s in f and reads the result back the way a terminal shows it.
func screenOf(t *testing.T, s *Screen, f gameui.Frame) *vt.Emulator {
	t.Helper()
	em := vt.NewEmulator(f.Width, f.Height)
	out := s.Render(f)
	checkLines(t, strings.Split(out, "\n"), f)
	if _, err := em.Write([]byte(strings.ReplaceAll(out, "\n", "\r\n"))); err != nil {
		t.Fatal(err)
	}
	return em
}

// checkLines fails unless lines are at most f.Height, each exactly f.Width wide: the
// gameui.Lines contract, on which the session relies to draw them without fitting.
func checkLines(t *testing.T, lines []string, f gameui.Frame) {
	t.Helper()
	if len(lines) > f.Height {
		t.Fatalf("%dx%d: %d lines", f.Width, f.Height, len(lines))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != f.Width {
			t.Fatalf("%dx%d: line %d is %d wide: %q", f.Width, f.Height, i, w, l)
		}
	}
}

func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return false
	}
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2
}

// drawnTokens finds every token mark in the plane's block of the screen and the cell of
// the plane its place and shape stand for, by seat (identified by its colour).
func drawnTokens(t *testing.T, em *vt.Emulator, geo geometry, seats int) map[int][]qd.Point {
	t.Helper()
	found := map[int][]qd.Point{}
	seatOf := func(c color.Color) int {
		for seat := range seats {
			if sameColor(c, gameui.SeatColor(seat)) {
				return seat
			}
		}
		return -1
	}
	for row := geo.top(); row < geo.top()+geo.rows(); row++ {
		for col := range geo.width() {
			c := em.CellAt(col, row)
			if c == nil {
				continue
			}
			var parts []part
			var seatsHere []int
			switch c.Content {
			case "▀":
				parts, seatsHere = []part{upper}, []int{seatOf(c.Style.Fg)}
				if c.Style.Bg != nil {
					parts, seatsHere = append(parts, lower), append(seatsHere, seatOf(c.Style.Bg))
				}
			default:
				// A seat's letter: a whole cell, or in half cells (off the axis row) the
				// upper half as a capital and the lower one in small.
				axis, _, _ := geo.place(qd.Point{})
				seat := seatOf(c.Style.Fg)
				letter := ""
				if seat >= 0 {
					letter = string(Letters(allNames[:seats])[seat])
				}
				half := geo.half && row != axis
				if seat >= 0 && c.Content == letter {
					parts, seatsHere = []part{whole}, []int{seat}
					if half {
						parts = []part{upper}
					}
				} else if seat >= 0 && half && c.Content == strings.ToLower(letter) {
					parts, seatsHere = []part{lower}, []int{seat}
				} else if inside := col >= geo.left() && col <= geo.col(qd.MaxX); inside && !strings.Contains(" │─·◆", c.Content) {
					t.Fatalf("%q drawn inside the plane at row %d col %d: only tokens and the grid belong there", c.Content, row, col)
				}
			}
			for i, pt := range parts {
				if seatsHere[i] < 0 {
					t.Fatalf("a token mark at row %d col %d in no seat's colour", row, col)
				}
				p, ok := geo.cellAt(row, col, pt)
				if !ok {
					t.Fatalf("seat %d drawn at row %d col %d, outside the plane", seatsHere[i], row, col)
				}
				found[seatsHere[i]] = append(found[seatsHere[i]], p)
			}
		}
	}
	return found
}

// TestEveryCellDrawnAtItsOwnPlace puts tokens on every cell of the plane, seven at a time,
// and reads each back from the screen: it must be drawn exactly once, in its colour, at a
// place that stands for exactly its cell — no label over it, no neighbour's row.
func TestEveryCellDrawnAtItsOwnPlace(t *testing.T) {
	const n = 7
	g := newGame(t, n, qd.ModeCompetitive)
	s := screenFor(g, rules.Spectator)
	var cells []qd.Point
	for y := qd.MinY; y <= qd.MaxY; y++ {
		for x := qd.MinX; x <= qd.MaxX; x++ {
			cells = append(cells, qd.Point{X: x, Y: y})
		}
	}
	for _, f := range areas {
		geo := s.layout(f.Width, f.Height)
		seen := map[[3]int]qd.Point{}
		q := (len(cells) + n - 1) / n
		for i := range q {
			// Seven tokens on seven cells a seventh of the plane apart, together on every cell.
			want := map[int]qd.Point{}
			for seat := range n {
				p := cells[(i+seat*q)%len(cells)]
				want[seat] = p
				if err := g.Apply(seat, rules.Encode(qd.Move{Type: qd.TypeMove, X: p.X, Y: p.Y}), t0); err != nil {
					t.Fatal(err)
				}
			}
			s.SetView(g.View(rules.Spectator))
			got := drawnTokens(t, screenOf(t, s, f), geo, n)
			for seat, p := range want {
				if len(got[seat]) != 1 || got[seat][0] != p {
					t.Fatalf("%dx%d: seat %d at %+v is drawn at %+v", f.Width, f.Height, seat, p, got[seat])
				}
				r, c, pt := geo.place(p)
				if q, dup := seen[[3]int{r, c, int(pt)}]; dup && q != p {
					t.Fatalf("%dx%d: %+v and %+v are drawn at the same place", f.Width, f.Height, p, q)
				}
				seen[[3]int{r, c, int(pt)}] = p
			}
		}
		if len(seen) != len(cells) {
			t.Fatalf("%dx%d: %d places for %d cells", f.Width, f.Height, len(seen), len(cells))
		}
	}
}

// TestStackedTokensShowTheirCount: tokens sharing a cell stay on it as one mark with the
// count, and the list says which tokens share it.
func TestStackedTokensShowTheirCount(t *testing.T) {
	g := newGame(t, 5, qd.ModeCompetitive)
	moves := map[int]qd.Point{0: {X: 3, Y: 4}, 1: {X: 3, Y: 4}, 2: {X: 3, Y: 4}, 3: {X: 3, Y: 3}, 4: {X: -7, Y: 0}}
	for seat, p := range moves {
		if err := g.Apply(seat, rules.Encode(qd.Move{Type: qd.TypeMove, X: p.X, Y: p.Y}), t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Apply(0, rules.Encode(qd.Move{Type: qd.TypeMove, X: -7, Y: 0}), t0); err != nil {
		t.Fatal(err)
	}
	// Now: two on (3,4), one on (3,3) — the other half of the same row at 80×24 — and two
	// on (-7,0), the axis row.
	s := screenFor(g, rules.Spectator)
	for _, f := range areas {
		geo := s.layout(f.Width, f.Height)
		em := screenOf(t, s, f)
		at := func(p qd.Point) string {
			r, c, _ := geo.place(p)
			return em.CellAt(c, r).Content
		}
		if geo.half {
			if got := at(qd.Point{X: 3, Y: 4}); got != "²" {
				t.Errorf("%dx%d: two tokens on (3,4) above one on (3,3) drawn as %q", f.Width, f.Height, got)
			}
		} else {
			if got := at(qd.Point{X: 3, Y: 4}); got != "²" {
				t.Errorf("%dx%d: two tokens on (3,4) drawn as %q", f.Width, f.Height, got)
			}
			if got := at(qd.Point{X: 3, Y: 3}); got != "D" {
				t.Errorf("%dx%d: Dee's token on (3,3) drawn as %q", f.Width, f.Height, got)
			}
		}
		// A count is a superscript everywhere: a plain "2" read as a word's number.
		if got := at(qd.Point{X: -7, Y: 0}); got != "²" {
			t.Errorf("%dx%d: two tokens on (-7,0) drawn as %q", f.Width, f.Height, got)
		}
		text := em.String()
		for _, want := range []string{"Bob       +3, +4 ×2", "Cid       +3, +4 ×2", "Dee       +3, +3   ", "Ana       -7, +0 ×2"} {
			if !strings.Contains(text, want) {
				t.Errorf("%dx%d: the token list lacks %q:\n%s", f.Width, f.Height, want, text)
			}
		}
	}
	// Below the other half of a row at 80×24: a stack on the lower cell counts in subscript.
	half := layoutFor(80, 19, 0)
	if _, _, pt := half.place(qd.Point{X: 3, Y: 3}); pt != lower {
		t.Fatal("(3,3) is not the lower half of its row")
	}
	for _, seat := range []int{0, 1, 2} {
		if err := g.Apply(seat, rules.Encode(qd.Move{Type: qd.TypeMove, X: 3, Y: 3}), t0); err != nil {
			t.Fatal(err)
		}
	}
	s.SetView(g.View(rules.Spectator))
	r, c, _ := half.place(qd.Point{X: 3, Y: 3})
	if got := screenOf(t, s, areas[0]).CellAt(c, r).Content; got != "₄" {
		t.Errorf("four tokens on (3,3) drawn as %q", got)
	}
}

// TestTokenListShowsCellsInEveryPhase: placement, voting, team ballot and the scores.
func TestTokenListShowsCellsInEveryPhase(t *testing.T) {
	g := newGame(t, 8, qd.ModeTeam)
	for i, seat := range []int{0, 2, 4, 6} {
		if err := g.Apply(seat, rules.Encode(qd.Move{Type: qd.TypeMove, X: 2*i - 5, Y: 3 - i}), t0); err != nil {
			t.Fatal(err)
		}
	}
	ss := make([]*Screen, 8)
	for i := range ss {
		ss[i] = screenFor(g, i)
	}
	check := func(phase string) {
		t.Helper()
		for _, seat := range []int{0, 1, rules.Spectator} {
			var s *Screen
			if seat >= 0 {
				s = ss[seat]
			} else {
				s = screenFor(g, seat)
			}
			s.SetView(g.View(seat))
			for _, f := range areas {
				text := screenOf(t, s, f).String()
				for i, name := range []string{"Ana", "Cid", "Eve", "Gus"} {
					if want := fmt.Sprintf("%-8s %+3d,%+3d", name, 2*i-5, 3-i); !strings.Contains(text, want) {
						t.Fatalf("%s, seat %d, %dx%d: no %q on screen:\n%s", phase, seat, f.Width, f.Height, want, text)
					}
				}
			}
		}
	}
	check("placement")
	lockAllByKeys(t, g, ss)
	check("voting")
	for _, seat := range []int{0, 2, 4, 6} {
		ss[seat].SetView(g.View(seat))
		voteByKeys(t, g, ss[seat], seat)
	}
	check("team ballot")
	for _, p := range []int{0, 2, 4, 6} {
		if err := g.Apply(1, rules.Encode(qd.BallotSet{Type: qd.TypeBallotSet, Seat: p, Number: p/2 + 1}), t0); err != nil {
			t.Fatal(err)
		}
	}
	for _, seat := range []int{1, 3, 5, 7} {
		if err := g.Apply(seat, rules.Encode(qd.Approve{Type: qd.TypeApprove}), t0); err != nil {
			t.Fatal(err)
		}
	}
	check("scores")
}

// TestLinesExactAtEverySize: through whole games, at sizes between and beyond the usual
// ones, every line a seat or a spectator is drawn is exactly the area's width
// (checkLines): the session draws them as they are.
func TestLinesExactAtEverySize(t *testing.T) {
	var sizes []gameui.Frame
	for _, w := range []int{80, 87, 100, 119, 143, 199} {
		for _, h := range []int{19, 23, 35, 60} {
			sizes = append(sizes, gameui.Frame{Width: w, Height: h})
		}
	}
	for _, c := range []struct {
		n    int
		mode string
	}{{7, qd.ModeCompetitive}, {14, qd.ModeTeam}} {
		g := newGame(t, c.n, c.mode)
		ss := []*Screen{screenFor(g, 0), screenFor(g, rules.Spectator)}
		check := func() {
			for i, seat := range []int{0, rules.Spectator} {
				ss[i].SetView(g.View(seat))
				for _, f := range sizes {
					for _, plain := range []bool{false, true} {
						f.Plain, f.Seat = plain, seat
						checkLines(t, ss[i].Lines(f), f)
					}
				}
			}
		}
		// Each phase of each round once: its first step.
		type phase struct {
			round, locked    int
			ballot, revealed bool
		}
		seen := map[phase]bool{}
		botsPlay(t, g, func(v qd.View) bool {
			p := phase{v.Round, 0, v.Ballot != nil, v.Reveal != nil}
			for _, tk := range v.Tokens {
				if tk.Locked {
					p.locked = 1 // some locked: the votes
				}
			}
			if !seen[p] {
				seen[p] = true
				check()
			}
			return false
		})
		if len(seen) < 6 {
			t.Fatalf("%s: only %d phases seen", c.mode, len(seen))
		}
		check()
	}
}

// TestThePlaneGrowsWithTheArea: the game area of a 120×40 terminal (beside the log panel)
// is too narrow for a plane of two columns a cell beside the token list, but tall enough
// to put the list under it: the plane takes the area's width there, every cell two
// columns, instead of 41 columns beside an empty half of the screen.
func TestThePlaneGrowsWithTheArea(t *testing.T) {
	for _, n := range []int{4, 7} {
		s := screenFor(newGame(t, n, qd.ModeCompetitive), rules.Spectator)
		f := gameui.Frame{Width: gameuitest.Width120x40, Height: gameuitest.Height120x40, Seat: rules.Spectator, Plain: true}
		lines := s.Lines(f)
		checkLines(t, lines, f)
		axis := gameuitest.Index(lines, "─▶") // the horizontal axis ends at the plane's edge
		if axis < 0 {
			t.Fatalf("no axis:\n%s", strings.Join(lines, "\n"))
		}
		if got := strings.Count(lines[axis], "─"); got < 2*(planeCols-1)-2 {
			t.Errorf("%d players: the axis is %d columns long at %d×%d:\n%s", n, got, f.Width, f.Height, strings.Join(lines, "\n"))
		}
		// Every word and every token is still listed, under the plane.
		text := strings.Join(lines, "\n")
		for _, w := range s.v.Words {
			if !strings.Contains(text, w) {
				t.Errorf("%d players: the word %q is not listed:\n%s", n, w, text)
			}
		}
		for _, tk := range s.v.Tokens {
			if !strings.Contains(text, s.name(tk.Seat)) {
				t.Errorf("%d players: %s's token is not listed:\n%s", n, s.name(tk.Seat), text)
			}
		}
	}
}
