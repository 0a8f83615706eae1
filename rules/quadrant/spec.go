package quadrant

import (
	_ "embed"

	"time"

	"parlor/rules"
)

// ID is the game id.
const ID = "quadrant"

// Option keys and values.
const (
	OptMode         = "mode"
	OptPlacement    = "placement_time"
	OptVoting       = "voting_time"
	ModeCompetitive = "competitive"
	ModeTeam        = "team"
)

// Player counts and round counts of the two modes.
const (
	CompetitiveMin    = 4
	CompetitiveMax    = 7
	CompetitiveRounds = 3
	TeamMin           = 8
	TeamMax           = 14
	TeamRounds        = 4
)

// ScoringPause is how long the scores of a round stay up before the next round starts
// (unless every player continues sooner).
const ScoringPause = 30 * time.Second

// HowToPlay is the plain-words rules paragraph for the lobby and the '?' screen.
const HowToPlay = "Each round shows numbered words, a reference word in the centre of a plane " +
	"and two criteria, one per axis. You secretly hold one of the numbers: move your token " +
	"so that its place says how much your word " +
	"fits each criterion compared with the reference word — right is more of the horizontal " +
	"criterion, up is more of the vertical one. Lock your token when it is placed (you may " +
	"unlock it again). When everyone is locked, guess which word each other token stands for: " +
	"give each token a number, each number only once (giving a number already used swaps " +
	"the two), and send your votes. The token list always shows each token's exact cell. Every " +
	"right guess scores 1 point for the guesser and 1 for the token's owner; after 3 rounds " +
	"the most points wins. In team mode (8-14 players) the teams take turns: the active team " +
	"plays a round and scores 1 per right vote, then the other team agrees on one shared " +
	"ballot (everyone must approve it; bots only suggest numbers for lines nobody has " +
	"written, and each line shows who wrote it) and scores 2 per right guess; after 4 rounds the " +
	"higher team score wins. The top of the list says your team; • marks a teammate's token."

var timerChoices = []string{"off", "30s", "60s", "90s", "120s", "180s", "300s"}

// Spec is the registry entry of the game.
var Spec = &rules.Spec{
	ID:         ID,
	Version:    1,
	Name:       "Quadrant",
	MinPlayers: CompetitiveMin,
	MaxPlayers: TeamMax,
	Summary:    "Place your secret word on a two-criteria plane; guess everyone else's.",
	HowToPlay:  HowToPlay,
	Rules:      rulesText,
	Options: []rules.Option{
		{Key: OptMode, Name: "Mode", Help: "competitive: 4-7 players, 3 rounds; team: 8-14 players in two teams, 4 rounds",
			Choices: []string{ModeCompetitive, ModeTeam}, Default: ModeCompetitive},
		{Key: OptPlacement, Name: "Placement time limit", Help: "when it runs out, tokens lock where they stand",
			Choices: timerChoices, Default: "180s"},
		{Key: OptVoting, Name: "Voting time limit", Help: "for the votes and the team ballot; missing votes score nothing",
			Choices: timerChoices, Default: "120s"},
	},
	Content: []string{WordsFile, CriteriaFile, WordsMeaningFile, CriteriaMeaningFile},
	Decks: []rules.Deck{
		{Kind: "quadrant-words", File: WordsFile, What: "words", Min: CompetitiveMin + 1, Count: rules.Counter(ParseWords)},
		{Kind: "quadrant-criteria", File: CriteriaFile, What: "criteria", Min: 2, Count: rules.Counter(ParseCriteria)},
	},
	Players:    players,
	Teams:      teams,
	DecodeView: rules.DecodeViewAs[View],
	New:        func(s rules.Setup) (rules.Game, error) { return New(s) },
	NewBot:     func(b rules.BotSetup) rules.Bot { return NewBot(b) },
}

func init() { rules.Register(Spec) }

// players is the allowed player count of a mode.
func players(o rules.Options) (min, max int) {
	if o[OptMode] == ModeTeam {
		return TeamMin, TeamMax
	}
	return CompetitiveMin, CompetitiveMax
}

// teams are the seats' teams in team mode, by the game's own rule (teamOfSeat).
func teams(o rules.Options, n int) []string {
	if o[OptMode] != ModeTeam {
		return nil
	}
	out := make([]string, n)
	for seat := range out {
		out[seat] = teamName(teamOfSeat(seat))
	}
	return out
}

// rulesText is the complete rules, shared with the docs.
//
//go:embed rules.md
var rulesText string
