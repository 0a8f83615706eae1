package rules

import (
	"encoding/json"
	"strings"
	"time"
)

// StandIns is a game that words a seat's own log lines ("You voted: …") for a bot that
// plays the seat while its player is away or idle ("A bot for you voted: …"), so that the
// player, back at the table, does not read the bot's moves as their own. A game whose
// log has no lines of a seat's own need not implement it.
type StandIns interface {
	// ApplyStandIn is Apply for an action a bot chose for seat's absent player.
	ApplyStandIn(seat int, action json.RawMessage, now time.Time) error
}

// ApplyBy applies seat's action to g: as a stand-in's when standIn, if g words those
// apart (StandIns), else as the player's own.
func ApplyBy(g Game, seat int, action json.RawMessage, now time.Time, standIn bool) error {
	if s, ok := g.(StandIns); ok && standIn {
		return s.ApplyStandIn(seat, action, now)
	}
	return g.Apply(seat, action, now)
}

// StandInFlag is what a game that implements StandIns keeps: whether the action being
// applied is a stand-in's. Its ApplyStandIn is During(its Apply), and its log words a
// seat's own lines with Own.
type StandInFlag struct{ on bool }

// During runs apply, the game's Apply of a stand-in's action, with the flag on.
func (f *StandInFlag) During(apply func() error) error {
	f.on = true
	defer func() { f.on = false }()
	return apply()
}

// On reports whether the action being applied is a stand-in's.
func (f *StandInFlag) On() bool { return f.on }

// Own is a log line for seat (−1: a public line), worded for the bot when it is the seat's
// own line about a stand-in's action (StandInLine).
func (f *StandInFlag) Own(seat int, text string) string {
	if f.on && seat >= 0 {
		return StandInLine(text)
	}
	return text
}

// StandInLine words a seat's own log line for a bot playing for it: "You voted: 3" is
// "A bot for you voted: 3".
func StandInLine(text string) string {
	if rest, ok := strings.CutPrefix(text, "You "); ok {
		return "A bot for you " + rest
	}
	return "A bot for you: " + text
}
