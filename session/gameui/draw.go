package gameui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
)

// Fit makes one line exactly w cells wide: cut with an ellipsis, or padded with spaces.
//
// Measuring a line (ansi.StringWidth walks its grapheme clusters) was the biggest single
// cost of drawing a frame, and most lines are fitted again and again: a game screen
// fits its lines, the session fits them once more into its frame, and the seven seats
// of a table draw many of the same lines. So every fitted line is remembered, for
// every session, and fitting it again is a map look-up; the result is remembered as
// fitted too, so a fitted line is never measured again.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	k := fitKey{s, w}
	if out, ok := fits.get(k); ok {
		return out
	}
	out := fitLine(s, w)
	fits.put(k, out)
	if out != s { // a line that fitted already is under its own key now
		fits.put(fitKey{out, w}, out)
	}
	return out
}

// CutMiddle is s in at most w columns: whole if it fits, else its start and its end
// around an ellipsis, for names that differ at their end ("…spring A", "…spring B").
// Plain text only (an option's value, a pack's name).
func CutMiddle(s string, w int) string {
	n := rules.Width(s)
	if n <= w {
		return s
	}
	if w <= 1 {
		return ansi.Truncate(s, w, "…")
	}
	head := (w - 1) / 2
	tail := w - 1 - head
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, n-tail, "")
}

// fitKey is a line and the width it is fitted to.
type fitKey struct {
	s string
	w int
}

// fits bounds the remembered lines (a few MB at most): a frame is 24 lines, and a busy
// server draws a few thousand distinct ones a second.
var fits = &memo[fitKey]{max: 1 << 15}

// fitLine is Fit without the memory.
func fitLine(s string, w int) string {
	if rules.Width(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	if n := w - rules.Width(s); n > 0 {
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

// Fill is Block for lines that are w wide already (a Lines screen's): they are copied,
// not measured, and blank lines added up to h.
func Fill(lines []string, w, h int) []string {
	out := make([]string, h)
	n := copy(out, lines)
	for i := n; i < h; i++ {
		out[i] = strings.Repeat(" ", w)
	}
	return out
}

// Refit is Block for a screen that fits its lines again on every frame: it keeps the
// lines it fitted last time, and a line equal to the one in its place then is not looked
// up again. A frame is mostly the lines of the one before, often the very same strings,
// and comparing two is much cheaper than the memo's look-up, which hashes the line whole
// in a map every session shares (under load that was a tenth of the server's CPU).
type Refit struct {
	in, out []string
	w       int
}

// Block is Block(lines, w, h). The result is the caller's to change. A line that
// changed since the last frame is fitted in memo, the table state's (Frame.Memo), when
// there is one: such a line is mostly new (a token that moved, a vote), the same for
// every seat of the table, so the first seat fits it for the others, and the
// process-wide memo is left to the lines that recur (at 10,000 players it turned over
// every few seconds, and a look-up there cost more than the fit it saved).
func (r *Refit) Block(lines []string, w, h int, memo Memo) []string {
	out := make([]string, h)
	for i := range out {
		switch {
		case i >= len(lines):
			out[i] = strings.Repeat(" ", w)
		case r.w == w && i < len(r.in) && lines[i] == r.in[i]:
			out[i] = r.out[i]
		case memo != nil:
			l := lines[i]
			out[i] = memo.Remember(fitKey{l, w}, func() any { return fitLine(l, w) }).(string)
		default:
			out[i] = Fit(lines[i], w)
		}
	}
	// Copies, into the buffers of the last call: the caller's slices are its own.
	r.in, r.out, r.w = append(r.in[:0], lines[:min(len(lines), h)]...), append(r.out[:0], out...), w
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
