package session

import (
	"slices"
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
