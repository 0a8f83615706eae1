package fingertip

import "errors"

// Sentinel errors; Apply wraps them with context a player can read.
var (
	ErrSpectator   = errors.New("fingertip: spectators cannot play")
	ErrNoSeat      = errors.New("fingertip: no such seat")
	ErrUnknown     = errors.New("fingertip: unknown action")
	ErrOver        = errors.New("fingertip: the game is over")
	ErrNotNow      = errors.New("fingertip: not now")
	ErrNotYourTurn = errors.New("fingertip: not your turn")
	ErrActive      = errors.New("fingertip: you gave the clue, you cannot point")
	ErrOut         = errors.New("fingertip: you are out this turn")
	ErrNoCard      = errors.New("fingertip: no such card")
	ErrTaken       = errors.New("fingertip: taken — pick another")
	ErrEmptyClue   = errors.New("fingertip: the clue is empty")
	ErrLongClue    = errors.New("fingertip: the clue is too long")
)
