package session

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// blockOf gives what block gives for the lines joined, line breaks inside lines included.
func TestBlockOfIsBlockOfTheJoinedLines(t *testing.T) {
	for _, lines := range [][]string{
		nil,
		{""},
		{"Seats 2/7", "  1 Ann ★host", "  2 Ben"},
		{"a line that is far too wide for the block it goes in", "short"},
		{"Last game: Ann wins\nBen second", "then this", "", "日本語のテキスト"},
		{"one", "two", "three", "four", "five", "six", "seven"},
	} {
		for _, size := range [][2]int{{10, 3}, {34, 5}, {1, 1}, {20, 9}} {
			w, h := size[0], size[1]
			if got, want := blockOf(lines, w, h), block(strings.Join(lines, "\n"), w, h); !slices.Equal(got, want) {
				t.Errorf("blockOf(%q, %d, %d) = %q, want %q", lines, w, h, got, want)
			}
		}
	}
}

// TestACutLineEndsAtAWord: an event cut to fit its line ends after a whole word, so no
// number is cut into another ("450" to "45").
func TestACutLineEndsAtAWord(t *testing.T) {
	line := "Round 1: ann -275 → 325, bob +0 → 600, Bot Ada -150 → 450, Bot Bo -150 → 450, Bot Cy +25 → 625"
	for w := 20; w < 100; w++ {
		got := cutAtSpace(line, w)
		if ansi.StringWidth(got) > w {
			t.Fatalf("%d columns: %q is wider", w, got)
		}
		if w >= len([]rune(line)) {
			continue
		}
		if !strings.HasSuffix(got, "…") || !strings.HasPrefix(line, strings.TrimSuffix(got, "…")) {
			t.Fatalf("%d columns: %q", w, got)
		}
		if next := line[len(strings.TrimSuffix(got, "…")):]; !strings.HasPrefix(next, " ") && !strings.HasPrefix(next, ",") {
			t.Fatalf("%d columns: %q cuts a word (the rest is %q)", w, got, next)
		}
	}
	if got := cutAtSpace("Averyveryverylongwordwithoutspaces here", 12); got != "Averyveryve…" {
		t.Errorf("a word longer than half the line is cut where the line ends: %q", got)
	}
}
