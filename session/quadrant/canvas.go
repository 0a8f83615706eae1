package quadrant

import (
	"slices"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"

	"parlor/session/gameui"
)

// look is how a cell of the plane is coloured, as a comparable value rather than a
// lipgloss.Style: two drawings of the plane can then be compared cell by cell (a seat
// reuses the rows that are the same as the table's shared drawing), and each look's
// escape sequences are made once for the process (lookInk).
type look struct {
	kind lookKind
	a, b int // the seat of a token; the upper and lower seat of a pair
}

type lookKind uint8

const (
	noLook    lookKind = iota
	dimLook            // the grid and the scales
	labelLook          // the criteria, the centre and the markers
	seatLook           // one token (a)
	focusLook          // one token (a) reversed: in focus on the plane, the own in the list
	stackLook          // a count of tokens
	crowdLook          // several tokens in a whole cell: a reversed count
	bothLook           // a count in a half cell whose other half is taken too: underlined
	pairLook           // one token in each half: a above, b below (as the background)
)

// style is the lipgloss style of l.
func (l look) style() lipgloss.Style {
	stacked := lipgloss.NewStyle().Bold(true)
	switch l.kind {
	case dimLook:
		return lipgloss.NewStyle().Faint(true)
	case labelLook, stackLook:
		return stacked
	case seatLook:
		return gameui.SeatStyle(l.a)
	case focusLook:
		return gameui.SeatStyle(l.a).Reverse(true)
	case crowdLook:
		return stacked.Reverse(true)
	case bothLook:
		return stacked.Underline(true)
	case pairLook:
		return lipgloss.NewStyle().Foreground(gameui.SeatColor(l.a)).Background(gameui.SeatColor(l.b))
	}
	return lipgloss.Style{}
}

// lookInks are the looks' inks, made once: there are a few per seat at most.
var lookInks sync.Map // look -> gameui.Ink

func lookInk(l look) gameui.Ink {
	if k, ok := lookInks.Load(l); ok {
		return k.(gameui.Ink)
	}
	k := gameui.InkOf(l.style())
	lookInks.Store(l, k)
	return k
}

// cell is one character of the plane and its look. It holds no pointer (a rune, not a
// string), so that the canvases, rows and spots every table and seat keep are nothing
// for the collector to scan.
type cell struct {
	ch   rune
	look look
}

// canvas is the plane being drawn.
type canvas struct{ cells [][]cell }

func newCanvas(w, h int) *canvas {
	c := &canvas{cells: make([][]cell, h)}
	blank := slices.Repeat([]cell{{ch: ' '}}, w*h)
	for r := range c.cells {
		c.cells[r] = blank[r*w : (r+1)*w : (r+1)*w]
	}
	return c
}

// set writes one character; what is off the canvas is dropped.
func (c *canvas) set(r, x int, ch rune, l look) {
	if r < 0 || r >= len(c.cells) || x < 0 || x >= len(c.cells[r]) {
		return
	}
	c.cells[r][x] = cell{ch: ch, look: l}
}

// text writes s from column x on row r, kept inside the canvas with its last column
// blank, so that a label never runs into what stands beside the plane ("▲ Good for a
// first date Team B — …"); a label wider than that is cut with an ellipsis.
func (c *canvas) text(r, x int, s string, l look) {
	rs := []rune(s)
	room := len(c.cells[0]) - 1
	if len(rs) > room && room > 0 {
		rs = append(rs[:room-1:room-1], '…')
	}
	x = max(0, min(x, room-len(rs)))
	for i, ch := range rs {
		c.set(r, x+i, ch, l)
	}
}

// spot is one cell written over a canvas.
type spot struct {
	row, col int
	c        cell
}

// rowWith is row r of c with the spots on that row written over it, in their order.
func (c *canvas) rowWith(r int, over []spot) []cell { return c.rowInto(nil, r, over) }

// rowInto is rowWith made in dst's array (when it is long enough).
func (c *canvas) rowInto(dst []cell, r int, over []spot) []cell {
	row := append(dst[:0], c.cells[r]...)
	for _, s := range over {
		if s.row == r && s.col >= 0 && s.col < len(row) {
			row[s.col] = s.c
		}
	}
	return row
}

// cellWith is the cell at r, x of c with the spots written over it, in their order.
func (c *canvas) cellWith(r, x int, over []spot) cell {
	at := c.cells[r][x]
	for _, s := range over {
		if s.row == r && s.col == x {
			at = s.c
		}
	}
	return at
}

// line renders one row of cells; plain drops every look. Runs of one look are painted
// together, the ink's sequences written around the run straight into the line
// (gameui.Ink.Wrap): painting each run as a string of its own was half of a row's cost.
// A row has a few looks in many runs (the grid between tokens): each look's ink is
// looked up once per row.
func line(row []cell, plain bool) string {
	var b strings.Builder
	b.Grow(4 * len(row))
	type wrap struct {
		l         look
		pre, post string
		ok        bool
	}
	var seen [8]wrap // the looks of the row so far (a few), kept on the stack
	n := 0
	for i := 0; i < len(row); {
		// A newline or a tab in the run: an ink is not simply wrapped around it.
		j, cut := i, false
		for ; j < len(row) && row[j].look == row[i].look; j++ {
			cut = cut || row[j].ch == '\n' || row[j].ch == '\t'
		}
		run := row[i:j]
		i = j
		l := run[0].look
		if plain || l.kind == noLook {
			writeCells(&b, run)
			continue
		}
		w := -1
		for k := range n {
			if seen[k].l == l {
				w = k
				break
			}
		}
		if w < 0 {
			pre, post, ok := lookInk(l).Wrap()
			w = min(n, len(seen)-1)
			seen[w], n = wrap{l, pre, post, ok}, min(n+1, len(seen))
		}
		if wr := seen[w]; wr.ok && !cut {
			b.WriteString(wr.pre)
			writeCells(&b, run)
			b.WriteString(wr.post)
			continue
		}
		var text strings.Builder
		writeCells(&text, run)
		b.WriteString(lookInk(l).Paint(text.String()))
	}
	return b.String()
}

// writeCells writes the characters of cells.
func writeCells(b *strings.Builder, cells []cell) {
	for _, c := range cells {
		b.WriteRune(c.ch)
	}
}
