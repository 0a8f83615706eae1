package talltale

import "parlor/rules"

// Sentinel errors: Apply wraps them with context a player can read. The errors every
// game shares (a spectator, a seat not at the table, an unknown action, the end of the
// game) are the rules package's.
var (
	ErrWrongPhase      = rules.Sentinel("talltale.wrong_phase", "talltale: not now")
	ErrNotNarrator     = rules.Sentinel("talltale.not_narrator", "talltale: only the narrator can do that")
	ErrNarratorRaces   = rules.Sentinel("talltale.narrator_races", "talltale: the narrator does not place tokens")
	ErrNotRacing       = rules.Sentinel("talltale.not_racing", "talltale: you are not in this round's race")
	ErrNotDrawn        = rules.Sentinel("talltale.not_drawn", "talltale: that illustration is not one you drew")
	ErrNoSuchCard      = rules.Sentinel("talltale.no_such_card", "talltale: no such illustration")
	ErrNotInPlay       = rules.Sentinel("talltale.not_in_play", "talltale: that illustration is not on a board in play")
	ErrAlreadyHere     = rules.Sentinel("talltale.already_here", "talltale: you already have a token there")
	ErrNoTokensLeft    = rules.Sentinel("talltale.no_tokens_left", "talltale: you have placed all 3 tokens")
	ErrEmptyStory      = rules.Sentinel("talltale.empty_story", "talltale: the story is empty")
	ErrStoryTooLong    = rules.Sentinel("talltale.story_too_long", "talltale: the story is too long")
	ErrTooManySentence = rules.Sentinel("talltale.too_many_sentence", "talltale: a story is one or two sentences")
	ErrForbiddenWord   = rules.Sentinel("talltale.forbidden_word", "talltale: forbidden word")
)
