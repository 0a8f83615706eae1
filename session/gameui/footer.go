package gameui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// Binding turns a line of key help into a key.Binding for the help bubble. Game screens
// list keys as text ("1-5") because one entry often stands for a range of keys; the
// binding only carries the help text.
func (k Key) Binding() key.Binding {
	return key.NewBinding(key.WithKeys(k.Keys), key.WithHelp(k.Keys, k.Help))
}

// Bindings turns key help lines into bindings.
func Bindings(keys []Key) []key.Binding {
	out := make([]key.Binding, 0, len(keys))
	for _, k := range keys {
		out = append(out, k.Binding())
	}
	return out
}

var footerStyles = help.Styles{
	ShortKey:       lipgloss.NewStyle().Bold(true),
	ShortSeparator: lipgloss.NewStyle().Foreground(Dim.Color()),
	Ellipsis:       lipgloss.NewStyle().Foreground(Dim.Color()),
	FullKey:        lipgloss.NewStyle().Bold(true),
	FullSeparator:  lipgloss.NewStyle().Foreground(Dim.Color()),
}

// Footer is the one-line key help at the bottom of a screen: whole entries only, in the
// order given (most important first), as many as fit in width; "…" says more are on '?'.
func Footer(width int, bindings ...key.Binding) string {
	return footerFor(footerID("", width, bindings), func() string { return footer(width, bindings) })
}

// footerID is the id a footer of bindings in width is kept under; kind tells the
// layouts apart ("" for one line).
func footerID(kind string, width int, bindings []key.Binding) string {
	var id strings.Builder
	id.WriteString(kind)
	id.WriteString(strconv.Itoa(width))
	for _, b := range bindings {
		h := b.Help()
		footerEntry(&id, h.Key, h.Desc)
	}
	return id.String()
}

// Footer2 is Footer on two lines when one does not hold every key: the first line has
// the entries that fit, in order, and the second the rest (cut with "…" only if they
// do not fit either); one line when it holds them all. A screen whose keys would be cut
// at 80 columns shows them all this way, and gives up a line of its body.
func Footer2(width int, bindings ...key.Binding) []string {
	return strings.Split(footerFor(footerID("2/", width, bindings), func() string { return twoLines(width, bindings) }), "\n")
}

// twoLines draws Footer2's lines, joined by a newline when there are two.
func twoLines(width int, bindings []key.Binding) string {
	h := newFooterHelp()
	for n := len(bindings); n > 0; n-- {
		if line := h.ShortHelpView(bindings[:n]); lipgloss.Width(line) <= width {
			if n == len(bindings) {
				return Fit(line, width)
			}
			return Fit(line, width) + "\n" + footer(width, bindings[n:])
		}
	}
	return footer(width, bindings)
}

// footerEntry adds one entry to a footer's id in the cache.
func footerEntry(id *strings.Builder, keys, help string) {
	id.WriteByte(0)
	id.WriteString(keys)
	id.WriteByte(1)
	id.WriteString(help)
}

// footerFor is the footer kept under id, or draws it and keeps it.
func footerFor(id string, draw func() string) string {
	line, ok := footers.get(id)
	if !ok {
		line = draw()
		footers.put(id, line)
	}
	return line
}

// Footers are drawn for every frame of every session, from a small set of key lists:
// each is measured once and kept (a bounded memo, memo.go).
var footers = &memo[string]{max: 4096}

// newFooterHelp is the help bubble that draws footers.
func newFooterHelp() help.Model {
	h := help.New()
	h.ShortSeparator = " · "
	h.Styles = footerStyles
	return h
}

func footer(width int, bindings []key.Binding) string {
	h := newFooterHelp()
	// The bubble cuts at the width itself, but when even its " …" does not fit it adds
	// the entry anyway and the line overflows; so measure and drop whole entries here.
	more := " " + footerStyles.Ellipsis.Render("…")
	for n := len(bindings); n > 0; n-- {
		line := h.ShortHelpView(bindings[:n])
		if n < len(bindings) {
			line += more
		}
		if lipgloss.Width(line) <= width {
			return Fit(line, width)
		}
	}
	return Fit("", width)
}

// TableBindings are the keys every game screen shares, after the game's own, while the
// game takes keys (not while its text box has focus): the session matches key presses
// with them, and the footer shows them (TableKeys is made from them), so that neither
// has a key the other lacks. They must not take a key a game uses: "L" moves Quadrant's
// token, so the log is on "v".
var TableBindings = struct{ Chat, Log, Table, Leave key.Binding }{
	Chat:  key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "chat")),
	Log:   key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "log")),
	Table: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "table")),
	Leave: key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "leave")),
}

// HelpKey opens the help (TypingHelpKey while a text box has focus, where ? is typed);
// TableKeys are TableBindings as the footer lists them.
var (
	HelpKey       = Key{Keys: "?", Help: "help"}
	TypingHelpKey = Key{Keys: "f1", Help: "help"}
	TableKeys     = keysOf(TableBindings.Chat, TableBindings.Log, TableBindings.Table, TableBindings.Leave)
)

// keysOf is the key help of bindings, as the footer shows it.
func keysOf(bindings ...key.Binding) []Key {
	out := make([]Key, 0, len(bindings))
	for _, b := range bindings {
		out = append(out, Key{Keys: b.Help().Key, Help: b.Help().Desc})
	}
	return out
}

// GameFooter is the footer of a game screen: the help key, the game's keys, then the
// table's keys, on one line, or on two (Footer2) when one would cut them:
// the screen then gives its game area one line less, so that every key shows. While
// the game's text box has focus (typing), every key but esc and f1 goes to the box, so
// only those are offered. Every seat draws it for every frame, and it is nearly always
// kept already: the key bindings are made only to draw a footer that is not (Footer's
// id comes from the same text).
func GameFooter(width int, game []Key, typing bool) []string {
	keys := make([]Key, 0, len(game)+1+len(TableKeys))
	if typing {
		keys = append(append(keys, TypingHelpKey), game...)
	} else {
		keys = append(append(append(keys, HelpKey), game...), TableKeys...)
	}
	var id strings.Builder
	id.WriteString("game/")
	id.WriteString(strconv.Itoa(width))
	for _, k := range keys {
		footerEntry(&id, k.Keys, k.Help)
	}
	return strings.Split(footerFor(id.String(), func() string { return twoLines(width, Bindings(keys)) }), "\n")
}
