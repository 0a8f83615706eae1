package session

import (
	"slices"
	"strings"
	"testing"
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
