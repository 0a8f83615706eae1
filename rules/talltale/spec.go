// Package talltale is the engine of Tall Tale, a story-telling speed game: the narrator
// secretly keeps three illustrations and tells a short story hinting at them; the others
// race to put their three tokens on the right illustrations of the boards in play.
package talltale

import (
	_ "embed"

	"time"

	"parlor/rules"
)

// ID is the game id.
const ID = "talltale"

// Option keys and values.
const (
	OptMode     = "mode"      // forbidden-word mode
	OptTimer    = "timer"     // narrator time limit
	OptRaceTime = "race_time" // race time limit: then tokens not placed score nothing
	ModeWarn    = "warning"   // the narrator is warned before sending a forbidden word
	ModeStrict  = "strict"    // the penalty applies without warning
)

// Timing of the game.
const (
	ReminderTime = 15 * time.Second // extra time after the narrator is reminded
	RevealTime   = 12 * time.Second // how long the reveal stays before the next round
	TimeoutScore = 2                // each other player's points when the narrator runs out of time
	Penalty      = 2                // the forbidden-word penalty
	Tokens       = 3                // tokens per player
	Kept         = 3                // illustrations the narrator keeps
	Drawn        = 4                // illustrations the narrator draws
)

// HowToPlay is the plain-words rules paragraph for the lobby and the '?' screen.
const HowToPlay = "Each round one player is the narrator. The narrator secretly draws 4 " +
	"illustrations, throws one away and keeps 3; the boards of those colours are in play " +
	"and everyone sees them. The narrator then tells a story of one or two sentences (at " +
	"most 280 characters) that hints at the 3 illustrations without naming them: saying a " +
	"name, a plural or a listed synonym costs 2 points. As soon as the story is sent, " +
	"everyone else races to put their 3 tokens on the illustrations they think the story " +
	"is about, one per illustration; a placed token stays put. On each of the narrator's " +
	"illustrations the first token scores 3, the last 1 and any in between 2 (a lone token " +
	"scores 3). The narrator scores as much as the best player of the round, half of it if " +
	"exactly two players found all three, and nothing if more did. With 3 or 4 players " +
	"everyone narrates twice, with 5 or 6 once; most points wins, and ties play a " +
	"tie-break round. The host may give the narrator a time limit (then the others " +
	"score 2 if no story comes), may time the race (60 s by default: tokens not placed by " +
	"then score nothing) and may choose strict mode, where a forbidden word " +
	"costs the points without any warning."

func init() {
	rules.Register(&rules.Spec{
		ID:         ID,
		Version:    1,
		Name:       "Tall Tale",
		MinPlayers: 3,
		MaxPlayers: 6,
		Summary:    "Tell a two-sentence story about three secret pictures; the others race to find them.",
		HowToPlay:  HowToPlay,
		Rules:      rulesText,
		Options: []rules.Option{
			{Key: OptMode, Name: "Forbidden words", Help: "warning: the narrator is told before sending a forbidden word; strict: no warning, just the penalty", Choices: []string{ModeWarn, ModeStrict}, Default: ModeWarn},
			{Key: OptRaceTime, Name: "Race time limit", Help: "time to place tokens after the story; then tokens not placed score nothing", Choices: []string{"off", "30s", "60s", "90s"}, Default: "60s"},
			{Key: OptTimer, Name: "Narrator time limit", Help: "time to choose and tell, then 15 s more after a reminder; if no story, the others score 2", Choices: []string{"off", "60s", "90s", "120s"}, Default: "off"},
		},
		Content:    []string{ContentFile, MeaningFile},
		Decks:      []rules.Deck{{Kind: "talltale-illustrations", File: ContentFile, What: "illustrations", Min: Kept + 1, Count: rules.Counter(ParseIllustrations)}},
		DecodeView: rules.DecodeViewAs[View],
		New:        func(s rules.Setup) (rules.Game, error) { return New(s) },
		NewBot:     func(b rules.BotSetup) rules.Bot { return NewBot(b) },
	})
}

// rulesText is the complete rules, shared with the docs.
//
//go:embed rules.md
var rulesText string
