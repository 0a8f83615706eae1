package session

import (
	"strings"
	"sync"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"parlor/internal/playertext"
	"parlor/session/gameui"
)

// lineInput is a one-line text box: bubbles' textinput (cursor, editing keys, wide
// characters) with every change sanitised like any player text, and an optional limit
// in terminal columns. Its cursor does not blink, so an idle screen costs nothing.
type lineInput struct {
	ti   textinput.Model // its CharLimit caps the characters
	cols int             // terminal columns; 0: no column limit
}

// newLineInput is an empty box of at most limit characters. Boxes are made only when a
// player starts typing in one, since a session may never use most of them.
func newLineInput(limit int) *lineInput {
	ti := blankInput()
	ti.CharLimit = limit
	return &lineInput{ti: ti}
}

// blankInput is an empty, focused box with the session's settings, copied for each new
// box: textinput.New builds its styles and key map afresh (a few µs and 33 allocations,
// a measurable part of every login), and none of that differs between boxes. The copy
// shares only what the box never changes: the key bindings, the styles, and the cursor's
// blink state, which a static cursor (Blink false) never touches.
var blankInput = sync.OnceValue(func() textinput.Model {
	ti := textinput.New()
	ti.Prompt = ""
	st := textinput.DefaultDarkStyles()
	st.Cursor.Blink = false
	ti.SetStyles(st)
	ti.Focus()
	return ti
})

func (in *lineInput) value() string { return in.ti.Value() }
func (in *lineInput) set(s string) {
	in.ti.SetValue(in.clean(s))
	in.ti.CursorEnd()
}
func (in *lineInput) reset() { in.ti.Reset() }

// update edits the text; it reports whether msg changed it or moved the cursor.
func (in *lineInput) update(msg tea.Msg) bool {
	if p, ok := msg.(tea.PasteMsg); ok {
		// Line breaks and tabs become spaces before the box sees them.
		msg = tea.PasteMsg{Content: strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(p.Content)}
	}
	before, pos := in.ti.Value(), in.ti.Position()
	in.ti, _ = in.ti.Update(msg)
	after := in.ti.Value()
	if clean := in.clean(after); clean != after {
		in.ti.SetValue(clean)
		after = clean
	}
	if in.cols > 0 {
		// Kept within the columns (a wide character takes two, so 16 columns hold 8 of
		// them): a paste is cut there, a key that would pass them is not taken.
		if v, cursor, cut := gameui.KeepWithin(before, pos, after, in.cols); cut {
			in.ti.SetValue(v)
			in.ti.SetCursor(cursor)
			after = v
		}
	}
	return after != before || in.ti.Position() != pos
}

// clean sanitises text as the lobby does, keeping spaces where they are (a space typed
// at the end is the start of the next word).
func (in *lineInput) clean(s string) string { return playertext.Typed(s) }

// view shows the text with its cursor, scrolled by columns to keep the cursor within
// width columns (gameui.BoxLine); plain draws the cursor as "_", without styles.
func (in *lineInput) view(width int, plain bool) string {
	return gameui.BoxLine(in.ti.Value(), in.ti.Position(), width, plain)
}
