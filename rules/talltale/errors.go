package talltale

import "errors"

// Sentinel errors: Apply wraps them with context a player can read.
var (
	ErrSpectator       = errors.New("talltale: spectators cannot play")
	ErrNoSuchSeat      = errors.New("talltale: no such seat")
	ErrUnknownAction   = errors.New("talltale: unknown action")
	ErrGameOver        = errors.New("talltale: the game is over")
	ErrWrongPhase      = errors.New("talltale: not now")
	ErrNotNarrator     = errors.New("talltale: only the narrator can do that")
	ErrNarratorRaces   = errors.New("talltale: the narrator does not place tokens")
	ErrNotRacing       = errors.New("talltale: you are not in this round's race")
	ErrNotDrawn        = errors.New("talltale: that illustration is not one you drew")
	ErrNoSuchCard      = errors.New("talltale: no such illustration")
	ErrNotInPlay       = errors.New("talltale: that illustration is not on a board in play")
	ErrAlreadyHere     = errors.New("talltale: you already have a token there")
	ErrNoTokensLeft    = errors.New("talltale: you have placed all 3 tokens")
	ErrEmptyStory      = errors.New("talltale: the story is empty")
	ErrStoryTooLong    = errors.New("talltale: the story is too long")
	ErrTooManySentence = errors.New("talltale: a story is one or two sentences")
	ErrForbiddenWord   = errors.New("talltale: forbidden word")
)
