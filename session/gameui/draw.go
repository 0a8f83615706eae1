package gameui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Fit makes one line exactly w cells wide: cut with an ellipsis, or padded with spaces.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	if n := w - ansi.StringWidth(s); n > 0 {
		s += strings.Repeat(" ", n)
	}
	return s
}

// Block makes lines exactly w×h: the first h lines fitted, then blank lines.
func Block(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = Fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", w)
		}
	}
	return out
}

// Painter applies styles unless the frame is plain.
type Painter struct{ Plain bool }

// Paint renders text in st, or returns it as it is when plain or empty.
func (p Painter) Paint(st lipgloss.Style, text string) string {
	if p.Plain || text == "" {
		return text
	}
	return st.Render(text)
}

// FrameKey is what of a frame a cached drawing depends on: everything but the clock and
// the names.
type FrameKey struct {
	Width, Height, Seat int
	Plain               bool
	Away                SeatSet
}

// Key is the frame's FrameKey.
func (f Frame) Key() FrameKey { return FrameKey{f.Width, f.Height, f.Seat, f.Plain, f.Away} }
