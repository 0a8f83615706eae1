package gameui

import "testing"

// GameFooter keeps its footers under the same id as Footer does for the same bindings:
// either finds what the other kept, and both are the footer drawn afresh.
func TestGameFooterIsTheFooterOfItsBindings(t *testing.T) {
	game := []Key{{Keys: "space/enter", Help: "lock your token"}, {Keys: "←↑↓→/hjkl", Help: "move"}}
	for _, typing := range []bool{false, true} {
		keys := append(append([]Key{HelpKey}, game...), TableKeys...)
		if typing {
			keys = append([]Key{TypingHelpKey}, game...)
		}
		for _, w := range []int{30, 80, 200} {
			want := footer(w, Bindings(keys))
			for range 2 { // drawn, then kept
				if got := GameFooter(w, game, typing); got != want {
					t.Fatalf("width %d, typing %v: GameFooter\n%q\nwant\n%q", w, typing, got, want)
				}
			}
			footers.clear()
			if got := Footer(w, Bindings(keys)...); got != want {
				t.Fatalf("width %d, typing %v: Footer %q, want %q", w, typing, got, want)
			}
			if got := GameFooter(w, game, typing); got != want {
				t.Fatalf("width %d, typing %v: GameFooter after Footer %q, want %q", w, typing, got, want)
			}
		}
	}
}
