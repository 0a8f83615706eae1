package gameuitest

import "testing"

func TestKeyNamesRoundTrip(t *testing.T) {
	for _, name := range []string{"up", "enter", "esc", "tab", "shift+tab", "shift+right", "space", "backspace", "a", "K", "1", "?"} {
		if got := Key(name).String(); got != name {
			t.Errorf("Key(%q).String() = %q", name, got)
		}
	}
}
