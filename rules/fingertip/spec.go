// Package fingertip is the engine of Fingertip, a picture-clue speed game: the active
// player secretly learns which of nine pictures is the target and gives a clue; the
// others race to point at it. Wrong pointings are collected by the clue-giver when the
// target is found, and discarded with it when nobody finds it.
package fingertip

import (
	_ "embed"

	"time"

	"parlor/rules"
)

// ID is the game id.
const ID = "fingertip"

// ContentFile is the asset holding the 142 pictures.
const ContentFile = "fingertip/pictures.txt"

// MeaningFile is the asset annotating every picture with the words it brings to mind,
// for the bots.
const MeaningFile = "fingertip/pictures.meaning"

// Option keys.
const (
	OptClueTime = "clue_time" // time limit for the clue; on expiry the turn passes
	OptRaceTime = "race_time" // time limit for the race after the clue
)

// Player counts and timer defaults.
const (
	MinPlayers      = 3
	MaxPlayers      = 6
	DefaultClueTime = "90s"
	DefaultRaceTime = "60s"
)

// RevealTime is how long the end of a turn (the target revealed, who took what) stays on
// every screen before the square is refilled and the next turn starts.
const RevealTime = 5 * time.Second

// HowToPlay is the plain-words rules paragraph for the lobby and the '?' screen.
const HowToPlay = "Nine pictures lie in a 3×3 square. Each turn one player is active: only they " +
	"see which picture is the target, and they type a clue (a word or a sentence, at most 80 " +
	"characters). As soon as the clue appears, everyone else races to point at the target " +
	"(the cards are numbered 1 to 9). A card can hold one finger only: if someone got there first you " +
	"are told to pick another. A wrong card is answered \"no\" at once and you are out for the " +
	"turn; the right card is answered \"yes\" and the turn ends. The finder takes the target; " +
	"the active player takes every card pointed at wrongly, so a clever, ambiguous clue pays. " +
	"But if nobody finds the target, nobody takes a card: the wrong cards are discarded with the " +
	"target and the active player gives one card back. Taken cards are " +
	"replaced from the draw pile and the next player becomes active. When the square can no " +
	"longer be refilled, whoever holds the most cards wins."

// Spec is the registry entry of the game.
var Spec = &rules.Spec{
	ID:         ID,
	Version:    2, // 2: when nobody finds the target, the wrong cards are discarded, not taken
	Name:       "Fingertip",
	MinPlayers: MinPlayers,
	MaxPlayers: MaxPlayers,
	Summary:    "Give a sly clue for a secret picture; the others race to point at it.",
	RoundWord:  "turn",
	HowToPlay:  HowToPlay,
	Rules:      rulesText,
	Options: []rules.Option{
		{Key: OptClueTime, Name: "Clue time limit", Help: "on expiry the turn passes and nobody scores",
			Choices: []string{"off", "30s", "60s", "90s", "120s"}, Default: DefaultClueTime},
		{Key: OptRaceTime, Name: "Race time limit", Help: "after the clue; on expiry everyone still racing is out",
			Choices: []string{"off", "30s", "60s", "90s", "120s"}, Default: DefaultRaceTime},
	},
	Content:    []string{ContentFile, MeaningFile},
	Decks:      []rules.Deck{{Kind: "fingertip-pictures", File: ContentFile, What: "pictures", Min: 18, Count: CountPictures}},
	DecodeView: rules.DecodeViewAs[View],
	New:        func(s rules.Setup) (rules.Game, error) { return New(s) },
	NewBot:     func(b rules.BotSetup) rules.Bot { return NewBot(b) },
}

func init() { rules.Register(Spec) }

// PileSize is the number of cards in play for n players: with 3, 30 cards are removed;
// with 4, 20; with 5, 10; with 6, all 71 are used.
func PileSize(n int) int {
	return Cards - 10*(6-n)
}

// rulesText is the complete rules, shared with the docs.
//
//go:embed rules.md
var rulesText string
