package session

import (
	"slices"
	"strings"
	"testing"

	"parlor/session/gameui"
)

// The footer kept for a seat is drawn again when any key or help text changes, also
// in the slice it was drawn from, and not otherwise.
func TestFooterDrawnFollowsTheKeys(t *testing.T) {
	var d footerDrawn
	keys := []gameui.Key{{Keys: "enter", Help: "approve"}, {Keys: "tab", Help: "pick"}}
	check := func(what string, w int, typing bool) {
		t.Helper()
		if got, want := d.get(w, keys, typing), gameui.GameFooter(w, keys, typing); !slices.Equal(got, want) {
			t.Fatalf("%s: %q, want %q", what, got, want)
		}
	}
	check("first", 80, false)
	check("again", 80, false)
	keys = []gameui.Key{{Keys: "enter", Help: "unapprove"}, {Keys: "tab", Help: "pick"}}
	check("another help text", 80, false)
	keys[1].Keys = "shift+tab" // the game changes the slice it gave
	check("the same slice changed", 80, false)
	check("typing", 80, true)
	check("narrower", 40, true)
	check("on two lines", 40, false)
}

// The lobby's list of games is drawn once per width and shared by every session: what
// comes back is what a fresh drawing gives at that width, and a second look at a width
// gets the same lines without drawing them again.
func TestTheGamesListIsDrawnOncePerWidth(t *testing.T) {
	first := gamesLines(80)
	for _, w := range []int{80, 131, 80} {
		if got, want := gamesLines(w), drawGames(w); !slices.Equal(got, want) {
			t.Fatalf("at %d columns the shared list is\n%s\nnot\n%s", w, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if again := gamesLines(80); &again[0] != &first[0] {
		t.Fatal("the list at 80 columns was drawn again")
	}
	if slices.Equal(gamesLines(80), gamesLines(131)) {
		t.Fatal("the list does not depend on the width: the test shows nothing")
	}
}
