// Package gameui is the contract between the player session and one game's screen.
//
// Each game has a package session/<game> that renders that game's view for one seat and
// turns keys into that game's actions. It registers itself from init with Register.
// A game screen never holds game state: it only ever sees its own seat's newest view.
package gameui

import (
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlor/rules"
)

// Frame is what the session gives a game screen to render with.
type Frame struct {
	Width, Height int       // the area the game may use (at least 80×AreaHeight)
	Now           time.Time // for countdowns
	Seat          int       // the viewer's seat; rules.Spectator for a spectator
	Names         []string  // display name per seat
	Away          SeatSet   // seats whose player is away (mark them with AwayMark)
	Plain         bool      // no colour available (TERM=dumb, NO_COLOR): draw so that colour is not needed
	// Memo keeps drawings for every screen of this table state (the update's
	// lobby.Shared), for a screen that draws a part of its area alike for every seat;
	// nil when there is none. Not part of Key: what is drawn never depends on it.
	Memo Memo
}

// Memo keeps what the screens of one table state draw alike: Remember returns what is
// kept under key, or makes it with draw and keeps it (lobby.Shared). What draw returns is
// shared between sessions, so nobody may change it afterwards; draw must not use the memo
// itself (it is locked while draw runs).
type Memo interface {
	Remember(key any, draw func() any) any
}

// AreaHeight is the height of the game area in an 80×24 terminal: the session keeps the
// title, the prompt, a line of events and the key hints around it.
const AreaHeight = 20

// Key is one line of key help, e.g. {"1-5", "give the selected topic a rank"}.
type Key struct {
	Keys string
	Help string
}

// Screen is one seat's screen for one game.
type Screen interface {
	// SetView receives the newest view of this seat: the game's own view type.
	SetView(v rules.View)
	// Update handles a key press (tea.KeyPressMsg) or a paste (tea.PasteMsg). It returns an
	// action struct to send to the table (or nil) and a command (or nil).
	Update(msg tea.Msg) (action any, cmd tea.Cmd)
	// Render draws the game area exactly f.Width wide and at most f.Height tall. The
	// session draws the title bar, the time left, the prompt, the event log and the
	// footer around it.
	Render(f Frame) string
	// Keys lists the keys that work now, for the footer and the help screen.
	Keys() []Key
	// Typing reports that a text box has focus: then every key goes to the game screen,
	// except ctrl+c and esc (esc should leave the text box).
	Typing() bool
}

// Lines is a screen that can draw its area as lines, each exactly f.Width wide and at
// most f.Height of them: what Render joins. A screen drawn at every move of every seat
// (Quadrant's board) keeps the lines that did not change as the very same strings, so
// the session compares them with its last frame's without reading them, where Render's
// one string would be made, split and compared anew.
type Lines interface {
	Lines(f Frame) []string
}

// MoreKeys is a screen with keys its footer leaves out for room, each another way to do
// what a footer key does (the arrows and enter beside the digits that point at a card):
// the help lists them after Keys.
type MoreKeys interface {
	MoreKeys() []Key
}

// Public is a screen that can tell that what it draws now depends on nothing but its
// view and the frame, none of its own state (a spectator's screen, typically). Screens
// at one table with the same view then draw the same, so the session draws it once per
// table state for all of them (lobby.Shared).
type Public interface {
	Public() bool
}

// Factory makes a game screen for a seat (rules.Spectator for a spectator).
type Factory func(seat int) Screen

var (
	mu       sync.RWMutex
	registry = map[string]Factory{}
)

// Register adds the screen for a game id; a session/<game> package calls it from init.
func Register(gameID string, f Factory) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[gameID]; dup {
		panic("gameui: duplicate screen for " + gameID)
	}
	registry[gameID] = f
}

// Lookup finds the screen factory for a game id.
func Lookup(gameID string) (Factory, bool) {
	mu.RLock()
	defer mu.RUnlock()
	f, ok := registry[gameID]
	return f, ok
}

// Remaining formats the time left until deadline, e.g. "0:42"; "" when there is none.
func Remaining(deadline, now time.Time) string {
	if deadline.IsZero() {
		return ""
	}
	d := deadline.Sub(now)
	if d < 0 {
		d = 0
	}
	s := int(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
