package quadrant

import (
	"slices"
	"sync"

	"parlor/session/gameui"
)

// A token move changes one or two rows of the plane; the rest are drawn from the same
// background and the same tokens as in the seat's last frame. So a seat keeps the
// background it drew (for its geometry and criteria), the table's plane it drew over
// last, and the rows of its own it rendered, with what each was drawn from, and renders
// a row again only when that changed: its own rows (the focus) after another player's
// move, and, when it is the seat that draws the table state's public plane, the moved
// token's rows.

// bgKey is everything the plane's background is drawn from (Screen.background).
type bgKey struct {
	geo                             geometry
	vertical, horizontal, reference string
}

func (s *Screen) bgKey(geo geometry) bgKey {
	return bgKey{geo, s.v.Vertical, s.v.Horizontal, s.v.Reference}
}

// drawnRow is one row of the plane as the seat rendered it last.
type drawnRow struct {
	bg    bgKey
	plain bool
	spots []spot // the spots on the row, in their order
	line  string
}

// rows keeps what a seat drew: the public plane it drew over last (its rows are the
// next table state's where the tokens on them did not move), the rows of its own (they
// differ in the focus), and the seat's own word.
type rows struct {
	bg    *canvas // the background last drawn, for bgFor
	bgFor bgKey
	// pub is the table's shared drawing of the plane the seat drew over last. Every seat
	// of the table points at the same one, not a copy of its rows: the seat that draws
	// the next state's takes from it the rows that did not change.
	pub *publicPlane
	own map[int]drawnRow
	// word and wordLine are the viewer's own line of the numbered words (wordLines).
	word     ownWord
	wordLine string
	// board is the board's rows as the seat drew them last (Screen.board).
	board []boardRow

	on []spot // the spots on the row being rendered
	// reused and boardReused count the rows taken from pub and own rather than rendered,
	// and the board's rows taken from board: tests check that what they compare was kept.
	reused, boardReused int
}

// boardRow is one row of the board, the plane's half and the panel's, and the two joined.
type boardRow struct{ left, right, line string }

// backgroundFor is the plane's background for geo, drawn again only when the geometry
// or the criteria changed. It is shared (publicPlane): nobody changes it once drawn, and
// the seats of a table take the one of the plane they draw over (drawPlane), so that a
// table keeps one background, not one per seat (a canvas is some 25 KB).
func (s *Screen) backgroundFor(geo geometry) *canvas {
	if k := s.bgKey(geo); s.rows.bg == nil || s.rows.bgFor != k {
		s.rows.bg, s.rows.bgFor = s.background(geo), k
	}
	return s.rows.bg
}

// rowLine is row r of bg with the spots on it, rendered and fitted to the plane's
// width, or the line kept in kept when it was drawn from the same background and spots.
func (s *Screen) rowLine(kept *map[int]drawnRow, bg *canvas, geo geometry, r int, spots []spot, plain bool) string {
	on := s.rows.on[:0]
	for _, sp := range spots {
		if sp.row == r {
			on = append(on, sp)
		}
	}
	s.rows.on = on
	k := s.bgKey(geo)
	if d, ok := (*kept)[r]; ok && d.bg == k && d.plain == plain && slices.Equal(d.spots, on) {
		s.rows.reused++
		return d.line
	}
	if *kept == nil {
		*kept = map[int]drawnRow{}
	}
	l := renderRow(bg, geo, r, on, plain)
	(*kept)[r] = drawnRow{bg: k, plain: plain, spots: slices.Clone(on), line: l}
	return l
}

// renderRow is row r of bg with the spots on it, rendered and fitted to the plane's width.
func renderRow(bg *canvas, geo geometry, r int, spots []spot, plain bool) string {
	row := rowBufs.Get().(*[]cell)
	*row = bg.rowInto(*row, r, spots)
	l := gameui.Fit(line(*row, plain), geo.width())
	rowBufs.Put(row)
	return l
}

// sameSpotsOn reports whether a and b have the same spots on row r, in the same order.
func sameSpotsOn(a, b []spot, r int) bool {
	i, j := 0, 0
	for {
		for i < len(a) && a[i].row != r {
			i++
		}
		for j < len(b) && b[j].row != r {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		i, j = i+1, j+1
	}
}

// rowBufs hold the row being rendered (a plane's width of cells): a scratch buffer,
// shared rather than kept by every seat.
var rowBufs = sync.Pool{New: func() any { return new([]cell) }}

// forget drops every drawing the seat kept, so that the next frame is drawn from
// nothing (tests compare the two).
func (s *Screen) forget() { s.rows = rows{} }
