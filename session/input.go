package session

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"parlor/lobby"
)

// lineInput is a one-line text box. It does not blink, so an idle screen costs nothing.
type lineInput struct {
	runes []rune
	limit int
}

func (in *lineInput) value() string { return string(in.runes) }
func (in *lineInput) set(s string)  { in.runes = []rune(lobby.CleanText(s, in.limit)) }
func (in *lineInput) reset()        { in.runes = nil }

// update edits the text; it reports whether msg was a text-editing key.
func (in *lineInput) update(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		in.insert(msg.Content)
		return true
	case tea.KeyPressMsg:
		switch msg.String() {
		case "backspace", "ctrl+h":
			if len(in.runes) > 0 {
				in.runes = in.runes[:len(in.runes)-1]
			}
			return true
		case "ctrl+u":
			in.runes = nil
			return true
		case "ctrl+w":
			s := strings.TrimRight(string(in.runes), " ")
			if i := strings.LastIndex(s, " "); i >= 0 {
				in.runes = []rune(s[:i+1])
			} else {
				in.runes = nil
			}
			return true
		}
		if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
			in.insert(msg.Text)
			return true
		}
	}
	return false
}

// insert adds typed or pasted text; control characters and escape sequences are
// dropped, line breaks become spaces, and the box stops at its limit.
func (in *lineInput) insert(s string) {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\t", " ").Replace(s)
	clean := []rune(lobby.CleanText("x"+s+"x", utf8.RuneCountInString(s)+2))
	if len(clean) >= 2 {
		clean = clean[1 : len(clean)-1] // the x's keep CleanText from trimming edge spaces
	} else {
		clean = nil
	}
	for _, r := range clean {
		if len(in.runes) >= in.limit {
			return
		}
		in.runes = append(in.runes, r)
	}
}

// view shows the text with a block cursor, keeping the end visible within width cells.
func (in *lineInput) view(width int, focused bool) string {
	s := string(in.runes)
	for width > 1 && utf8.RuneCountInString(s) >= width {
		_, size := utf8.DecodeRuneInString(s)
		s = s[size:]
	}
	if focused {
		return s + cursorStyle.Render(" ")
	}
	return s
}
