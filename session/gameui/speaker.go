package gameui

import (
	"errors"
	"fmt"

	"parlor/rules"
)

// Speaker is one seat's game in words, for the linear mode (session/linear): a door
// that only appends lines, for screen readers and braille displays. It is the game's
// presentation like a Screen, built from the same views and building the same actions;
// what happened is said by the view's log (rules.Header.Log), and what to do now by
// Ask and Answer.
type Speaker interface {
	// SetView receives the newest view of this seat, as Screen.SetView does. A question
	// half answered (a ranking chosen topic by topic) is forgotten when the view moves
	// on to a phase or round where it no longer fits.
	SetView(v rules.View)
	// Ask is what the viewer is asked now; the zero Ask when nothing is asked of them.
	Ask() Ask
	// Answer takes the viewer's answer to Ask: a choice (from 1) or, for a question
	// that takes text, the line typed. It returns the action to send, or nil when it
	// asks again (the next step of a question in several steps); an error is said to
	// the player in one line, and the question asked again.
	Answer(choice int, text string) (action any, err error)
	// Board is the board, the cards or the question as text, one sentence a line, for
	// the player's "board" command.
	Board() []string
}

// Narrator is a speaker that says more than the game's log: what a new view shows that
// the log leaves out (who guessed what at a reveal step). The linear mode says Events
// after the log's new lines, after each SetView.
type Narrator interface {
	// Events are the sentences for what the last SetView changed; nil for nothing.
	Events() []string
}

// Ask is one question with its numbered choices, or one that takes a typed line.
type Ask struct {
	// Key tells one question from the next (a phase, a round, a step): the linear mode
	// says a question again only when its Key or its choices change.
	Key string
	// Question says what to do now, in one sentence.
	Question string
	// Choices are said numbered from 1. Empty with Text: the answer is typed.
	Choices []string
	// Text: the answer is a line the player types (a clue, a story); with Choices too,
	// a line that is not a number is taken as text.
	Text bool
}

// Asking reports whether a is a question at all.
func (a Ask) Asking() bool { return a.Question != "" }

// Check says what is wrong with an answer to a, in words for the player: nothing is
// asked, a number out of range, no words where words are wanted. A line of text answers
// a question that takes text; otherwise the answer is the choice.
func (a Ask) Check(choice int, text string) error {
	switch {
	case !a.Asking():
		return errors.New("nothing is asked of you now")
	case a.Text && text != "":
		return nil
	case len(a.Choices) == 0:
		return errors.New("type your answer in words")
	case choice < 1 || choice > len(a.Choices):
		return fmt.Errorf("choose a number from 1 to %d", len(a.Choices))
	}
	return nil
}

// SpeakerFactory makes a game's speaker for a seat (rules.Spectator for a spectator).
type SpeakerFactory func(seat int) Speaker

var speakers = map[string]SpeakerFactory{}

// RegisterSpeaker adds the speaker for a game id; a session/<game> package calls it
// from init, beside Register.
func RegisterSpeaker(gameID string, f SpeakerFactory) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := speakers[gameID]; dup {
		panic("gameui: duplicate speaker for " + gameID)
	}
	speakers[gameID] = f
}

// LookupSpeaker finds the speaker factory for a game id.
func LookupSpeaker(gameID string) (SpeakerFactory, bool) {
	mu.RLock()
	defer mu.RUnlock()
	f, ok := speakers[gameID]
	return f, ok
}
