package session

import (
	"strings"
	"sync"
	"unicode/utf8"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"parlor/playertext"
	"parlor/session/gameui"
)

// lineInput is a one-line text box: bubbles' textinput (cursor, editing keys, wide
// characters) with every change sanitised like any player text, and an optional limit
// in terminal columns. Its cursor does not blink, so an idle screen costs nothing.
//
// The box keeps its text and cursor itself and makes its editor only at the first key
// that may edit it. A textinput.Model is 7.8 KB, and every one of its value-receiver
// methods (Value, Position, Update, and Width inside SetValue) copies all of it onto the
// caller's stack: a name box made and filled at a login grew the session goroutine's
// stack three times over, a tenth of the server's CPU per login. A box whose text is
// only set and shown (a suggested name accepted, a chat box never typed in) now costs
// neither the copy nor the model.
type lineInput struct {
	ed    *textinput.Model // nil until the first key (editor); its CharLimit is limit
	limit int              // characters
	cols  int              // terminal columns; 0: no column limit
	text  string           // what the box holds, always the editor's value once it is made
	pos   int              // the cursor, in characters, likewise the editor's
	cut   bool             // the last update was cut to cols (a paste too wide for the box)
}

// newLineInput is an empty box of at most limit characters. Boxes are made only when a
// player starts typing in one, since a session may never use most of them.
func newLineInput(limit int) *lineInput { return &lineInput{limit: limit} }

// blankInput is an empty, focused box with the session's settings, copied for each new
// editor: textinput.New builds its styles and key map afresh (a few µs and 33
// allocations), and none of that differs between boxes. The copy shares only what the
// box never changes: the key bindings, the styles, and the cursor's blink state, which a
// static cursor (Blink false) never touches.
var blankInput = sync.OnceValue(func() *textinput.Model {
	ti := textinput.New()
	ti.Prompt = ""
	st := textinput.DefaultDarkStyles()
	st.Cursor.Blink = false
	ti.SetStyles(st)
	ti.Focus()
	return &ti
})

// editor is the box's editor, made from the blank one and given the box's text and
// cursor the first time it is needed.
func (in *lineInput) editor() *textinput.Model {
	if in.ed == nil {
		in.ed = new(textinput.Model)
		*in.ed = *blankInput()
		in.ed.CharLimit = in.limit
		in.ed.SetValue(in.text)
		in.ed.SetCursor(in.pos)
	}
	return in.ed
}

// keep takes the editor's text and cursor as the box's. It is never inlined, so that
// the copies its two calls make are on the stack only while it runs: inlined into set,
// they made set's frame 8 KB even for a box without an editor.
//
//go:noinline
func (in *lineInput) keep() { in.text, in.pos = in.ed.Value(), in.ed.Position() }

func (in *lineInput) value() string { return in.text }

// set puts s, sanitised, in the box with the cursor at its end; without an editor, it
// cuts s to the limit as the editor's SetValue would.
func (in *lineInput) set(s string) {
	s = in.clean(s)
	if in.ed != nil {
		in.ed.SetValue(s)
		in.ed.CursorEnd()
		in.keep()
		return
	}
	n := utf8.RuneCountInString(s)
	if in.limit > 0 && n > in.limit {
		s, n = string([]rune(s)[:in.limit]), in.limit
	}
	in.text, in.pos = s, n
}

func (in *lineInput) reset() {
	if in.ed != nil {
		in.ed.Reset()
	}
	in.text, in.pos = "", 0
}

// update edits the text; it reports whether msg changed it or moved the cursor.
func (in *lineInput) update(msg tea.Msg) bool {
	if p, ok := msg.(tea.PasteMsg); ok {
		// Line breaks and tabs become spaces before the box sees them.
		msg = tea.PasteMsg{Content: strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(p.Content)}
	}
	before, pos := in.text, in.pos
	ed := in.editor()
	*ed, _ = ed.Update(msg)
	after := ed.Value()
	if clean := in.clean(after); clean != after {
		ed.SetValue(clean)
		after = clean
	}
	in.cut = false
	if in.cols > 0 {
		// Kept within the columns (a wide character takes two, so 16 columns hold 8 of
		// them): a paste is cut there, a key that would pass them is not taken.
		if v, cursor, cut := gameui.KeepWithin(before, pos, after, in.cols); cut {
			ed.SetValue(v)
			ed.SetCursor(cursor)
			in.cut = true
		}
	}
	in.keep()
	return in.text != before || in.pos != pos
}

// clean sanitises text as the lobby does, keeping spaces where they are (a space typed
// at the end is the start of the next word).
func (in *lineInput) clean(s string) string { return playertext.Typed(s) }

// view shows the text with its cursor, scrolled by columns to keep the cursor within
// width columns (gameui.BoxLine); plain draws the cursor as "_", without styles.
func (in *lineInput) view(width int, plain bool) string {
	return gameui.BoxLine(in.text, in.pos, width, plain)
}
