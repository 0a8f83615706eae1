package lobby

import (
	"errors"
	"fmt"
)

// Errors a caller may branch on; their text is shown to players as it is.
var (
	ErrNoTable     = errors.New("no table has that code")
	ErrTableClosed = errors.New("the table has closed")
	ErrFull        = errors.New("the table is full")
	ErrStarted     = errors.New("the game has already started: you can watch it instead")
	ErrNotHost     = errors.New("only the host can do that")
	ErrNoGame      = errors.New("no game is running at this table")
	ErrSpectator   = errors.New("spectators cannot play: you can take a seat when this game ends")
	ErrUnknownGame = errors.New("no game has that id")
	ErrSlowDown    = errors.New("slow down: too many messages at once")
	ErrBadSeat     = errors.New("no such seat")
	ErrEmptyChat   = errors.New("nothing to send")

	ErrHostLimit   = fmt.Errorf("you already host %d open tables: close one first", MaxHostedTables)
	ErrCreateLimit = errors.New("too many new tables from your address: please wait a minute and try again")
	ErrCodeLimit   = errors.New("too many unknown table codes from your address: please wait a few seconds, then check the code")
)

// toldErr is an error a caller may branch on (errors.Is finds err) told in other words,
// for the one who gets it: a spectator asking for a seat is not told to watch.
type toldErr struct {
	err  error
	text string
}

func (e *toldErr) Error() string { return e.text }
func (e *toldErr) Unwrap() error { return e.err }

func told(err error, format string, args ...any) error {
	return &toldErr{err: err, text: fmt.Sprintf(format, args...)}
}
