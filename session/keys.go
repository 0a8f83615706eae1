package session

import "charm.land/bubbles/v2/key"

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
		Up, Down, Join, Watch, Code, Create, Back, Name, Quit key.Binding
	}{
		Up:     bind("↑↓", "select", "up", "k"),
		Down:   bind("↓", "down", "down", "j"),
		Join:   bind("enter", "join", "enter"),
		Create: bind("c", "create", "c", "n"),
		Code:   bind("tab", "join by code", "tab", "J", "ctrl+j"),
		Watch:  bind("w", "watch", "w"),
		Back:   bind("r", "back to your seat", "r"),
		Name:   bind("N", "change name", "N"),
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
