package lobby

import (
	"time"

	"parlor/rules"

	"fmt"
)

// Errors a caller may branch on; their text is shown to players as it is.
var (
	ErrNoTable     = rules.Sentinel("lobby.no_table", "no table has that code")
	ErrTableClosed = rules.Sentinel("lobby.table_closed", "the table has closed")
	// ErrMoving answers a join of a table that is moving to another node of a cluster
	// (its node stopped or died, and another takes it over): it is there in a moment.
	ErrMoving = rules.Sentinel("lobby.moving", "the table is moving to another server: try again in a moment")
	// ErrUnreachable answers a cluster's call that no server running the table answered
	// while it moved (moveWait): it may have been done or not, which the table shows
	// once the player is back at it.
	ErrUnreachable = rules.Sentinel("lobby.unreachable", "the table could not be reached: whether that was done shows when you are back at it")
	ErrFull        = rules.Sentinel("lobby.full", "the table is full")
	ErrStarted     = rules.Sentinel("lobby.started", "the game has already started: you can watch it instead")
	ErrNotHost     = rules.Sentinel("lobby.not_host", "only the host can do that")
	ErrNoGame      = rules.Sentinel("lobby.no_game", "no game is running at this table")
	ErrSpectator   = rules.Sentinel("lobby.spectator", "spectators cannot play: you can take a seat when this game ends")
	ErrUnknownGame = rules.Sentinel("lobby.unknown_game", "no game has that id")
	ErrSlowDown    = rules.Sentinel("lobby.slow_down", "slow down: too many messages at once")
	ErrBadSeat     = rules.Sentinel("lobby.bad_seat", "no such seat")
	ErrEmptyChat   = rules.Sentinel("lobby.empty_chat", "nothing to send")
	ErrReplaced    = rules.Sentinel("lobby.replaced", "You connected again from somewhere else, so this session was closed.")

	ErrHostLimit   = rules.Sentinel("lobby.host_limit", fmt.Sprintf("you already host %d open tables: close one first", MaxHostedTables))
	ErrCreateLimit = rules.Sentinel("lobby.create_limit", "too many new tables from your address: please wait a minute and try again")
	ErrCodeLimit   = rules.Sentinel("lobby.code_limit", "too many unknown table codes from your address: please wait a few seconds, then check the code")
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

// A door that joins a table for a player who asked for it by code (ssh host join CODE,
// the linear mode's join) tries again every MovingEvery, MovingTries times, while the
// table answers ErrMoving: it takes a lease and a restore to arrive at another node,
// and people who redial after a drop expect their seat, not the lobby and an error. A
// node that takes over a dead node's hundreds of tables brings the last back some
// seconds after the first: a minute leaves a script that redials room to spare.
const (
	MovingEvery = 500 * time.Millisecond
	MovingTries = 120
)
