package lobby

import (
	"time"

	"parlor/rules"
)

// Player is who is connected: their identity and display name.
type Player struct {
	ID    string // SSH key fingerprint ("SHA256:…"); for a guest, a per-connection id
	Name  string // sanitised display name
	Guest bool   // no key: cannot reclaim a seat after disconnecting
	Admin bool   // may use host controls at any table and sees private tables
	Addr  string // the network address (host only) the player connects from, for per-address limits; "" for none
	// MoreTime is the time factor the player's door asks for when they sit down (the
	// linear mode's ×2, see MoreTimeFor); zero for none. Only a door sets it, never a
	// client: giving more time is otherwise the host's.
	MoreTime rules.Factor
}

// Table states.
const (
	StateWaiting  = "waiting"  // seats fill, the host sets options and starts
	StatePlaying  = "playing"  // a game is running
	StateFinished = "finished" // the game is over; the host may start another
)

// SeatInfo is the public state of one seat.
type SeatInfo struct {
	Name  string `json:"name"`
	Bot   bool   `json:"bot,omitempty"`
	Guest bool   `json:"guest,omitempty"`
	Away  bool   `json:"away,omitempty"` // a human whose connection is gone
	Host  bool   `json:"host,omitempty"`
	Team  string `json:"team,omitempty"` // in a team game (or before one), the seat's team: "A", "B"

	AwaySince time.Time `json:"away_since,omitzero"` // when an away player's connection went
	StandIn   bool      `json:"stand_in,omitempty"`  // a bot plays for the away player until they return
	// More is the seat's time factor when it has more time than the table's limits
	// (ExtraTime): 1.5, 2 or 3; zero for none.
	More rules.Factor `json:"more,omitempty"`
}

// TableInfo is the public state of a table: what the lobby list and the table screen show.
type TableInfo struct {
	Code       string         `json:"code"`
	Game       string         `json:"game"`
	GameName   string         `json:"game_name"`
	State      string         `json:"state"`
	Private    bool           `json:"private"`
	Options    rules.Options  `json:"options"`
	Choices    []rules.Option `json:"choices"` // the options the host may set here: the game's and the deck (deck.go)
	Seats      []SeatInfo     `json:"seats"`
	MinPlayers int            `json:"min_players"` // for the current options
	MaxPlayers int            `json:"max_players"`
	Spectators int            `json:"spectators"`
	Result     *rules.Result  `json:"result,omitempty"` // the last finished game
	// GameSeats is each seat's seat in the game (the running or the last one; -1: none),
	// when they differ: after a game, players leave and sit down. Views, a game's names
	// and its marks go by the game's seats.
	GameSeats []int `json:"game_seats,omitempty"`
	// HeldUpBy are the seats of players here whom a game with no clock has waited for
	// over a minute (said in the chat too), until it moves on.
	HeldUpBy []int `json:"held_up_by,omitempty"`
	Round    int   `json:"round,omitempty"` // the game's round, once one has started
	// GameNo is which game of this table the running or last one is, from 1 (0: none
	// yet); it goes on across restarts and moves, so a client that was away can tell a
	// new game from the one it left even when both are in round 1.
	GameNo  int       `json:"game_no,omitempty"`
	Created time.Time `json:"-"`
	// Blocked are the names of the players the host keeps out (moderation.go): in the
	// host's and admins' updates only.
	Blocked []string `json:"blocked,omitempty"`
}

// ChatLine is one chat message.
type ChatLine struct {
	ID   int       `json:"id"` // increasing per table
	At   time.Time `json:"at"` // when it was said, by the wall clock (Lobby.Shown), not game time
	From string    `json:"from"`
	Seat int       `json:"seat"` // -1 for a spectator, -2 for the table itself
	Text string    `json:"text"`
	// To, when not empty, are the only seats a line is for, and NotTo seats it is not
	// for: the table tells the players it waits for so in words for them, and the others
	// in words about them. A member gets only the lines for its seat (-1 watching),
	// without these two.
	To    []int `json:"to,omitempty"`
	NotTo []int `json:"not_to,omitempty"`
	// by is the writer's player id, at the table only: members get lines without it, so
	// no player learns another's key; it lets a member ignore a player (moderation.go).
	by string
}

// Update is what a member receives whenever the table changes: always the whole state it
// may see, so a member that skipped frames is never behind.
type Update struct {
	Table TableInfo
	Seat  int        // the member's seat; rules.Spectator when watching
	Host  bool       // the member holds the host role
	View  rules.View // the member's own game view; nil when no game has started
	Chat  []ChatLine // the last chat lines, oldest first
	// History is every line of the game's log the member may see, in the first update
	// of a game the member gets (rules.Historian): what happened before they came.
	History []string
	// Ignored are the names of the players whose chat the member does not get (Ignore).
	Ignored []string
	// Shared is the same for every member's update of one table state (with the same
	// chat: see audiences): a memo for what sessions draw from the public state
	// (shared.go).
	Shared *Shared
}
