package quadrant

import (
	"fmt"
	"slices"
	"unicode"

	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
)

// The plane is drawn one column per x cell. A tall enough area gives every y value its own
// row; a shorter one (80×24) puts two y values in one row as half-height cells — ▀ is the
// upper one, ▄ the lower one — except y = 0, the axis, which keeps a row of its own. Either
// way every cell of the plane has its own place, and nothing but tokens is drawn inside it:
// the criteria and the reference word sit outside, and the centre mark lies under tokens.
const (
	planeCols     = qd.MaxX - qd.MinX + 1
	fullRows      = qd.MaxY - qd.MinY + 1 // one row per y
	halfRows      = qd.MaxY + 1           // five rows above the axis, the axis, five below
	fullAreaRows  = 1 + fullRows + 3      // criterion above; marker row and two label rows below
	rulerAreaRows = fullAreaRows + 1      // and the x scale
	rulerCols     = 4                     // the y scale left of the plane: "+10 "
)

// part is which part of a terminal cell a plane cell takes.
type part int

const (
	whole part = iota
	upper
	lower
)

// geometry is where the plane's cells are in the game area.
type geometry struct {
	half  bool // two y values per row
	ruler bool // scales beside the axes (on big screens)
	wide  bool // two columns per x cell (on very wide screens), the plane's shape nearer a square
	below bool // the token list under the plane, not beside it (a tall area too narrow for both)
}

// Widths from which the plane gets its scales, and two columns per cell while the words
// and the tokens still stand side by side next to it.
const (
	rulerWidth = 120
	wideWidth  = rulerCols + 2*planeCols + 2 + sideBySide
)

// layoutFor picks the plane's geometry for an area of w×h, where the token list takes
// listRows rows when it is under the plane. An area too narrow for a plane of two columns
// a cell beside the list, but tall enough for the list under it (a 120×40 terminal's,
// beside the log panel), gets that plane, across the area, with the list below.
func layoutFor(w, h, listRows int) geometry {
	if h < fullAreaRows {
		return geometry{half: true}
	}
	ruler := w >= rulerWidth && h >= rulerAreaRows
	beside := geometry{ruler: ruler, wide: ruler && w >= wideWidth}
	if beside.wide {
		return beside
	}
	under := geometry{wide: true, below: true}
	under.ruler = w >= under.width()+rulerCols && h >= rulerAreaRows+listRows
	if w >= under.width() && h >= fullAreaRows+listRows {
		return under
	}
	return beside
}

// layout is the plane's geometry for an area of w×h: the token list under the plane
// needs a line for the team, one for each word or token, and room for the ballot's
// approvals, the away legend or a message. It changes between rounds only.
func (s *Screen) layout(w, h int) geometry {
	return layoutFor(w, h, 1+max(len(s.v.Words), len(s.v.Tokens))+3)
}

// cellCols is the number of columns of one x cell.
func (g geometry) cellCols() int {
	if g.wide {
		return 2
	}
	return 1
}

// col is the column (in the plane's block) of x.
func (g geometry) col(x int) int { return g.left() + (x-qd.MinX)*g.cellCols() }

// left is the number of columns left of the plane.
func (g geometry) left() int {
	if g.ruler {
		return rulerCols
	}
	return 0
}

// width is the plane's block width: the y scale, the plane and the row marker column.
func (g geometry) width() int { return g.col(qd.MaxX) + 2 }

// rows is the number of rows the plane itself takes.
func (g geometry) rows() int {
	if g.half {
		return halfRows
	}
	return fullRows
}

// top is the row of the plane's first row (the vertical criterion is above it).
func (geometry) top() int { return 1 }

// place is the row and column (in the plane's block) and the part of a cell of the plane.
func (g geometry) place(p qd.Point) (row, col int, pt part) {
	col = g.col(p.X)
	if !g.half {
		return g.top() + qd.MaxY - p.Y, col, whole
	}
	switch {
	case p.Y == 0:
		return g.top() + qd.MaxY/2, col, whole
	case p.Y > 0:
		// Rows (10, 9), (8, 7) … (2, 1): even y on top.
		row = (qd.MaxY - p.Y) / 2
		pt = lower
		if p.Y%2 == 0 {
			pt = upper
		}
		return g.top() + row, col, pt
	}
	// Rows (-1, -2) … (-9, -10): odd y on top.
	row = qd.MaxY/2 + 1 + (-p.Y-1)/2
	pt = lower
	if p.Y%2 != 0 {
		pt = upper
	}
	return g.top() + row, col, pt
}

// cellAt is the cell of the plane drawn at row, col (in the plane's block) in part pt.
func (g geometry) cellAt(row, col int, pt part) (qd.Point, bool) {
	off := col - g.left()
	x := off/g.cellCols() + qd.MinX
	if off < 0 || off%g.cellCols() != 0 || x > qd.MaxX {
		return qd.Point{}, false
	}
	for y := qd.MinY; y <= qd.MaxY; y++ {
		if r, _, p := g.place(qd.Point{X: x, Y: y}); r == row && p == pt {
			return qd.Point{X: x, Y: y}, true
		}
	}
	return qd.Point{}, false
}

// Counts of tokens stacked in one half cell: superscript for the upper half, subscript
// for the lower one, so a count says which of the two cells it is in.
var (
	superDigits = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	subDigits   = []rune("₀₁₂₃₄₅₆₇₈₉")
)

// count is a digit for n tokens (9 at most: a round has 7 tokens).
func count(digits []rune, n int) rune { return digits[min(n, 9)] }

// drawPlane draws the criteria above and below the plane, the axes, the centre mark, every
// token at its own cell, and markers on the edges pointing at the token in focus (the
// player's own while placing, the selected one while voting). It returns geo.width()-wide
// lines.
//
// Most of the plane is the same for every seat at the table: only the own token while
// the player moves it ahead of the views, and the focus (a reversed token and two
// markers), are the seat's. So the plane as the table sees it (every token where the
// views put it, nothing in focus) is drawn once per table state in memo, and a seat
// draws again only the rows where its own cells make a difference.
func (s *Screen) drawPlane(geo geometry, plain bool, memo gameui.Memo) []string {
	own := s.tokenSpots(geo, plain, true)
	if memo == nil {
		bg := s.backgroundFor(geo)
		out := make([]string, len(bg.cells))
		for r := range out {
			out[r] = s.rowLine(&s.rows.own, bg, geo, r, own, plain)
		}
		return out
	}
	pub := memo.Remember(planeKey{geo, plain, s.letterKey}, func() any { return s.publicPlane(geo, plain) }).(*publicPlane)
	// The table's background and plane are the seat's from now on: whichever seat draws
	// the next table state's plane draws it over the same background, and from this one.
	s.rows.bg, s.rows.bgFor, s.rows.pub = pub.bg, pub.bgFor, pub
	out := slices.Clone(pub.lines)
	for _, r := range touchedRows(own, pub.spots) {
		if !pub.sameRow(r, own) {
			out[r] = s.rowLine(&s.rows.own, pub.bg, geo, r, own, plain)
		}
	}
	return out
}

// planeKey is what the shared drawing of the plane is kept under in one table state:
// everything else it shows (the criteria, the tokens) is the same for every seat then.
type planeKey struct {
	geo     geometry
	plain   bool
	letters string
}

// publicPlane is the plane as every seat at the table sees it before its own cells.
// It is shared between sessions: nothing changes it once made.
type publicPlane struct {
	bg    *canvas  // the plane without tokens
	bgFor bgKey    // what bg is drawn from
	plain bool     // drawn without colour
	spots []spot   // the tokens as the views place them
	cells [][]cell // bg with the spots
	lines []string // cells, rendered
}

// publicPlane draws the plane as the table sees it. Its rows without a token are the
// background's own (sameRow only reads them), and the rows of the plane the seat drew
// over last, drawn from the same background and with the same tokens on them, are not
// rendered again.
func (s *Screen) publicPlane(geo geometry, plain bool) *publicPlane {
	p := &publicPlane{bg: s.backgroundFor(geo), bgFor: s.bgKey(geo), plain: plain, spots: s.tokenSpots(geo, plain, false)}
	p.cells = slices.Clone(p.bg.cells)
	p.lines = make([]string, len(p.cells))
	for _, r := range touchedRows(p.spots, nil) {
		if r >= 0 && r < len(p.cells) {
			p.cells[r] = p.bg.rowWith(r, p.spots)
		}
	}
	last := s.rows.pub
	same := last != nil && last.bgFor == p.bgFor && last.plain == plain // and so as many rows
	for r := range p.cells {
		if same && sameSpotsOn(last.spots, p.spots, r) {
			p.lines[r] = last.lines[r]
			s.rows.reused++
		} else {
			p.lines[r] = renderRow(p.bg, geo, r, p.spots, plain)
		}
	}
	return p
}

// sameRow reports whether row r of the plane with the seat's own spots is the shared
// row, comparing only the cells that either writes over the background.
func (p *publicPlane) sameRow(r int, own []spot) bool {
	for _, spots := range [][]spot{own, p.spots} {
		for _, sp := range spots {
			if sp.row == r && sp.col >= 0 && sp.col < len(p.cells[r]) && p.bg.cellWith(r, sp.col, own) != p.cells[r][sp.col] {
				return false
			}
		}
	}
	return true
}

// touchedRows lists, once each, the rows the spots of a and b are on.
func touchedRows(a, b []spot) []int {
	var rows []int
	for _, sp := range slices.Concat(a, b) {
		if !slices.Contains(rows, sp.row) {
			rows = append(rows, sp.row)
		}
	}
	return rows
}

// background is the plane without tokens: the grid, the axes and the labels.
func (s *Screen) background(geo geometry) *canvas {
	rows := geo.top() + geo.rows() + 3
	if geo.half {
		rows++ // the legend
	}
	if geo.ruler {
		rows++
	}
	c := newCanvas(geo.width(), rows)
	dim, label := look{kind: dimLook}, look{kind: labelLook}
	cr, cx, _ := geo.place(qd.Point{})
	right := geo.width() - 1 // the row marker column
	bottom := geo.top() + geo.rows()

	// The grid: axes through the centre, dots every five cells on full rows.
	for y := qd.MinY; y <= qd.MaxY; y++ {
		r, _, _ := geo.place(qd.Point{Y: y})
		c.set(r, cx, '│', dim)
		if !geo.half && y%5 == 0 && y != 0 {
			for x := qd.MinX; x <= qd.MaxX; x += 5 {
				if x != 0 {
					c.set(r, geo.col(x), '·', dim)
				}
			}
		}
	}
	for col := geo.left(); col < right; col++ {
		c.set(cr, col, '─', dim)
	}
	c.set(cr, cx, '◆', label)

	// Labels, all outside the plane.
	c.text(0, cx-1, "▲ "+s.v.Vertical, label)
	c.set(cr, right, '▶', label)
	// Ticks every five cells under the plane help count columns (the marker row).
	for x := qd.MinX; x <= qd.MaxX; x += 5 {
		c.set(bottom, geo.col(x), '╵', dim)
	}
	next := bottom + 1 // below the marker row
	if geo.ruler {
		for y := qd.MinY; y <= qd.MaxY; y += 5 {
			r, _, _ := geo.place(qd.Point{Y: y})
			c.text(r, 0, fmt.Sprintf("%+3d", y), dim)
		}
		for x := qd.MinX; x <= qd.MaxX; x += 10 {
			c.text(next, geo.col(x)-1, fmt.Sprintf("%+d", x), dim)
		}
		next++
	}
	c.text(next, right-len([]rune(s.v.Horizontal))-1, s.v.Horizontal+" ▶", label)
	c.text(next+1, cx-1, "◆ "+s.v.Reference, dim)
	next += 2
	if geo.half {
		c.text(next, 0, "A/a upper/lower half · ²₂ 2 tokens in it", dim)
	} else {
		c.text(next, 0, "³ 3 tokens in one cell", dim)
	}
	return c
}

// tokenSpots are the cells the tokens take, grouped by the terminal cell they fall in,
// and with own the seat's own cells: its token where the player moved it, and the focus
// (the token reversed, markers at the right and bottom edges pointing at it).
func (s *Screen) tokenSpots(geo geometry, plain, own bool) []spot {
	// The terminal cells in the order their first token comes, each with the seats in its
	// halves; a list, not a map: a round has a few tokens.
	type stack struct {
		row, col        int
		up, down, whole []int
	}
	var kept [qd.TeamMax]stack // on the goroutine's stack: a table has at most TeamMax tokens
	stacks := kept[:0]
	for _, t := range s.v.Tokens {
		p := qd.Point{X: t.X, Y: t.Y}
		if own {
			p = s.shown(t)
		}
		r, col, pt := geo.place(p)
		i := slices.IndexFunc(stacks, func(st stack) bool { return st.row == r && st.col == col })
		if i < 0 {
			i = len(stacks)
			stacks = append(stacks, stack{row: r, col: col})
		}
		switch st := &stacks[i]; pt {
		case upper:
			st.up = append(st.up, t.Seat)
		case lower:
			st.down = append(st.down, t.Seat)
		default:
			st.whole = append(st.whole, t.Seat)
		}
	}
	focus := -1
	if f, ok := s.focus(); ok && own {
		focus = f
	}
	out := make([]spot, 0, len(stacks)+2)
	for _, st := range stacks {
		ch, l := s.mark(st.up, st.down, st.whole, plain, focus)
		out = append(out, spot{st.row, st.col, cell{ch, l}})
	}
	if focus < 0 {
		return out
	}
	label := look{kind: labelLook}
	axis, _, _ := geo.place(qd.Point{})
	for _, t := range s.v.Tokens {
		if t.Seat == focus {
			r, col, _ := geo.place(s.shown(t))
			out = append(out, spot{geo.top() + geo.rows(), col, cell{'▲', label}})
			if r != axis { // on the axis row the edge keeps the axis's ▶
				out = append(out, spot{r, geo.width() - 1, cell{'◀', label}})
			}
		}
	}
	return out
}

// mark is the one character (and its look) for the tokens in one terminal cell: those in
// its upper and lower half, or those in a whole cell. A lone token of seat focus is
// reversed.
func (s *Screen) mark(up, down, whole []int, plain bool, focus int) (rune, look) {
	switch {
	case len(whole) == 1:
		if whole[0] == focus {
			return s.letters[whole[0]], look{kind: focusLook, a: whole[0]}
		}
		return s.letters[whole[0]], look{kind: seatLook, a: whole[0]}
	case len(whole) > 1:
		// A count, as in a half cell: a plain digit read as a word's number in the list.
		return count(superDigits, len(whole)), look{kind: crowdLook}
	case len(up) == 1 && len(down) == 0:
		// A lone token names its seat, as in a whole cell: the case says the half (the
		// seats' letters are capitals), where a block said only its colour, and colours
		// alike on a 16-colour terminal could not be told apart.
		return s.letters[up[0]], look{kind: seatLook, a: up[0]}
	case len(up) == 0 && len(down) == 1:
		return unicode.ToLower(s.letters[down[0]]), look{kind: seatLook, a: down[0]}
	case len(up) == 1 && len(down) == 1 && plain:
		return '█', look{}
	case len(up) == 1 && len(down) == 1:
		// Upper token in the foreground, lower one as the background: both show.
		return '▀', look{kind: pairLook, a: up[0], b: down[0]}
	case len(down) == 0:
		return count(superDigits, len(up)), look{kind: stackLook}
	case len(up) == 0:
		return count(subDigits, len(down)), look{kind: stackLook}
	}
	// Both halves taken and at least one holds several: the upper count, underlined
	// because the lower cell is taken too (the token list says by whom).
	return count(superDigits, len(up)), look{kind: bothLook}
}

// shown is where a token is drawn: the player's own follows their keys while placing.
func (s *Screen) shown(t qd.Token) qd.Point {
	if t.Seat == s.seat && s.v.Phase == qd.PhasePlacement {
		return s.mine
	}
	return qd.Point{X: t.X, Y: t.Y}
}

// focus is the token the player is working on: their own while placing, the selected one
// while they put numbers on tokens.
func (s *Screen) focus() (int, bool) {
	switch s.role() {
	case placing:
		return s.seat, true
	case voting, teamBallot:
		if ts := s.targets(); s.sel < len(ts) {
			return ts[s.sel], true
		}
	}
	return 0, false
}
