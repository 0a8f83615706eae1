package session

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mtibben/confusables"

	"parlor/playertext"
	"parlor/rules"
)

// Name lengths, counted in terminal columns after sanitising: a wide character (漢, 🙂)
// takes two, so a name never overflows the places sized for it.
const (
	NameMin = 2
	NameMax = 16
)

// ErrBlankName refuses a name that would show as nothing at all.
var ErrBlankName = errors.New("that name would show as blank: use letters, digits or emoji")

// CheckName sanitises a display name and checks its length.
func CheckName(s string) (string, error) {
	clean := playertext.Clean(s)
	name := strings.TrimSpace(playertext.Truncate(clean, 4*NameMax)) // enough to quote
	if playertext.Blank(name) {
		return "", ErrBlankName
	}
	// A name is refused, never cut: the player is told its width, however long it is.
	n := playertext.Width(clean)
	if n < NameMin || n > NameMax {
		quoted := name
		if name != clean {
			quoted += "…"
		}
		return name, fmt.Errorf("a name has %d to %d characters, wide ones such as 漢 counting twice; %q counts %d", NameMin, NameMax, quoted, n)
	}
	if botName(name) {
		return name, ErrBotName
	}
	if strings.ContainsAny(name, markRunes) {
		return name, ErrMarkName
	}
	return name, nil
}

// markRunes are what the lists of seats and players mark players with: the host's ★,
// "← you", a second Ann's "Ann²", "(bot)", "(guest)", "(away 2m)", "(watching)". A name
// holding one would pass for a mark: "cat ★host", "bob (away)".
const markRunes = "★←²³⁴⁵⁶⁷⁸⁹()"

// ErrMarkName refuses a name with a mark's characters in it (markRunes).
var ErrMarkName = errors.New("a name cannot hold ★, ←, small raised digits or ( ): the lists of players use them as marks")

// ErrBotName refuses a name a table's bots go by: a player named "Bot Ada" would pass for
// one in every list of players.
var ErrBotName = errors.New(`names starting with "Bot" are the bots' own: please pick another`)

// botName reports a name that starts with the word "Bot", in any case and with any
// accents ("bot ada", "BÒT"), as the bots' names do ("Bot Ada"), or in letters that look
// like it: Unicode's confusable skeleton (TS 39) of the word in capitals makes a
// Cyrillic "Вот" or a "B0t" "BOT". (In capitals, as the skeleton of a small Cyrillic
// т is a small capital ᴛ, not a t.)
func botName(name string) bool {
	first, _, _ := strings.Cut(rules.Plain(name), " ")
	return confusables.Skeleton(strings.ToUpper(first)) == "BOT"
}

type nameScreen struct {
	input    *lineInput
	renaming bool // changing an existing name from the lobby
}

func newNameScreen(suggested string) *nameScreen {
	n := &nameScreen{input: newLineInput(NameMax * 2)}
	n.input.cols = NameMax
	n.input.set(suggested)
	return n
}

func (n *nameScreen) key(m *Model, k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "enter":
		name, err := CheckName(n.input.value())
		if err != nil {
			m.setStatus(err.Error(), true)
			return nil
		}
		if m.o.Online != nil {
			if err := m.o.Online.Name(name); err != nil {
				m.setStatus(err.Error(), true)
				return nil
			}
		}
		if m.o.SaveName != nil {
			if err := m.o.SaveName(name); err != nil {
				if m.o.Online != nil {
					_ = m.o.Online.Name(m.o.Player.Name) // the name stays what it was
				}
				m.setStatus("could not save your name: "+err.Error(), true)
				return nil
			}
		}
		m.o.Player.Name = name
		m.setStatus("Hello, "+name+"!", false)
		// "join CODE" goes straight to the table, without reading the lobby (every
		// table, and the player's record from the store) for a screen never shown.
		if cmd := m.direct(); m.screen == screenTable {
			return cmd
		}
		m.toLobby() // no direct join, or it failed and the status says why
		return nil
	case "esc":
		if n.renaming {
			m.show(screenLobby)
		}
		return nil
	}
	if !n.input.update(k) && k.Text != "" && playertext.Width(n.input.value()+k.Text) > NameMax {
		m.setStatus(nameTooLong+".", true)
	}
	return nil
}

// nameTooLong begins what the name box says when it keeps a name from growing.
var nameTooLong = fmt.Sprintf("A name has at most %d characters, wide ones such as 漢 counting twice", NameMax)

// paste takes a paste into the name box. The box keeps what fits in its columns, and the
// player is told the rest was left out rather than finding a name cut short.
func (n *nameScreen) paste(m *Model, p tea.PasteMsg) {
	n.input.update(p)
	if n.input.cut {
		m.setStatus(nameTooLong+": the rest of the paste was left out.", true)
	}
}

func (n *nameScreen) render(m *Model, w, h int) []string {
	lines := []string{m.title(w, "parlor · party games over SSH", "")}
	lines = append(lines, "", headStyle.Paint("  Welcome to parlor!"), "")
	if n.renaming {
		lines[2] = headStyle.Paint("  Change your name")
	}
	lines = append(lines,
		"  Pick the name others will see: 2 to 16 characters, wide ones count twice.",
	)
	if m.o.Player.Guest {
		lines = append(lines, dimStyle.Paint("  You are a guest (no SSH key): your name is not remembered and a lost"),
			dimStyle.Paint("  connection cannot take its seat back. Connect with a key to keep both."))
	} else {
		lines = append(lines, dimStyle.Paint("  It is remembered for your SSH key, and you can change it later."))
	}
	lines = append(lines, "", "  Name: "+boxed(n.input.view(NameMax+2, m.plain), NameMax+2), "")
	status := m.statusLines(w, statusMax, "")
	out := blockOf(lines, w, h-1-len(status)) // above the status and the keys
	nk := nameKeys
	bs := []key.Binding{nk.Save, nk.Delete}
	if n.renaming {
		bs = append(bs, nk.Back)
	}
	out = append(out, status...)
	out = append(out, footerLine(w, append(bs, helpInTyped, nk.Quit)...))
	return out
}

// boxed frames a text box w columns wide in brackets: the box's own styles (its cursor)
// would end a reverse-video background after the first character.
func boxed(s string, w int) string {
	return dimStyle.Paint("[") + fit(s, w) + dimStyle.Paint("]")
}
