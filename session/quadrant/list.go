package quadrant

import (
	"fmt"
	"slices"

	"github.com/charmbracelet/x/ansi"

	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
)

// Most of the token list is the same for every seat at the table: the letters, the names,
// the cells with their counts and, while placing, the lock states. Only the cursor, the teammate
// mark, the own letter and the vote cells are a seat's (and the cells while its own token
// moves ahead of the views). So that part is made once per table state in the frame's
// memo, as the plane is (drawPlane), and a seat adds its own around it.

// listKey is what the shared part of the token list is kept under in one table state.
// The list does not depend on the area's width (the panel fits it afterwards).
type listKey struct {
	plain bool
	away  gameui.SeatSet
}

// publicList is the token list's part that every seat at the table sees alike, per token
// in the view's order. It is shared between sessions: nothing changes it once made.
type publicList struct {
	tags   []string // the token letters in their colours (a seat's own is reversed: tokenTag)
	names  []string // " name     ", the name fitted to 8 cells ("name~" when away: listName)
	cells  []string // cellTexts where the views put the tokens, and a space
	states []string // the lock state while placing; "" in other phases
	away   bool     // a token's owner is away: the list ends with awayLegend
}

// awayMark follows an away player's name inside the list's name column, and awayLegend
// says what it means under the list: " (away)" after the name would push the columns
// over and cut the row's end (the votes, the ballot) at 80 columns.
const (
	awayMark   = "~"
	awayLegend = "~ away: a bot may play for them"
)

// listName is a seat's name in the list's column of 8 cells, marked when they are away.
func (s *Screen) listName(seat int) string {
	if !s.frame.Away.Has(seat) {
		return gameui.Fit(s.name(seat), 8)
	}
	return gameui.Fit(ansi.Truncate(s.name(seat), 7, "…")+awayMark, 8)
}

// tokenList is the shared part of the list as this seat shows it. Without a memo the seat
// makes it alone, every token where and as it draws it; with one it takes the table's and
// puts in its own letter (reversed) and, when its own token is ahead of the views, counts
// the cells again for itself.
func (s *Screen) tokenList(p gameui.Painter) *publicList {
	if s.frame.Memo == nil {
		return s.publicList(p, s.shown, s.tokenTag)
	}
	pub := s.frame.Memo.Remember(listKey{p.Plain, s.frame.Away}, func() any {
		return s.publicList(p, viewsPoint, func(seat int, p gameui.Painter) string {
			return paint(p, lookInk(look{kind: seatLook, a: seat}), string(s.letters[seat]))
		})
	}).(*publicList)
	mine := slices.IndexFunc(s.v.Tokens, func(t qd.Token) bool { return t.Seat == s.seat })
	if mine < 0 {
		return pub
	}
	own := *pub
	own.tags = slices.Clone(pub.tags)
	own.tags[mine] = s.tokenTag(s.seat, p)
	if s.ownAhead() {
		own.cells = spaced(cellTexts(s.v.Tokens, s.shown))
	}
	return &own
}

// publicList is the shared part of the list with every token drawn at at, its letter
// painted by tag.
func (s *Screen) publicList(p gameui.Painter, at func(qd.Token) qd.Point, tag func(int, gameui.Painter) string) *publicList {
	ts := s.v.Tokens
	l := &publicList{tags: make([]string, len(ts)), names: make([]string, len(ts)), cells: spaced(cellTexts(ts, at)), states: make([]string, len(ts))}
	for i, t := range ts {
		l.tags[i] = tag(t.Seat, p)
		l.names[i] = " " + s.listName(t.Seat) + " "
		l.away = l.away || s.frame.Away.Has(t.Seat)
		if s.v.Phase == qd.PhasePlacement {
			if t.Locked {
				l.states[i] = paint(p, goodInk, tick+" locked")
			} else {
				l.states[i] = paint(p, dimInk, "moving")
			}
		}
	}
	return l
}

// spaced is cells, each followed by the space before the next column of the list.
func spaced(cells []string) []string {
	for i := range cells {
		cells[i] += " "
	}
	return cells
}

// viewsPoint is where the views put a token.
func viewsPoint(t qd.Token) qd.Point { return qd.Point{X: t.X, Y: t.Y} }

// ownAhead reports whether the viewer's own token is drawn where the views do not put it
// (it moves it ahead of them), so that its cell and the counts are the seat's own.
func (s *Screen) ownAhead() bool {
	t, ok := s.myToken()
	return ok && s.v.Phase == qd.PhasePlacement && s.mine != viewsPoint(t)
}

// cellTexts is every token's exact cell, "+12, -3", and "×2" when it shares the cell
// (at says where each token is drawn); the tokens per cell are counted once per list.
func cellTexts(ts []qd.Token, at func(qd.Token) qd.Point) []string {
	n := make(map[qd.Point]int, len(ts))
	for _, t := range ts {
		n[at(t)]++
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		pt := at(t)
		stack := "  "
		if c := n[pt]; c > 1 {
			stack = fmt.Sprintf("×%d", min(c, 9))
		}
		out[i] = fmt.Sprintf("%+3d,%+3d %s", pt.X, pt.Y, stack)
	}
	return out
}
