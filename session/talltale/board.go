package talltale

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

	tt "parlor/rules/talltale"
	"parlor/session/gameui"
)

// cellWidth is one grid cell: five cells fill 80 columns.
const cellWidth = 16

var boardColours = map[string]gameui.Tone{"red": gameui.Red, "blue": gameui.Blue, "green": gameui.Green, "yellow": gameui.Yellow}

func colourStyle(col string, plain bool) lipgloss.Style {
	if plain {
		return lipgloss.NewStyle()
	}
	return lipgloss.NewStyle().Foreground(boardColours[col].Color())
}

var (
	dim    = lipgloss.NewStyle().Faint(true)
	bold   = lipgloss.NewStyle().Bold(true)
	warn   = lipgloss.NewStyle().Foreground(gameui.Error.Color()).Bold(true)
	cursor = lipgloss.NewStyle().Reverse(true)
)

// tabs names the boards in play, the shown one in brackets.
func (s *Screen) tabs(plain bool) string {
	p := gameui.Painter{Plain: plain}
	var parts []string
	for i := range s.v.Boards {
		parts = append(parts, s.boardName(i, plain))
	}
	line := "Boards in play: " + strings.Join(parts, " ")
	if len(s.v.Boards) > 1 {
		line += p.Paint(dim, "  (tab switches)")
	}
	return line
}

// boardName is a board's name in its colour, in brackets when the cursor is on it: the
// name says which board it is, so colour is never the only cue.
func (s *Screen) boardName(i int, plain bool) string {
	b := s.v.Boards[i]
	name := strings.ToUpper(b.Colour[:1]) + b.Colour[1:] + " board"
	if i == s.board {
		name = "[" + name + "]"
	} else {
		name = " " + name + " "
	}
	return gameui.Painter{Plain: plain}.Paint(colourStyle(b.Colour, plain).Bold(i == s.board), name)
}

// stackedBoards is every board in play one above the other, each under its name, when
// they fit in room rows (large ones if the area is large and they fit, else small
// ones); nil when they do not, or when there is a single board.
func (s *Screen) stackedBoards(f gameui.Frame, room int) []string {
	n := len(s.v.Boards)
	if n < 2 {
		return nil
	}
	for _, large := range []bool{true, false} {
		if large && !f.Large() || n*(1+gridRows(large)) > room {
			continue
		}
		out := make([]string, 0, n*(1+gridRows(large)))
		for i := range s.v.Boards {
			label := s.boardName(i, f.Plain)
			if i == 0 {
				label += gameui.Painter{Plain: f.Plain}.Paint(dim, "  (tab moves the cursor to the next board)")
			}
			out = append(append(out, label), s.grid(f.Plain, i, large)...)
		}
		return out
	}
	return nil
}

// gridRows is the height of a drawn board: two lines a row of cells, three in a large
// area (a rule under each cell sets the illustrations apart).
func gridRows(large bool) int {
	if large {
		return 15
	}
	return 10
}

// grid draws the shown board as 5 rows of 5 cells, each a glyph over a name (over a rule
// when large); the cursor is marked '>' and the viewer's own tokens '*' with their order.
func (s *Screen) grid(plain bool, index int, large bool) []string {
	b := s.v.Boards[index]
	showCursor := index == s.board
	var kept []int
	if s.v.Hand != nil {
		for _, k := range s.v.Hand.Kept {
			kept = append(kept, k.ID)
		}
	}
	cs := colourStyle(b.Colour, plain)
	var out []string
	for row := 0; row < 5; row++ {
		var top, bottom, rule strings.Builder
		for col := 0; col < 5; col++ {
			i := row*5 + col
			ill := b.Illustrations[i]
			here := showCursor && i == s.cell
			mark := " "
			if here {
				mark = ">"
			}
			tok := "  "
			if n := slices.Index(s.v.MyTokens, ill.ID); n >= 0 {
				tok = fmt.Sprintf("*%d", n+1)
			} else if slices.Contains(kept, ill.ID) {
				tok = "##"
			}
			t := gameui.Fit(mark+" "+ill.Glyph, cellWidth-3) + tok + " "
			n := gameui.Fit("  "+ill.Name, cellWidth)
			if here && !plain {
				t = cursor.Render(t)
				n = cursor.Render(n)
			} else if !plain {
				n = cs.Render(n)
			}
			top.WriteString(t)
			bottom.WriteString(n)
			rule.WriteString(gameui.Painter{Plain: plain}.Paint(dim, " "+strings.Repeat("─", cellWidth-2)+" "))
		}
		out = append(out, top.String(), bottom.String())
		if large {
			out = append(out, rule.String())
		}
	}
	return out
}

// seatName is a player's name in their seat colour, with their initial in plain mode so
// colour is never the only cue.
func (s *Screen) seatName(seat int, plain bool) string {
	if seat < 0 || seat >= len(s.v.Names) {
		return "?"
	}
	name := s.v.Names[seat]
	if seat == s.seat {
		name += " (you)"
	}
	if plain {
		return name
	}
	return gameui.SeatInk(seat).Paint(name)
}

// cardLine is an illustration on one line: colour, glyph, name.
func cardLine(ill tt.Illustration, plain bool) string {
	return gameui.Painter{Plain: plain}.Paint(colourStyle(ill.Colour, plain), fmt.Sprintf("%-7s %-9s %s", ill.Colour, ill.Glyph, ill.Name))
}
