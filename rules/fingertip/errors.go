package fingertip

import "parlor/rules"

// Sentinel errors; Apply wraps them with context a player can read. The errors every
// game shares (a spectator, a seat not at the table, an unknown action, the end of the
// game) are the rules package's.
var (
	ErrNotNow      = rules.Sentinel("fingertip.not_now", "fingertip: not now")
	ErrNotYourTurn = rules.Sentinel("fingertip.not_your_turn", "fingertip: not your turn")
	ErrActive      = rules.Sentinel("fingertip.active", "fingertip: you gave the clue, you cannot point")
	ErrOut         = rules.Sentinel("fingertip.out", "fingertip: you are out this turn")
	ErrNoCard      = rules.Sentinel("fingertip.no_card", "fingertip: no such card")
	ErrTaken       = rules.Sentinel("fingertip.taken", "fingertip: taken — pick another")
	ErrEmptyClue   = rules.Sentinel("fingertip.empty_clue", "fingertip: the clue is empty")
	ErrLongClue    = rules.Sentinel("fingertip.long_clue", "fingertip: the clue is too long")
)
