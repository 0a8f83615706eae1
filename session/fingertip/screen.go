// Package fingertip is the Fingertip game screen: it draws one seat's view of the 3×3
// square of pictures and turns keys into that seat's clue and pointing actions.
package fingertip

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"parlor/playertext"
	"parlor/rules"
	ft "parlor/rules/fingertip"
	"parlor/session/gameui"
)

func init() {
	gameui.Register(ft.ID, func(seat int) gameui.Screen { return New(seat) })
}

// Screen is one seat's Fingertip screen. Besides the newest view it holds only the
// cursor on the square, the clue being typed and the display mode.
type Screen struct {
	seat     int
	v        ft.View
	have     bool
	cursor   int  // 0-8, for pointing with the arrow keys
	aimed    bool // the arrows have moved the cursor: it shows, and enter points there
	clue     textinput.Model
	typing   bool
	textMode bool         // the player toggled the display: descriptions in colour, pictures in plain
	plain    bool         // the last frame had no colour: descriptions are the default then
	frame    gameui.Frame // the last frame drawn: who is away
	note     string       // a local message, e.g. "Card 4 is taken — pick another"
	turnKey  string       // turn and phase the note and the text box belong to

	cache     string
	cacheKey  gameui.FrameKey
	cacheDirt bool
}

// New makes the screen of a seat (rules.Spectator for a spectator).
func New(seat int) *Screen {
	ti := textinput.New()
	ti.Prompt = ""
	ti.Placeholder = "a word or a sentence"
	// The limit is in columns (edit keeps to it); CharLimit only bounds the box, since a
	// character may take several runes (an accent, an emoji sequence).
	ti.CharLimit = 4 * ft.ClueMax
	st := ti.Styles()
	st.Cursor.Blink = false // the session forwards only keys, so a blinking cursor would freeze
	ti.SetStyles(st)
	return &Screen{seat: seat, clue: ti, cursor: 4, cacheDirt: true}
}

// SetView takes the newest view; a new turn or phase clears the note and the clue box.
func (s *Screen) SetView(view rules.View) {
	v, ok := rules.ViewAs[ft.View](view)
	if !ok {
		return
	}
	s.v, s.have, s.cacheDirt = v, true, true
	key := v.Phase + "/" + strconv.Itoa(v.Round)
	if key == s.turnKey {
		return
	}
	s.turnKey, s.note = key, ""
	// The box waits for enter rather than opening by itself: keys the player pressed as
	// the turn came (a digit to point, v for the log) would be typed into it.
	s.clue.Reset()
	s.clue.Blur()
	s.typing = false
}

// showText reports that cards show their descriptions instead of their pictures: the
// no-colour mode starts with descriptions (for screen readers), and t toggles.
func (s *Screen) showText() bool { return s.textMode != s.plain }

// mayClue reports that this seat is the active player and the clue is awaited.
func (s *Screen) mayClue() bool {
	return s.have && s.v.Phase == ft.PhaseClue && s.v.Active == s.seat && s.seat >= 0
}

// mayPoint reports that this seat is still in the race.
func (s *Screen) mayPoint() bool {
	return s.have && s.v.Phase == ft.PhaseRace && s.v.InRace
}

// Typing reports that the clue box has focus.
func (s *Screen) Typing() bool { return s.typing && s.mayClue() }

// Update turns a key press or a paste into an action.
func (s *Screen) Update(msg tea.Msg) (any, tea.Cmd) {
	s.cacheDirt = true
	switch m := msg.(type) {
	case tea.PasteMsg:
		if s.Typing() {
			return nil, s.edit(m)
		}
	case tea.KeyPressMsg:
		if s.Typing() {
			return s.typeKey(m)
		}
		return s.key(m.String())
	}
	return nil, nil
}

// typeKey handles a key while the clue box has focus.
func (s *Screen) typeKey(m tea.KeyPressMsg) (any, tea.Cmd) {
	switch m.String() {
	case "esc":
		s.typing = false
		s.clue.Blur()
		return nil, nil
	case "enter":
		text, err := ft.CheckClue(playertext.Clean(s.clue.Value()))
		switch {
		case errors.Is(err, ft.ErrLongClue):
			s.note = clueFull // the error's own words are too long for the sidebar
			return nil, nil
		case err != nil:
			s.note = strings.TrimPrefix(err.Error(), "fingertip: ")
			return nil, nil
		}
		s.note = ""
		return ft.Clue{Type: ft.TypeClue, Text: text}, nil
	}
	return nil, s.edit(m)
}

// clueFull is the note for a clue at its limit, short enough for the 11 columns of the
// sidebar at 80 columns.
var clueFull = fmt.Sprintf("At most %d columns: 漢 counts two.", ft.ClueMax)

// edit passes a key or a paste to the clue box and keeps the clue within ClueMax columns,
// as CheckClue counts them (a wide character takes two; the box's CharLimit counts
// characters): text that would pass the limit is not taken, a paste is cut there, and
// the note says why, like the name screen's refused key (session/name.go).
func (s *Screen) edit(msg tea.Msg) tea.Cmd {
	s.note = ""
	before, pos := s.clue.Value(), s.clue.Position()
	var cmd tea.Cmd
	s.clue, cmd = s.clue.Update(msg)
	value, cursor, cut := gameui.KeepWithin(before, pos, s.clue.Value(), ft.ClueMax)
	if !cut {
		return cmd // within the limit, or no wider: deleting is always allowed
	}
	s.clue.SetValue(value)
	s.clue.SetCursor(cursor)
	s.note = clueFull
	return cmd
}

// key handles a key outside the clue box.
func (s *Screen) key(k string) (any, tea.Cmd) {
	switch k {
	case "t":
		s.textMode = !s.textMode
		return nil, nil
	case "enter", "c", "i":
		if s.mayClue() {
			s.typing = true
			return nil, s.clue.Focus()
		}
	}
	if !s.mayPoint() {
		return nil, nil
	}
	switch k {
	case "up", "k":
		s.cursor, s.aimed = (s.cursor+6)%9, true
	case "down", "j":
		s.cursor, s.aimed = (s.cursor+3)%9, true
	case "left", "h":
		s.cursor, s.aimed = s.cursor/3*3+(s.cursor+2)%3, true
	case "right", "l":
		s.cursor, s.aimed = s.cursor/3*3+(s.cursor+1)%3, true
	case "enter", "space":
		if !s.aimed {
			// The cursor shows once the arrows move it: a newcomer who presses the
			// digits never sees a marked card they did not choose, nor points at it.
			s.note = "Press 1-9, or aim with the arrows first."
			return nil, nil
		}
		return s.point(s.cursor + 1), nil
	default:
		if len(k) == 1 && k[0] >= '1' && k[0] <= '9' {
			s.cursor = int(k[0] - '1')
			return s.point(int(k[0] - '0')), nil
		}
	}
	return nil, nil
}

// point returns the pointing at position, or nil with a note when the card already
// holds a finger (the engine would refuse it too).
func (s *Screen) point(position int) any {
	if position < 1 || position > len(s.v.Square) {
		return nil
	}
	c := s.v.Square[position-1]
	if c.Finger >= 0 {
		s.note = "Card " + strconv.Itoa(position) + ": taken — pick another."
		return nil
	}
	s.note = ""
	return ft.Point{Type: ft.TypePoint, Position: position}
}

// Keys lists the keys that work now.
func (s *Screen) Keys() []gameui.Key {
	mode := gameui.Key{Keys: "t", Help: "descriptions"}
	if s.showText() {
		mode.Help = "pictures"
	}
	switch {
	case s.Typing():
		return []gameui.Key{{Keys: "enter", Help: "send the clue"}, {Keys: "esc", Help: "leave the clue box"}}
	case s.mayClue():
		return []gameui.Key{{Keys: "enter", Help: "write the clue"}, mode}
	case s.mayPoint():
		return []gameui.Key{{Keys: "1-9", Help: "point"}, mode}
	}
	return []gameui.Key{mode}
}

// MoreKeys is the other way to point, with the arrows and enter, which the help lists:
// the footer leaves it out to keep to one line at 80 columns, so that the game area has
// the two lines a long clue takes above the square.
func (s *Screen) MoreKeys() []gameui.Key {
	if !s.Typing() && s.mayPoint() {
		return []gameui.Key{{Keys: "arrows+enter", Help: "point"}}
	}
	return nil
}
