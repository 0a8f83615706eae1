package gameui

import (
	"io"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/playertext"
	"parlor/rules"
)

// boxCursor is a text box's cursor: the character under it in reverse video.
var boxCursor = lipgloss.NewStyle().Reverse(true)

// BoxLine draws the text of a one-line text box in room columns, with its cursor at rune
// pos: a window on the text that keeps the cursor in view, with "…" on a side that hides
// some. Written here because bubbles' textinput scrolls by characters, not columns, and
// only by the width it had at its last key: a text of wide characters ran past its box
// and hid the cursor. plain (a terminal without colour) draws the cursor as "_", with no
// styles; else the character under it, or a space after the text, is reversed.
func BoxLine(value string, pos, room int, plain bool) string {
	r := []rune(value)
	pos = min(max(0, pos), len(r))
	if plain {
		before, after := boxWindow(string(r[:pos]), string(r[pos:]), 1, room)
		return before + "_" + after
	}
	at, rest := " ", ""
	if pos < len(r) {
		at, rest = string(r[pos]), string(r[pos+1:])
	}
	before, after := boxWindow(string(r[:pos]), rest, playertext.Width(at), room)
	return before + boxCursor.Render(at) + after
}

// boxWindow cuts a box's text to room columns so that the cursor, cw columns between
// before and after, stays in view, and returns what to show of before and after.
func boxWindow(before, after string, cw, room int) (string, string) {
	wb := playertext.Width(before)
	total := wb + cw + playertext.Width(after)
	if total <= room || room <= cw+1 {
		return before, after
	}
	// Columns start to end of the text are shown: the cursor and a column after it when
	// it can, and a column for each "…".
	start := max(0, wb+cw+2-room)
	end := start + room - 2
	if start == 0 {
		end++
	}
	if end >= total {
		start, end = total-room+1, total
	}
	if start > 0 {
		// TruncateLeft keeps a wide character it cuts in two; leave it out.
		shown := ansi.TruncateLeft(before, start, "")
		if playertext.Width(shown) > wb-start {
			shown = ansi.TruncateLeft(before, start+1, "")
		}
		before = "…" + shown
	}
	if end < total {
		after = ansi.Truncate(after, end-wb-cw, "") + "…"
	}
	return before, after
}

// Wrap breaks text into lines of at most w columns at its spaces (U+0020: a no-break
// space holds two words together), "\n" starting a new line; runs of spaces count as
// one. A word wider than a line (a pasted link, a row of 月) is broken where the line
// ends, so that none of it is cut away.
func Wrap(text string, w int) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, word := range strings.Split(para, " ") {
			if word == "" {
				continue
			}
			for w > 0 && rules.Width(word) > w {
				if line != "" {
					out, line = append(out, line), ""
				}
				piece := ansi.Truncate(word, w, "")
				if piece == "" { // a character wider than the line: it goes whole
					piece, _ = ansi.FirstGraphemeCluster(word, ansi.GraphemeWidth)
				}
				if !strings.HasPrefix(word, piece) {
					break // styled text: left whole, for the caller to fit
				}
				out, word = append(out, piece), word[len(piece):]
			}
			switch {
			case word == "":
			case line == "":
				line = word
			case rules.Width(line)+1+rules.Width(word) <= w:
				line += " " + word
			default:
				out = append(out, line)
				line = word
			}
		}
		out = append(out, line)
	}
	if len(out) > 1 && strings.IndexByte(text, '\x1b') >= 0 {
		out = restyle(out)
	}
	return out
}

// restyle carries a styled text's style over its line breaks: each line ends it and the
// next begins it again (lipgloss's WrapWriter), as a frame's rows are drawn one by one.
func restyle(lines []string) []string {
	var b strings.Builder
	w := lipgloss.NewWrapWriter(&b)
	_, _ = io.WriteString(w, strings.Join(lines, "\n"))
	_ = w.Close()
	return strings.Split(b.String(), "\n")
}

// KeepWithin keeps a text box's edit within cols columns (a wide character takes two): an
// edit that leaves the text no wider than before, or within cols, is taken as it is;
// otherwise what it inserted at the cursor (before[:pos] and before[pos:] in runes stay
// around it) is kept as far as it fits, in whole characters. It returns the value, the
// cursor's rune position in it, and whether anything the edit brought was left out.
func KeepWithin(before string, pos int, after string, cols int) (value string, cursor int, cut bool) {
	if n := playertext.Width(after); n <= cols || n <= playertext.Width(before) {
		return after, -1, false
	}
	r := []rune(before)
	pos = min(max(0, pos), len(r))
	head, tail := string(r[:pos]), string(r[pos:])
	added, ok := strings.CutPrefix(after, head)
	if ok {
		added, ok = strings.CutSuffix(added, tail)
	}
	if !ok {
		added = ""
	}
	added = playertext.Truncate(added, max(0, cols-playertext.Width(head+tail)))
	if playertext.Width(head+added+tail) > cols {
		added = "" // a character joined across the cursor: take nothing
	}
	return head + added + tail, pos + len([]rune(added)), true
}
