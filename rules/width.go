package rules

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"
)

// Width is how many terminal columns s takes. Every limit on text a screen shows (a
// topic, a question, a word, a name, a clue) counts columns, as the screen does, and not
// characters: a wide character such as 漢 takes two, so a limit in characters would let
// a Japanese topic run twice as wide as the room the screen keeps for it.
func Width(s string) int { return ansi.StringWidth(s) }

// CheckWidth is nil when s takes at most max columns, and otherwise says how wide it is
// in words a pack author or a player can act on.
func CheckWidth(s string, max int) error {
	if n := Width(s); n > max {
		return fmt.Errorf("%d columns wide (at most %d; a wide character such as 漢 counts two)", n, max)
	}
	return nil
}
