// Package rules is the contract every game engine implements, and the registry of games.
//
// A game is pure and deterministic: all randomness comes from the seed in its Setup,
// time only enters as the now argument, and it does no I/O. The same seed and the same
// sequence of Apply/Tick calls always give the same game.
package rules

import (
	"encoding/json"
	"fmt"
	"time"
)

// Spectator is the seat number of someone who watches: View(Spectator) is the public view.
const Spectator = -1

// Game is one running game. It is owned by one goroutine (the table actor) and needs no locking.
type Game interface {
	// Apply performs one action of seat at time now. The action is a JSON object with a
	// "type" field. A deadline that now has passed acts first, as Tick(now) would: the
	// game keeps its own deadlines, whoever calls it (Preamble does this, and the checks
	// every game shares). On error the state is otherwise unchanged and the error text
	// can be shown to the player as it is.
	Apply(seat int, action json.RawMessage, now time.Time) error
	// Tick moves deadlines forward to now and reports whether anything changed.
	Tick(now time.Time) bool
	// View is what seat may see (Spectator: the public view). It is a fresh value that
	// shares no memory with the game and marshals to JSON.
	View(seat int) View
	// Outcome reports the result once the game is over.
	Outcome() (Result, bool)
}

// View is a seat's view of a game: a game's own struct that embeds Header.
type View interface {
	Head() Header
}

// Header is the part of every view the platform understands, embedded in each game's view
// so that the table screen, the bots and the JSON API can all tell whose turn it is, what
// the viewer may do now, how much time is left and what just happened.
type Header struct {
	Game     string    `json:"game"`              // game id
	Seat     int       `json:"seat"`              // the viewer's seat; -1 for a spectator
	Round    int       `json:"round"`             // 1-based round (or turn) number
	Rounds   int       `json:"rounds,omitempty"`  // total rounds when known in advance
	Phase    string    `json:"phase"`             // the game's own phase name, e.g. "ranking"
	Prompt   string    `json:"prompt"`            // what the viewer may do now, in plain words
	Waiting  []int     `json:"waiting"`           // seats the game is waiting for
	Deadline time.Time `json:"deadline,omitzero"` // the viewer's own deadline in the phase (Pace), else when it times out; zero if untimed
	Scores   []int     `json:"scores"`            // total score per seat
	Log      []string  `json:"log"`               // recent public events (and the viewer's own), newest last
	Sheet    Sheet     `json:"sheet"`             // the score history: a row per round, totals, the last round's breakdown
	Over     bool      `json:"over"`              // the game has ended; see Outcome
}

// Head returns the header itself, so any struct that embeds Header is a View.
func (h Header) Head() Header { return h }

// Result is how a game ended.
type Result struct {
	Scores  []int  `json:"scores"`  // final score per seat (a team's score is given to each member)
	Winners []int  `json:"winners"` // seats that share the victory
	Summary string `json:"summary"` // one line for the table, e.g. "Simon wins with 12 points"
}

// Setup is everything a game needs to start.
type Setup struct {
	Names   []string          // display name per seat; len(Names) is the number of players
	Seed    uint64            // seeds the game's math/rand/v2 source
	Options Options           // values for the game's options, already checked by Spec.CheckOptions
	Content map[string][]byte // the asset files named in Spec.Content, by name
	Now     time.Time         // the start time, for the first deadline
}

// BotSetup is everything a bot needs to start: its seat, its own seed (its choices and
// its temperament), the table's options (among them the common bot skill, see Skill) and
// the game's content files, from which it builds its meaning model. Content may be nil
// (a bot seated before the game starts); a bot then plays legal moves without meaning.
type BotSetup struct {
	Seat    int
	Seed    uint64
	Options Options
	Content map[string][]byte
}

// Bot plays one seat from that seat's view only. It may keep its own memory between calls.
type Bot interface {
	// Act is called with the bot's newest view whenever the table changes and about
	// every half second; it returns an action to apply now, or nil to wait.
	Act(view View, now time.Time) any
}

// Option is a table setting a host chooses before the game starts.
type Option struct {
	Key     string   `json:"key"`     // e.g. "timer"
	Name    string   `json:"name"`    // e.g. "Ranking time limit"
	Help    string   `json:"help"`    // one line
	Choices []string `json:"choices"` // the allowed values, e.g. ["off", "60s", "90s"]
	Default string   `json:"default"` // one of Choices
}

// Options holds chosen option values by key.
type Options map[string]string

// Spec describes a game for the registry: the lobby, the help screens and the JSON API read it.
type Spec struct {
	ID         string `json:"id"`          // e.g. "topfive"
	Name       string `json:"name"`        // e.g. "Top Five"
	MinPlayers int    `json:"min_players"` // over all modes
	MaxPlayers int    `json:"max_players"` // over all modes: the number of seats a table has
	Summary    string `json:"summary"`     // one line for the lobby list
	// RoundWord is what the game calls the steps Header.Round counts, for the title and
	// the lobby: "turn" (Fingertip); "" means "round".
	RoundWord string `json:"round_word,omitempty"`
	HowToPlay string `json:"how_to_play"` // one plain-words paragraph for the lobby and '?'
	// Rules is the game's complete rules in the project's own words: "# " and "## " lines
	// are headings, "- " lines are list items, other lines paragraphs.
	Rules   string   `json:"rules"`
	Options []Option `json:"options"`
	Content []string `json:"-"`               // asset files the game needs, e.g. "topfive/topics.txt"
	Decks   []Deck   `json:"decks,omitempty"` // content files players may replace with packs
	// Version is the engine's version. A table's log records it when a game starts, and
	// a log is replayed after a restart only by the same version: raise it whenever a
	// change makes the same seed and actions give a different game (or refuse an action
	// the old engine took).
	Version int `json:"-"`

	// Players gives the allowed player count for these options (e.g. a mode); nil means
	// MinPlayers..MaxPlayers.
	Players func(o Options) (min, max int) `json:"-"`
	// Teams names the team each seat will play on under these options with this many
	// players ("A", "B"), as the game names them; nil (or a nil func) for no teams. The
	// table shows them before the game starts, so players can pick their seats.
	Teams func(o Options, players int) []string `json:"-"`
	// New starts a game.
	New func(s Setup) (Game, error) `json:"-"`
	// NewBot makes a bot for a seat, seeded for its own choices.
	NewBot func(b BotSetup) Bot `json:"-"`
	// DecodeView turns a view's JSON back into the game's own view type, for a view that
	// crossed the network (a table on another node of a cluster); DecodeViewAs makes one.
	DecodeView func(data []byte) (View, error) `json:"-"`
}

// Round names round n (of rounds, when known): "round 3 of 5", "turn 17".
func (s *Spec) Round(n, rounds int) string {
	word := s.RoundWord
	if word == "" {
		word = "round"
	}
	if rounds > 0 {
		return fmt.Sprintf("%s %d of %d", word, n, rounds)
	}
	return fmt.Sprintf("%s %d", word, n)
}

// PlayerRange is the allowed player count under options o.
func (s *Spec) PlayerRange(o Options) (min, max int) {
	if s.Players != nil {
		return s.Players(o)
	}
	return s.MinPlayers, s.MaxPlayers
}

// Defaults returns every option at its default value.
func (s *Spec) Defaults() Options {
	o := Options{}
	for _, opt := range s.Options {
		o[opt.Key] = opt.Default
	}
	return o
}

// ErrBadOption is returned for an unknown option or a value that is not one of its choices.
var ErrBadOption = Sentinel("rules.bad_option", "bad option")

// CheckOptions returns o with defaults filled in, or an error naming the bad key or value.
func (s *Spec) CheckOptions(o Options) (Options, error) {
	out := s.Defaults()
	for k, v := range o {
		opt, ok := s.option(k)
		if !ok {
			return nil, fmt.Errorf("%w: %s has no option %q", ErrBadOption, s.Name, k)
		}
		if !contains(opt.Choices, v) {
			return nil, fmt.Errorf("%w: %s must be one of %v, not %q", ErrBadOption, opt.Name, opt.Choices, v)
		}
		out[k] = v
	}
	return out, nil
}

func (s *Spec) option(key string) (Option, bool) {
	for _, o := range s.Options {
		if o.Key == key {
			return o, true
		}
	}
	return Option{}, false
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
