package quadrant

import (
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
)

// planeCols is the plane's width: one column per x cell.
const planeCols = qd.MaxX - qd.MinX + 1

// cell is one character of the plane and the style it is drawn in (0 = none).
type cell struct {
	ch    string
	style int
	token bool
}

// canvas is the plane being drawn, with the styles its cells use.
type canvas struct {
	cells  [][]cell
	styles []lipgloss.Style
}

func newCanvas(w, h int) *canvas {
	c := &canvas{styles: []lipgloss.Style{{}}}
	c.cells = make([][]cell, h)
	for r := range c.cells {
		c.cells[r] = make([]cell, w)
		for x := range c.cells[r] {
			c.cells[r][x] = cell{ch: " "}
		}
	}
	return c
}

func (c *canvas) style(st lipgloss.Style) int {
	c.styles = append(c.styles, st)
	return len(c.styles) - 1
}

// set writes one character, unless a token is there.
func (c *canvas) set(r, x int, ch string, style int) {
	if r < 0 || r >= len(c.cells) || x < 0 || x >= len(c.cells[r]) || c.cells[r][x].token {
		return
	}
	c.cells[r][x] = cell{ch: ch, style: style}
}

// text writes s from column x on row r.
func (c *canvas) text(r, x int, s string, style int) {
	for _, ch := range s {
		c.set(r, x, string(ch), style)
		x++
	}
}

// lines renders the canvas; plain drops every style.
func (c *canvas) lines(plain bool) []string {
	out := make([]string, len(c.cells))
	for r, row := range c.cells {
		var b strings.Builder
		for i := 0; i < len(row); {
			j := i
			var run strings.Builder
			for j < len(row) && row[j].style == row[i].style {
				run.WriteString(row[j].ch)
				j++
			}
			if plain || row[i].style == 0 {
				b.WriteString(run.String())
			} else {
				b.WriteString(c.styles[row[i].style].Render(run.String()))
			}
			i = j
		}
		out[r] = b.String()
	}
	return out
}

// rowOf maps y to a row of a plane with rows rows; it squeezes the grid when the frame
// is too short for one row per cell.
func rowOf(y, rows int) int {
	return int(math.Round(float64(qd.MaxY-y) * float64(rows-1) / float64(qd.MaxY-qd.MinY)))
}

// drawPlane draws the axes, their criteria at the + ends, the reference word at the
// centre and every token. It returns height lines of planeCols cells.
func (s *Screen) drawPlane(height int, plain bool) []string {
	rows := min(height-1, qd.MaxY-qd.MinY+1)
	c := newCanvas(planeCols, rows+1)
	dim := c.style(lipgloss.NewStyle().Faint(true))
	label := c.style(lipgloss.NewStyle().Bold(true))
	cx, cy := -qd.MinX, 1+rowOf(0, rows)

	// The vertical criterion heads the plane, the horizontal one ends the axis row.
	vert := []rune(s.v.Vertical)
	c.text(0, max(0, min(planeCols-len(vert), cx-len(vert)/2)), string(vert), label)
	for r := 1; r <= rows; r++ {
		c.set(r, cx, "│", dim)
		for x := 0; x < planeCols; x += 5 {
			if (r-cy)%5 == 0 && x != cx {
				c.set(r, x, "·", dim)
			}
		}
	}
	for x := range planeCols {
		c.set(cy, x, "─", dim)
	}
	c.set(cy, planeCols-1, "▶", label)
	c.set(1, cx, "▲", label)
	h := []rune(s.v.Horizontal + " ▶")
	if cy+1 <= rows {
		c.text(cy+1, max(0, planeCols-len(h)), string(h), label)
	} else {
		c.text(cy-1, max(0, planeCols-len(h)), string(h), label)
	}
	ref := []rune(s.v.Reference)
	if len(ref) > 0 {
		c.text(cy-1, max(0, min(planeCols-len(ref), cx-len(ref)/2)), string(ref), dim)
	}
	c.set(cy, cx, "◆", label)

	// The viewer's own and the selected token take their exact cell first; a token that
	// finds its cell taken sits beside it, so all of them show.
	sel := -2
	if ts := s.targets(); (s.role() == voting || s.role() == teamBallot) && s.sel < len(ts) {
		sel = ts[s.sel]
	}
	order := append([]qd.Token(nil), s.v.Tokens...)
	rank := func(t qd.Token) int {
		switch t.Seat {
		case s.seat:
			return 0
		case sel:
			return 1
		}
		return 2
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && rank(order[j]) < rank(order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, t := range order {
		p := qd.Point{X: t.X, Y: t.Y}
		if t.Seat == s.seat && s.v.Phase == qd.PhasePlacement {
			p = s.mine
		}
		r, x := 1+rowOf(p.Y, rows), p.X-qd.MinX
		st := gameui.SeatStyle(t.Seat)
		if t.Seat == s.seat || t.Seat == sel {
			st = st.Reverse(true)
		}
		style := c.style(st)
		x = freeCol(c.cells[r], x)
		c.cells[r][x] = cell{ch: string(s.letters[t.Seat]), style: style, token: true}
		if plain && t.Seat == sel && x > 0 && !c.cells[r][x-1].token {
			c.cells[r][x-1] = cell{ch: ">", token: true}
		}
	}
	return c.lines(plain)
}

// freeCol is the column nearest x on the row without a token.
func freeCol(row []cell, x int) int {
	for d := 0; d < len(row); d++ {
		for _, c := range []int{x + d, x - d} {
			if c >= 0 && c < len(row) && !row[c].token {
				return c
			}
		}
	}
	return x
}
