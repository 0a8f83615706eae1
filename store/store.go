// Package store keeps what outlives a connection: who a player is (by SSH key), the
// games they finished, the log of every open table (TableLog), from which the lobby
// brings tables back after a restart, and the content packs players upload (Packs).
// Everything goes through the Store interface so that the server
// and the lobby never see SQL; the in-memory and SQLite implementations here, and the
// JetStream one of a cluster (store/jetstream), pass the same conformance suite
// (store/storetest), so a test can use any of them.
package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrNotFound is returned when a player is not in the store; a caller branches on it to
// greet a newcomer.
var ErrNotFound = errors.New("store: not found")

// ErrInvalid is returned for input that can never be stored (an empty id or name, a game
// without seats); it is a programming error in the caller, not a user error.
var ErrInvalid = errors.New("store: invalid input")

// ErrClosed is returned by every method once Close has been called.
var ErrClosed = errors.New("store: closed")

// Store is the persistence the server and the lobby need. Implementations are safe for
// concurrent use. Times come back in UTC, kept to the millisecond.
type Store interface {
	// Player returns the player with this key fingerprint, or ErrNotFound.
	Player(ctx context.Context, id string) (Player, error)
	// SavePlayer inserts or updates p. On update the earlier FirstSeen is kept, so a
	// caller may save a freshly built Player (FirstSeen = LastSeen = now) on every login.
	SavePlayer(ctx context.Context, p Player) error
	// RenamePlayer changes a known player's display name, or returns ErrNotFound.
	RenamePlayer(ctx context.Context, id, name string) error
	// SetLinear remembers whether a known player plays in the linear mode (lines for a
	// screen reader, not a full screen), or returns ErrNotFound. SavePlayer keeps it.
	SetLinear(ctx context.Context, id string, on bool) error
	// RecordGame stores one finished game with its seats in seat order.
	RecordGame(ctx context.Context, g FinishedGame) error
	// RecentGames lists the player's finished games, newest first, at most limit of them
	// (limit <= 0 means all). A guest or bot ("" id) has no history.
	RecentGames(ctx context.Context, playerID string, limit int) ([]FinishedGame, error)
	// PlayerStats counts the player's finished and won games; zero for an unknown player.
	PlayerStats(ctx context.Context, playerID string) (Stats, error)
	// TableLog keeps open tables across restarts.
	TableLog
	// Packs keeps the content packs players upload.
	Packs
	// Moderation keeps bans, mutes, reports and the audit log.
	Moderation
	// Browsers keeps the browsers players linked to their key.
	Browsers
	// Close releases the store; later calls return ErrClosed. Closing twice is harmless.
	Close() error
}

// Player is someone who connected with an SSH key.
type Player struct {
	ID        string    // SSH public-key fingerprint, "SHA256:…"
	Name      string    // display name, already sanitised by the caller
	FirstSeen time.Time // first login
	LastSeen  time.Time // latest login
	Linear    bool      // plays in the linear mode (SetLinear); SavePlayer never changes it
}

// FinishedGame is the record of one game that reached its end.
type FinishedGame struct {
	GameID     string    // the rules.Spec ID, e.g. "topfive"
	Table      string    // the table's join code
	FinishedAt time.Time // when the game ended
	Seats      []Seat    // one per seat, in seat order
}

// Seat is how one seat of a finished game did.
type Seat struct {
	PlayerID string // the player's key fingerprint; "" for a bot or a guest
	Name     string // the name shown at the table
	Score    int    // final score
	Winner   bool   // this seat shares the victory
}

// Stats is the one-line profile the lobby shows.
type Stats struct {
	Played int // finished games the player sat in
	Won    int // of those, games the player won
}

// NormTime is the one place that decides how precisely times are kept, so that the
// in-memory store, SQLite and JetStream (which store Unix milliseconds) agree exactly.
// The helpers from here on are exported for implementations outside this package
// (store/jetstream), so that every store keeps and refuses exactly the same things.
func NormTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return time.UnixMilli(t.UnixMilli()).UTC()
}

// ToMillis maps a time to Unix milliseconds, as stores keep it; the zero time maps to 0
// so that "never" survives a round trip as the zero time.
func ToMillis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// FromMillis is the inverse of ToMillis, in UTC.
func FromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// CheckPlayer rejects what no implementation may store.
func CheckPlayer(p Player) error {
	if p.ID == "" {
		return fmt.Errorf("%w: player without id", ErrInvalid)
	}
	if p.Name == "" {
		return fmt.Errorf("%w: player %s without name", ErrInvalid, p.ID)
	}
	return nil
}

// CheckGame rejects what no implementation may store.
func CheckGame(g FinishedGame) error {
	if g.GameID == "" {
		return fmt.Errorf("%w: finished game without game id", ErrInvalid)
	}
	if len(g.Seats) == 0 {
		return fmt.Errorf("%w: finished %s game without seats", ErrInvalid, g.GameID)
	}
	return nil
}

// Earlier picks the earlier of two first-seen times, ignoring a zero one.
func Earlier(a, b time.Time) time.Time {
	switch {
	case a.IsZero():
		return b
	case b.IsZero():
		return a
	case b.Before(a):
		return b
	}
	return a
}
