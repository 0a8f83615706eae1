// Package topfive is the pure engine of Top Five: a Player of Honour secretly ranks five
// topics from most liked to least liked and the Guessers try to guess that order.
package topfive

import (
	_ "embed"

	"time"

	"parlor/rules"
)

// ID is the game id used by the registry, the lobby and the JSON API.
const ID = "topfive"

// TopicsFile is the asset holding the topic deck, one topic per line.
const TopicsFile = "topfive/topics.txt"

// MeaningFile is the asset describing every topic by attributes, for the bots.
const MeaningFile = "topfive/topics.meaning"

// Option keys and values a host can set on a Top Five table.
const (
	OptVariant = "variant" // VariantClassic or VariantDuo
	OptTimer   = "timer"   // ranking time limit, e.g. "90s" or "off"
	OptPace    = "reveal"  // time between two reveal steps, e.g. "2s"

	VariantClassic = "classic" // 3–8 players, one Player of Honour per round
	VariantDuo     = "duo"     // exactly 2 players, both rank by their own taste
)

// ResultsPause is how long the round's scores stay on screen before the next round,
// unless every player says they are ready sooner.
const ResultsPause = 12 * time.Second

// HowToPlay is the plain-words paragraph shown in the lobby and on '?'.
const HowToPlay = "Each round, five topics are dealt and one player is the Player of Honour: " +
	"they secretly rank the topics from 1 (what they like most) to 5 (what they like least). " +
	"Everyone else is a Guesser: give each topic the rank you think the Player of Honour gave it, " +
	"and put your one \"I know this one!\" marker on the guess you are surest of. " +
	"The ranking is then revealed from rank 5 up to rank 1: each right guess scores 1 point, " +
	"and 1 more if your marker is on it; getting all five right earns 1 bonus point. " +
	"The Player of Honour scores as much as the best Guesser. The role moves one seat on each round; " +
	"everyone is Player of Honour twice with 3–4 players, once with 5–8. Most points wins, ties share the win. " +
	"Duo (2 players): both of you rank the topics by your own taste, no marker, and you score " +
	"together 1 point per topic you ranked the same, over 10 rounds (50 is perfect, 15 is good)."

// Spec is the registry entry of Top Five.
var Spec *rules.Spec

// options are the table settings of Top Five.
var options = []rules.Option{
	{Key: OptVariant, Name: "Variant", Help: "classic for 3–8 players; duo for exactly 2, scoring together",
		Choices: []string{VariantClassic, VariantDuo}, Default: VariantClassic},
	{Key: OptTimer, Name: "Ranking time limit", Help: "a Guesser who is late scores 0; a late Player of Honour forfeits the round",
		Choices: []string{"off", "30s", "60s", "90s", "120s", "180s"}, Default: "90s"},
	{Key: OptPace, Name: "Reveal pace", Help: "time between two steps of the reveal",
		Choices: []string{"1s", "2s", "3s"}, Default: "2s"},
}

// players is the allowed player count for a variant.
func players(o rules.Options) (int, int) {
	if o[OptVariant] == VariantDuo {
		return 2, 2
	}
	return 3, 8
}

func init() {
	Spec = &rules.Spec{
		ID:         ID,
		Version:    1,
		Name:       "Top Five",
		MinPlayers: 2,
		MaxPlayers: 8,
		Summary:    "Guess how the Player of Honour ranks five topics, from loved to loathed (3–8, or 2 in duo).",
		HowToPlay:  HowToPlay,
		Rules:      rulesText,
		Options:    options,
		Content:    []string{TopicsFile, MeaningFile},
		Decks:      []rules.Deck{{Kind: "topfive-topics", File: TopicsFile, What: "topics", Min: Hand, Count: rules.Counter(ParseTopics)}},
		Players:    players,
		DecodeView: rules.DecodeViewAs[View],
		New:        func(s rules.Setup) (rules.Game, error) { return New(s) },
		NewBot:     func(b rules.BotSetup) rules.Bot { return NewBot(b) },
	}
	rules.Register(Spec)
}

// rulesText is the complete rules, shared with the docs.
//
//go:embed rules.md
var rulesText string
