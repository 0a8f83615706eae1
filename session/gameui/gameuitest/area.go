package gameuitest

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
)

// The game area of a 120×40 terminal: from 120 columns the session shows the log and chat
// in a 36-column panel beside the game, and the title, prompt and footer take 3 rows.
// A session test (session/large_test.go) checks that the session gives exactly this.
const (
	Width120x40  = 120 - 36 - 2
	Height120x40 = 40 - 3
)

// Area checks a drawn game area: at most h lines, none wider than w cells. It returns the
// lines without their styles.
func Area(tb testing.TB, out string, w, h int) []string {
	tb.Helper()
	lines := strings.Split(ansi.Strip(out), "\n")
	if len(lines) > h {
		tb.Fatalf("%d lines, at most %d:\n%s", len(lines), h, ansi.Strip(out))
	}
	for i, l := range lines {
		if lw := rules.Width(l); lw > w {
			tb.Fatalf("line %d is %d wide, at most %d: %q", i, lw, w, l)
		}
	}
	return lines
}

// Index is the number of the first line holding text, or -1.
func Index(lines []string, text string) int {
	for i, l := range lines {
		if strings.Contains(l, text) {
			return i
		}
	}
	return -1
}
