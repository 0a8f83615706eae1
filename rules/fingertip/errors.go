package fingertip

import "parlor/rules"

// Sentinel errors; Apply wraps them with context a player can read.
var (
	ErrSpectator   = rules.Sentinel("fingertip.spectator", "fingertip: spectators cannot play")
	ErrNoSeat      = rules.Sentinel("fingertip.no_seat", "fingertip: no such seat")
	ErrUnknown     = rules.Sentinel("fingertip.unknown", "fingertip: unknown action")
	ErrOver        = rules.Sentinel("fingertip.over", "fingertip: the game is over")
	ErrNotNow      = rules.Sentinel("fingertip.not_now", "fingertip: not now")
	ErrNotYourTurn = rules.Sentinel("fingertip.not_your_turn", "fingertip: not your turn")
	ErrActive      = rules.Sentinel("fingertip.active", "fingertip: you gave the clue, you cannot point")
	ErrOut         = rules.Sentinel("fingertip.out", "fingertip: you are out this turn")
	ErrNoCard      = rules.Sentinel("fingertip.no_card", "fingertip: no such card")
	ErrTaken       = rules.Sentinel("fingertip.taken", "fingertip: taken — pick another")
	ErrEmptyClue   = rules.Sentinel("fingertip.empty_clue", "fingertip: the clue is empty")
	ErrLongClue    = rules.Sentinel("fingertip.long_clue", "fingertip: the clue is too long")
)
