package gameui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// GameFooter is Footer2 of its bindings, and drawn afresh or kept it is the same.
func TestGameFooterIsFooter2OfItsBindings(t *testing.T) {
	game := []Key{{Keys: "space/enter", Help: "lock your token"}, {Keys: "←↑↓→/hjkl", Help: "move"}}
	for _, typing := range []bool{false, true} {
		keys := append(append([]Key{HelpKey}, game...), TableKeys...)
		if typing {
			keys = append([]Key{TypingHelpKey}, game...)
		}
		for _, w := range []int{30, 80, 200} {
			want := Footer2(w, Bindings(keys)...)
			if w == 200 && len(want) != 1 {
				t.Fatalf("at %d columns the footer took two lines: %q", w, want)
			}
			if w == 30 && !typing && len(want) != 2 {
				t.Fatalf("at %d columns the footer took one line: %q", w, want)
			}
			for range 2 { // drawn, then kept
				if got := GameFooter(w, game, typing); !slices.Equal(got, want) {
					t.Fatalf("width %d, typing %v: GameFooter\n%q\nwant\n%q", w, typing, got, want)
				}
				footers.clear()
			}
		}
	}
}

// Footer2 shows every key in order over two lines when one cuts them, each line exactly
// the width; one line when it holds them all; "…" only when two do not.
func TestFooter2ShowsEveryKey(t *testing.T) {
	keys := Bindings([]Key{HelpKey, {Keys: "s", Help: "start"}, {Keys: "b", Help: "add bot"}, {Keys: "↑↓", Help: "seat"},
		{Keys: "x", Help: "remove"}, {Keys: "H", Help: "make host"}, {Keys: "←→", Help: "option"}, {Keys: "C", Help: "close"},
		{Keys: "tab", Help: "panel"}, {Keys: "enter", Help: "chat"}, {Keys: "q", Help: "leave"}})
	words := func(lines ...string) string { return ansi.Strip(strings.Join(lines, " ")) }
	for _, w := range []int{80, 100, 200} {
		lines := Footer2(w, keys...)
		for _, l := range lines {
			if ansi.StringWidth(l) != w {
				t.Errorf("width %d: a line of %d columns: %q", w, ansi.StringWidth(l), lines)
			}
		}
		if len(lines) > 2 {
			t.Errorf("width %d: %d lines", w, len(lines))
		}
		all := words(lines...)
		if strings.Contains(all, "…") {
			t.Errorf("width %d: a key was cut: %q", w, lines)
		}
		last := -1
		for _, k := range keys {
			h := k.Help()
			i := strings.Index(all, h.Key+" "+h.Desc)
			if i < 0 || i < last {
				t.Errorf("width %d: %q missing or out of order in %q", w, h.Key+" "+h.Desc, all)
			}
			last = i
		}
		if one := Footer(w, keys...); !strings.Contains(one, "…") != (len(lines) == 1) {
			t.Errorf("width %d: %d lines, but one line is %q", w, len(lines), one)
		}
	}
	if lines := Footer2(20, keys...); len(lines) != 2 || !strings.Contains(lines[1], "…") {
		t.Errorf("at 20 columns two lines cannot hold them all, yet the second does not say so: %q", lines)
	}
}
