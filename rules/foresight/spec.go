package foresight

import (
	_ "embed"

	"parlor/rules"
)

// ID is the game id used by the registry, the lobby and the JSON API.
const ID = "foresight"

// HowToPlay is the game's rules in one plain-words paragraph, for the lobby and '?'.
const HowToPlay = "Everyone starts with 600 points; the first to reach 1200 wins (the highest total wins, ties share). " +
	"Each round shows a question about yourself with 2 to 5 answers. In secret you pick your own answer, " +
	"guess every other player's answer, and may bet 0, 25, 50 or 100 points twice per player: " +
	"column A bets that your guess about them is right, column B bets that they guessed your answer right. " +
	"Each bet wins its amount if it comes true and loses it if not. Your bets together may not be more than your points, " +
	"and each column may hold only one 100. With 0 points you may still bet up to 50 on one single bet. " +
	"Points never drop below 0. If time runs out before you submit, you give no answer and bet nothing, " +
	"so every guess about you is wrong."

var spec = &rules.Spec{
	ID:         ID,
	Version:    1,
	Name:       "Foresight",
	MinPlayers: 2,
	MaxPlayers: 8,
	Summary:    "Answer questions about yourself, predict your friends and bet on how well you know each other.",
	HowToPlay:  HowToPlay,
	Rules:      rulesText,
	Options:    options,
	Content:    []string{QuestionsFile},
	Decks:      []rules.Deck{{Kind: "foresight-questions", File: QuestionsFile, What: "questions", Min: 1, Count: rules.Counter(Parse)}},
	DecodeView: rules.DecodeViewAs[View],
	New: func(s rules.Setup) (rules.Game, error) {
		g, err := New(s)
		if err != nil {
			return nil, err
		}
		return g, nil
	},
	NewBot: func(b rules.BotSetup) rules.Bot { return NewBot(b) },
}

// options are the table settings; kept apart from spec so New can read their defaults.
var options = []rules.Option{
	{Key: "decks", Name: "Question decks", Help: "which built-in questions are in play; adult questions are for grown-up tables (a pack's questions follow Deck and Content instead)",
		Choices: []string{DeckFamily, DeckFamily + "+" + DeckAdult, DeckAdult}, Default: DeckFamily},
	{Key: "timer", Name: "Time to submit", Help: "players who have not submitted by then give no answer and wager nothing",
		Choices: []string{"off", "60s", "90s", "120s", "180s", "300s"}, Default: "120s"},
	{Key: "rounds", Name: "Round limit", Help: "end after this many rounds even if nobody reached 1200",
		Choices: []string{"none", "5", "10", "15", "20", "30"}, Default: "none"},
	{Key: "reveal", Name: "Results time", Help: "how long each round's results stay up (it ends early once everyone is ready)",
		Choices: []string{"15s", "30s", "60s", "90s"}, Default: "30s"},
}

func init() { rules.Register(spec) }

// rulesText is the complete rules, shared with the docs.
//
//go:embed rules.md
var rulesText string
