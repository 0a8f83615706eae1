package rules

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width is how many terminal columns s takes. Every limit on text a screen shows (a
// topic, a question, a word, a name, a clue) counts columns, as the screen does, and not
// characters: a wide character such as 漢 takes two, so a limit in characters would let
// a Japanese topic run twice as wide as the room the screen keeps for it.
//
// It is ansi.StringWidth, which walks the text by grapheme cluster. A string with no
// byte past ASCII has no cluster of more than one character that takes a column (only
// "\r\n", which takes none), so there it counts with ansi.StringWidthWc, which skips
// the segmentation: the same width for a tenth of the work, and most of what a screen
// measures is ASCII with colours.
func Width(s string) int {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return ansi.StringWidth(s)
		}
	}
	return ansi.StringWidthWc(s)
}

// CheckWidth is nil when s takes at most max columns, and otherwise says how wide it is
// in words a pack author or a player can act on.
func CheckWidth(s string, max int) error {
	if n := Width(s); n > max {
		return fmt.Errorf("%d columns wide (at most %d; a wide character such as 漢 counts two)", n, max)
	}
	return nil
}

// ControlChar names the first control or bidirectional character in s and where it is,
// in words a pack author can act on ("a tab (U+0009) at column 4"), or "" when there is
// none. Every content check uses it, so each says which character it found.
func ControlChar(s string) string {
	col := 1
	for _, r := range s {
		if unicode.IsControl(r) || unicode.In(r, unicode.Bidi_Control) {
			name := "a control character"
			switch r {
			case '\t':
				name = "a tab"
			case '\x1b':
				name = "an escape character, which starts terminal escape sequences"
			case '\r':
				name = "a carriage return (an old Mac line end)"
			case '\a':
				name = "a bell"
			}
			if unicode.In(r, unicode.Bidi_Control) {
				name = "a right-to-left or left-to-right control"
			}
			return fmt.Sprintf("%s (U+%04X) at column %d", name, r, col)
		}
		col += Width(string(r))
	}
	return ""
}
