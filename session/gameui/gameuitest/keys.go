// Package gameuitest helps the game screens' tests: it builds the key presses a terminal
// sends, by the names tea.KeyPressMsg.String() gives them.
package gameuitest

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
	"parlor/session/gameui"
)

var named = map[string]rune{
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab,
	"backspace": tea.KeyBackspace, "delete": tea.KeyDelete,
}

// Key is the press of a named key ("enter", "shift+tab", "space") or of one character.
func Key(name string) tea.KeyPressMsg {
	var mod tea.KeyMod
	if rest, ok := strings.CutPrefix(name, "shift+"); ok && len(rest) > 1 {
		mod, name = tea.ModShift, rest
	}
	if name == "space" {
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " ", Mod: mod}
	}
	if code, ok := named[name]; ok {
		return tea.KeyPressMsg{Code: code, Mod: mod}
	}
	return tea.KeyPressMsg{Code: []rune(name)[0], Text: name, Mod: mod}
}

// FooterError checks the footer a game screen gets at width: on one or two lines, none
// wider than width or cut, every key of the game and of the table (the table's only
// when the game is not typing) there whole. It returns what is wrong, or nil.
func FooterError(width int, keys []gameui.Key, typing bool) error {
	lines := gameui.GameFooter(width, keys, typing)
	for i, l := range lines {
		lines[i] = ansi.Strip(l)
	}
	if len(lines) > 2 {
		return fmt.Errorf("footer has %d lines, at most 2: %q", len(lines), lines)
	}
	for _, l := range lines {
		if w := rules.Width(l); w > width {
			return fmt.Errorf("footer line is %d wide, at most %d: %q", w, width, l)
		}
		if strings.Contains(l, "…") {
			return fmt.Errorf("footer cut: %q", lines)
		}
	}
	line := strings.Join(lines, " · ")
	all := keys
	if !typing { // the table's keys too
		all = append(slices.Clone(keys), gameui.TableKeys...)
	}
	for _, k := range all {
		if !strings.Contains(line, k.Keys+" "+k.Help) {
			return fmt.Errorf("footer lacks %q: %q", k.Keys+" "+k.Help, line)
		}
	}
	return nil
}
