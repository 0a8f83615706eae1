package session

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// bind makes a key binding: the keys it matches and how the help names it.
func bind(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// The key maps of the screens, most important first: a footer shows as many whole
// entries as fit, and the help lists them all.
var (
	// helpKey opens the help anywhere but in a text box; f1 works in a text box too.
	// ctrl+? is only sent by terminals with the kitty keyboard protocol (others send a
	// plain DEL for it), so it is bound but only f1 is promised on screen.
	helpKey     = bind("?", "help & rules", "?", "f1", "ctrl+?")
	helpInTyped = bind("f1", "help", "f1", "ctrl+?")
	closeHelp   = bind("esc", "close", "esc", "?", "q", "enter", "f1", "ctrl+?")
	quitKey     = bind("q", "quit", "q")

	lobbyKeys = struct {
		Up, Down, Join, Watch, Code, Create, Back, Name, Linear, Quit key.Binding
	}{
		Up:     bind("↑↓", "select", "up", "k"),
		Down:   bind("↓", "down", "down", "j"),
		Join:   bind("enter", "join", "enter"),
		Create: bind("c", "create", "c", "n"),
		Code:   bind("tab", "join by code", "tab", "J", "ctrl+j"),
		Watch:  bind("w", "watch", "w"),
		Back:   bind("r", "back to your seat", "r"),
		Name:   bind("N", "change name", "N"),
		Linear: bind("L", "linear mode for screen readers, from the next connection", "L"),
		Quit:   quitKey,
	}

	createKeys = struct {
		Up, Down, Change, Create, Back key.Binding
	}{
		Up:     bind("↑↓", "choose a row", "up", "k", "shift+tab"),
		Down:   bind("↓", "next row", "down", "j", "tab"),
		Change: bind("←→", "change", "left", "h", "right", "l", "space"),
		Create: bind("enter", "create the table", "enter"),
		Back:   bind("esc", "back", "esc", "q"),
	}

	nameKeys = struct{ Save, Delete, Back, Quit key.Binding }{
		Save:   bind("enter", "continue", "enter"),
		Delete: bind("backspace", "delete", "backspace"),
		Back:   bind("esc", "back", "esc"),
		Quit:   bind("ctrl+c", "quit", "ctrl+c"),
	}
)

// appendEnabled appends the bindings of bs that are enabled to keys.
func appendEnabled(keys []key.Binding, bs ...key.Binding) []key.Binding {
	for _, b := range bs {
		if b.Enabled() {
			keys = append(keys, b)
		}
	}
	return keys
}

// helpSays is b described as desc: the help has room to say more of a key than the
// footer's word.
func helpSays(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// backward are the keys that go back, up or left: a binding of both ways (↑↓, ←→,
// tab) takes a step of -1 for them (step).
var backward = bind("", "", "up", "k", "left", "h", "shift+tab", "pgup", "ctrl+b")

// step is the way a key goes in a binding of both ways: -1 back, up or left, else 1.
func step(k tea.KeyPressMsg) int {
	if key.Matches(k, backward) {
		return -1
	}
	return 1
}

// keyLines lists bindings for the help screen, one per line.
func keyLines(bs []key.Binding) []string {
	out := make([]string, 0, len(bs))
	for _, b := range bs {
		if !b.Enabled() {
			continue
		}
		out = append(out, "  "+keyStyle.Paint(fit(b.Help().Key, 14))+" "+b.Help().Desc)
	}
	return out
}
