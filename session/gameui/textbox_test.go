package gameui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parlor/playertext"
)

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want []string
	}{
		{"one two  three", 7, []string{"one two", "three"}},
		{"a\u00a0b c", 3, []string{"a\u00a0b", "c"}}, // a no-break space holds
		{"first\nsecond line", 6, []string{"first", "second", "line"}},
		{"go " + strings.Repeat("x", 12), 5, []string{"go", "xxxxx", "xxxxx", "xx"}},
		{strings.Repeat("月", 5), 4, []string{"月月", "月月", "月"}},
	} {
		if got := Wrap(c.in, c.w); !slices.Equal(got, c.want) {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}

func TestBoxLineKeepsTheCursorInItsColumns(t *testing.T) {
	text := strings.Repeat("漢", 30) + "end"
	for _, pos := range []int{0, 15, 30, 33} {
		got := BoxLine(text, pos, 20, true)
		if w := playertext.Width(got); !strings.Contains(got, "_") || w > 20 {
			t.Errorf("pos %d: %q (%d columns) has no cursor or is too wide", pos, got, w)
		}
	}
}

func TestKeepWithin(t *testing.T) {
	for _, c := range []struct {
		before      string
		pos         int
		after, want string
		cursor      int
		cut         bool
	}{
		{"ab", 2, "abc", "abc", -1, false},          // within
		{"abcd", 2, "abXcd", "abcd", 2, true},       // a key past 4 columns: not taken
		{"ab", 1, "a漢漢漢b", "a漢b", 2, true},          // a paste cut at the limit, whole characters
		{"漢漢漢", 3, "漢漢", "漢漢", -1, false},           // deleting is always allowed
		{"abcdef", 6, "abcdefg", "abcdef", 6, true}, // already over (a stored value): nothing more
	} {
		v, cur, cut := KeepWithin(c.before, c.pos, c.after, 4)
		if v != c.want || cut != c.cut || (cut && cur != c.cursor) {
			t.Errorf("KeepWithin(%q, %d, %q, 4) = %q, %d, %v; want %q, %d, %v", c.before, c.pos, c.after, v, cur, cut, c.want, c.cursor, c.cut)
		}
	}
}

// TestWrapKeepsTheStyleOnEveryLine: a styled text wrapped onto two lines (a bold prompt)
// is bold on both, and each line ends its style: a frame's rows are drawn one by one.
func TestWrapKeepsTheStyleOnEveryLine(t *testing.T) {
	text := "\x1b[1mTurn over: nobody found card 8; it and 3 wrong cards are discarded. Ann gives a card back.\x1b[m"
	lines := Wrap(text, 40)
	if len(lines) < 2 {
		t.Fatalf("not wrapped: %q", lines)
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, "\x1b[1m") || !strings.HasSuffix(l, "\x1b[m") {
			t.Errorf("line %d does not carry the style: %q", i, l)
		}
	}
	if got := ansi.Strip(strings.Join(lines, " ")); got != ansi.Strip(text) {
		t.Errorf("the words changed: %q", got)
	}
}
