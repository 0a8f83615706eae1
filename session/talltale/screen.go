// Package talltale is the Tall Tale game screen: the narrator's draw, discard and story
// box, the boards in play with a cursor for placing tokens, and the reveal.
package talltale

import (
	"charm.land/bubbles/v2/textarea"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"parlor/rules"
	tt "parlor/rules/talltale"
	"parlor/session/gameui"
)

func init() {
	gameui.Register(tt.ID, func(seat int) gameui.Screen { return New(seat) })
}

// Screen is one seat's Tall Tale screen. It holds only its own seat's newest view and
// what the player is doing with it: the cursor, the story being written.
type Screen struct {
	seat    int
	v       *tt.View
	stage   string         // round and phase of the view, to reset input when they change
	board   int            // index in v.Boards of the board shown
	cell    int            // 0..24, the cursor on that board
	pick    int            // 0..3, the cursor on the narrator's drawn illustrations
	story   textarea.Model // the story being written
	writing bool           // the story box has focus
	warned  string         // the forbidden word the narrator was warned about; enter again sends
	note    string         // why the last key did nothing, e.g. a second token on one illustration
	storyW  int            // the width the story box was last drawn at (storyView)

	// The last frame drawn: Render is called far more often than anything changes.
	cached      string
	cachedFrame gameui.FrameKey
	fresh       bool
}

// New makes the screen of seat (rules.Spectator to watch).
func New(seat int) *Screen { return &Screen{seat: seat, story: newStoryBox()} }

// SetView takes the seat's newest view.
func (s *Screen) SetView(rv rules.View) {
	v, ok := rules.ViewAs[tt.View](rv)
	if !ok {
		return
	}
	stage := fmt.Sprintf("%d/%s", v.Round, v.Phase)
	if stage != s.stage {
		if s.v == nil || s.v.Round != v.Round {
			s.board, s.cell, s.pick = 0, 12, 0
			s.story.Reset()
		}
		s.writing = v.Phase == tt.PhaseStory && v.Narrator == s.seat
		s.warned, s.note = "", ""
		s.stage = stage
	}
	s.v = &v
	s.fresh = false
	if s.board >= len(v.Boards) {
		s.board = 0
	}
}

func (s *Screen) narrating() bool { return s.v != nil && s.v.Narrator == s.seat && s.v.Hand != nil }

func (s *Screen) racing() bool {
	return s.v != nil && s.v.Phase == tt.PhaseRace && slices.Contains(s.v.Racers, s.seat) && len(s.v.MyTokens) < tt.Tokens
}

// Typing reports that the story box has focus.
func (s *Screen) Typing() bool {
	return s.writing && s.v != nil && s.v.Phase == tt.PhaseStory && s.narrating()
}

// Update turns a key or a paste into an action.
func (s *Screen) Update(msg tea.Msg) (any, tea.Cmd) {
	if s.v == nil {
		return nil, nil
	}
	s.fresh = false
	if p, ok := msg.(tea.PasteMsg); ok {
		if s.Typing() {
			s.edit(p)
		}
		return nil, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	key := k.String()
	if s.Typing() {
		return s.storyKey(k), nil
	}
	if s.v.Phase == tt.PhaseDiscard && s.narrating() {
		switch key {
		case "left", "up", "h", "k":
			s.pick = (s.pick + 3) % 4
		case "right", "down", "l", "j", "tab":
			s.pick = (s.pick + 1) % 4
		case "1", "2", "3", "4":
			s.pick = int(key[0] - '1')
		case "enter", "space":
			if s.pick < len(s.v.Hand.Drawn) {
				return tt.Discard{Type: "discard", Card: s.v.Hand.Drawn[s.pick].ID}, nil
			}
		}
		return nil, nil
	}
	if s.v.Phase == tt.PhaseStory && s.narrating() && (key == "enter" || key == "e") {
		s.writing = true
		return nil, nil
	}
	s.note = ""
	s.moveCursor(key)
	if (key == "enter" || key == "space") && s.racing() && s.board < len(s.v.Boards) {
		ill := s.v.Boards[s.board].Illustrations[s.cell]
		if slices.Contains(s.v.MyTokens, ill.ID) {
			// The rules allow a racer one token per illustration (the engine would refuse
			// it): say so, or the key would seem dead.
			s.note = "You already have a token on " + ill.Name + ": choose another illustration."
			return nil, nil
		}
		return tt.Token{Type: "token", Card: ill.ID}, nil
	}
	return nil, nil
}

// moveCursor moves over the grid; going off the left or right edge moves to the
// neighbouring board, so all boards in play are one wide grid.
func (s *Screen) moveCursor(key string) {
	n := len(s.v.Boards)
	if n == 0 {
		return
	}
	row, col := s.cell/5, s.cell%5
	switch key {
	case "up", "k":
		row = (row + 4) % 5
	case "down", "j":
		row = (row + 1) % 5
	case "left", "h":
		if col == 0 {
			s.board, col = (s.board+n-1)%n, 4
		} else {
			col--
		}
	case "right", "l":
		if col == 4 {
			s.board, col = (s.board+1)%n, 0
		} else {
			col++
		}
	case "tab":
		s.board = (s.board + 1) % n
	case "shift+tab":
		s.board = (s.board + n - 1) % n
	}
	s.cell = row*5 + col
}

// Keys lists the keys that work now.
func (s *Screen) Keys() []gameui.Key {
	if s.v == nil {
		return nil
	}
	switch {
	case s.Typing():
		return []gameui.Key{{Keys: "enter", Help: "send the story (“The end!”)"}, {Keys: "esc", Help: "look at the boards"}}
	case s.v.Phase == tt.PhaseDiscard && s.narrating():
		return []gameui.Key{{Keys: "←/→ 1-4", Help: "choose"}, {Keys: "enter", Help: "discard it, keep the other 3"}}
	case s.v.Phase == tt.PhaseStory && s.narrating():
		return []gameui.Key{{Keys: "enter", Help: "back to the story"}, {Keys: "arrows tab", Help: "look at the boards"}}
	case s.racing():
		return []gameui.Key{{Keys: "arrows", Help: "move"}, {Keys: "tab", Help: "next board"}, {Keys: "enter/space", Help: "place a token (final)"}}
	case len(s.v.Boards) > 0 && s.v.Phase != tt.PhaseReveal && s.v.Phase != tt.PhaseOver:
		return []gameui.Key{{Keys: "arrows tab", Help: "look at the boards"}}
	}
	return nil
}
