// Package foresight is the game screen of Foresight: the question, the secret form (own
// answer, then a prediction and two wagers per opponent) with live checks of the wager
// rules, the reveal table of a round and the final results.
package foresight

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parlor/rules"
	fs "parlor/rules/foresight"
	"parlor/session/gameui"
)

func init() {
	gameui.Register("foresight", func(seat int) gameui.Screen { return New(seat) })
}

// Screen is one seat's Foresight screen. It holds the newest view and the player's draft.
type Screen struct {
	seat int
	v    fs.View
	have bool

	round   int    // the round the draft belongs to
	f       form   // the draft submission
	touched bool   // the player has edited the draft this round
	row     int    // selected form row: 0 own answer, i ≥ 1 opponent i-1
	col     int    // selected form column
	msg     string // the answer to the last key, e.g. why enter did not submit
	last    bool   // once over: show the last round's table instead of the standings

	cache    string
	cacheKey gameui.FrameKey
	dirty    bool
}

// New makes the screen for seat (rules.Spectator for a spectator).
func New(seat int) *Screen { return &Screen{seat: seat, dirty: true} }

var _ gameui.Screen = (*Screen)(nil)

// SetView takes the newest view of this seat.
func (s *Screen) SetView(view rules.View) {
	switch v := view.(type) {
	case fs.View:
		s.setView(v)
	case *fs.View:
		if v != nil {
			s.setView(*v)
		}
	}
}

func (s *Screen) setView(v fs.View) {
	s.v, s.have, s.dirty = v, true, true
	if v.Seat >= 0 {
		s.seat = v.Seat
	}
	if v.Round != s.round || len(s.f.opps) != max(len(v.Names)-1, 0) {
		// A new question: a fresh draft (or the one already sent, after a reconnect).
		s.round, s.f, s.touched, s.row, s.col, s.msg = v.Round, newForm(s.seat, len(v.Names)), false, 0, colChoice, ""
	}
	if v.Mine != nil && !s.touched {
		s.f.fromSubmit(*v.Mine)
	}
	if s.row > len(s.f.opps) {
		s.row = 0
	}
}

// Typing is always false: Foresight has no text box.
func (s *Screen) Typing() bool { return false }

// mode is what the viewer does now.
type mode int

const (
	watching mode = iota
	answering
	reading // the reveal, not yet ready
	results // game over
)

func (s *Screen) mode() mode {
	switch {
	case !s.have:
		return watching
	case s.v.Over:
		return results
	case s.seat < 0 || s.seat >= len(s.v.Names):
		return watching
	case s.v.Phase == fs.PhaseAnswering:
		return answering
	case s.v.Phase == fs.PhaseReveal && s.seat < len(s.v.Ready) && !s.v.Ready[s.seat]:
		return reading
	}
	return watching
}

// Update turns a key into a change of the draft or an action.
func (s *Screen) Update(msg tea.Msg) (any, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	s.dirty = true
	key := k.String()
	switch s.mode() {
	case answering:
		return s.formKey(key), nil
	case reading:
		if key == "enter" || key == "space" {
			return fs.Ready{Type: fs.TypeReady}, nil
		}
	case results:
		if key == "tab" || key == "shift+tab" {
			s.last = !s.last && s.v.Reveal != nil
		}
	}
	return nil, nil
}

// formKey edits the draft; enter sends it when it is complete and keeps every wager rule.
func (s *Screen) formKey(key string) any {
	rows := len(s.f.opps) + 1
	switch key {
	case "up", "k":
		s.row = (s.row + rows - 1) % rows
	case "down", "j":
		s.row = (s.row + 1) % rows
	case "left", "shift+tab", "h":
		s.moveCol(-1)
	case "right", "tab", "l":
		s.moveCol(1)
	case "enter":
		return s.send()
	default:
		s.edit(key)
	}
	return nil
}

func (s *Screen) moveCol(dir int) {
	if s.row == 0 {
		s.col = colChoice
		return
	}
	s.col = (s.col + columns + dir) % columns
}

// edit applies a digit, + or - to the selected cell.
func (s *Screen) edit(key string) {
	s.msg = ""
	if s.col == colChoice || s.row == 0 {
		n := int(key[0] - '0')
		if len(key) != 1 || n < 1 || n > 9 {
			return
		}
		if n > len(s.v.Choices) {
			s.msg = fmt.Sprintf("This question has only %d answers.", len(s.v.Choices))
			return
		}
		if s.row == 0 {
			s.f.answer = n
		} else {
			s.f.choice[s.row-1] = n
		}
		s.touched = true
		return
	}
	w := &s.f.a[s.row-1]
	if s.col == colB {
		w = &s.f.b[s.row-1]
	}
	switch key {
	case "0", "backspace", "delete":
		*w = 0
	case "2":
		*w = 25
	case "5":
		*w = 50
	case "1":
		*w = 100
	case "+", "=", "space":
		*w = wagerStep(*w, 1)
	case "-":
		*w = wagerStep(*w, -1)
	default:
		if len(key) == 1 && key[0] >= '3' && key[0] <= '9' {
			// Most likely an answer's number, meant for the prediction beside.
			s.msg = "A wager takes 0, 2 (25), 5 (50), 1 (100), + or -. An answer goes in Prediction."
		}
		return
	}
	s.touched = true
}

// send returns the submission if the form is valid, else says why not.
func (s *Screen) send() any {
	if todo := s.f.todo(s.v.Names); todo != "" {
		s.msg = "Not sent. " + todo + "."
		return nil
	}
	if b := s.f.breaches(s.points()); len(b) > 0 {
		s.msg = "Not sent: a wager breaks the rule marked ✗." // which the line above says
		return nil
	}
	if s.f.same(s.v.Mine) {
		s.msg = "Already sent; change something to send again."
		return nil
	}
	s.msg = "Sent. You may still change it until everyone has submitted."
	s.touched = false
	return s.f.submit()
}

// points is the viewer's current total.
func (s *Screen) points() int {
	if s.seat >= 0 && s.seat < len(s.v.Scores) {
		return s.v.Scores[s.seat]
	}
	return 0
}

// Keys lists the keys that work now. The session's help lists only these, so while the
// form is up they are all of its keys, on every cell: those of the selected cell first,
// each saying what it does there (the answer keys choose the player's own answer on the
// first row and predict an opponent's on the others). They fit one line of a 120-column
// footer, or the game loses its large layout there, and two lines at 80 columns: so the
// wager keys share an entry, as + and - step through the same amounts.
func (s *Screen) Keys() []gameui.Key {
	switch s.mode() {
	case answering:
		k := []gameui.Key{{Keys: "enter", Help: "send"}, {Keys: "↑↓←→", Help: "move"}}
		digits := fmt.Sprintf("1-%d", max(len(s.v.Choices), 1))
		wager := gameui.Key{Keys: "0 2 5 1 + -", Help: "wager 0/25/50/100"}
		switch {
		case s.row == 0:
			return append(k, gameui.Key{Keys: digits, Help: "your answer"}, wager)
		case s.col == colChoice:
			return append(k, gameui.Key{Keys: digits, Help: "predict"}, wager)
		}
		return append(k, wager, gameui.Key{Keys: digits, Help: "predict (←)"})
	case reading:
		return []gameui.Key{{Keys: "enter", Help: "ready for the next question"}}
	case results:
		if s.v.Reveal != nil {
			return []gameui.Key{{Keys: "tab", Help: "final standings / last round"}}
		}
	}
	return nil
}

// MoreKeys says what the footer's shared wager entry cannot: + (or space) and - step the
// selected wager through the amounts, and 0 or backspace clears it. The help lists them.
func (s *Screen) MoreKeys() []gameui.Key {
	if s.mode() != answering {
		return nil
	}
	return []gameui.Key{
		{Keys: "+ - space", Help: "step a wager up or down: 0, 25, 50, 100 (up from 100 is 0)"},
		{Keys: "0 backspace", Help: "no wager"},
	}
}
