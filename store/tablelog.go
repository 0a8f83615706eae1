package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// TableLog is the durable part of open tables: one append-only log per table, keyed by
// its join code. The lobby writes what happens at a table (created, seats, options, chat,
// a game started with its seed, every applied action and every state-changing tick with
// its time, game over) and rebuilds the table from it after a restart; the store never
// looks inside an entry. A snapshot entry stands for everything before it, and a closed
// entry removes the table, so storage stays bounded by the open tables.
//
// A clustered backend implements the same methods (an append is a publish to the table's
// subject, a snapshot or close a purge up to it).
type TableLog interface {
	// AppendTables writes entries of any number of tables in one atomic step, in order:
	// either all of them are stored or none (one transaction, so one writer can group
	// the commits of many tables). A seq already stored for that table, or an entry
	// CheckEntry refuses, is ErrInvalid.
	AppendTables(ctx context.Context, entries []TableEntry) error
	// OpenTables lists the codes of the tables that have a log, sorted.
	OpenTables(ctx context.Context) ([]string, error)
	// ReadTable returns a table's log from its newest snapshot on, in seq order; an
	// unknown table has an empty log.
	ReadTable(ctx context.Context, code string) ([]TableEntry, error)
	// MarkAlive records that the server was running at t, so that a restart can tell how
	// long it was down.
	MarkAlive(ctx context.Context, t time.Time) error
	// LastAlive is the latest time given to MarkAlive; zero if never.
	LastAlive(ctx context.Context) (time.Time, error)
}

// EntryKind says what an entry does to its table's log.
type EntryKind int

// Entry kinds.
const (
	// EntryEvent is an ordinary entry, appended.
	EntryEvent EntryKind = iota
	// EntrySnapshot stands for the whole log before it: earlier entries are dropped.
	EntrySnapshot
	// EntryClosed ends the table: its whole log, this entry included, is removed.
	EntryClosed
)

// TableEntry is one entry of a table's log.
type TableEntry struct {
	Table string    // the table's join code
	Seq   int64     // position in the table's log, from 1, increasing
	Kind  EntryKind // what the entry does to the log
	At    time.Time // when it happened
	Data  []byte    // the lobby's record, opaque to the store
}

// CheckEntry rejects a table entry that no implementation may store.
func CheckEntry(e TableEntry) error {
	switch {
	case e.Table == "":
		return fmt.Errorf("%w: table entry without table code", ErrInvalid)
	case e.Seq < 1:
		return fmt.Errorf("%w: table %s entry with seq %d", ErrInvalid, e.Table, e.Seq)
	case e.Kind < EntryEvent || e.Kind > EntryClosed:
		return fmt.Errorf("%w: table %s entry of unknown kind %d", ErrInvalid, e.Table, e.Kind)
	case len(e.Data) > MaxEntryBytes:
		return fmt.Errorf("%w: table %s entry of %d bytes (at most %d)", ErrInvalid, e.Table, len(e.Data), MaxEntryBytes)
	}
	return nil
}

// MaxEntryBytes is the largest entry every implementation stores: a NATS message is at
// most 1 MB by default, with room left here for its headers.
const MaxEntryBytes = 1000 << 10

// ErrConflict is returned when another writer changed what a call meant to change. For
// a table log: another writer (a cluster node that took the table over) appended to the
// table's log since this writer last wrote or read it, so this writer's entries for it
// are refused: a stale owner cannot fork a table. See ConflictError.
var ErrConflict = errors.New("store: changed by another writer at the same time")

// ConflictError is AppendTables' error when the logs of some tables of the call were
// appended to by another writer (it is ErrConflict). Of the call's entries for each such
// table, those up to Stored[table] were stored (0: none) and none after, but for the
// entry Unsure[table] names, if any: sent once without an answer, it may be stored or
// not (another writer's snapshot may have rolled it up). Err is what else went wrong,
// nil when every other table's entries were all stored.
type ConflictError struct {
	Stored map[string]int64
	Unsure map[string]int64
	Err    error
}

// Tables are the tables whose logs another writer appended to, sorted.
func (e *ConflictError) Tables() []string { return slices.Sorted(maps.Keys(e.Stored)) }

func (e *ConflictError) Error() string {
	msg := "store: append table log: another writer appended to the log of " + strings.Join(e.Tables(), ", ")
	if e.Err != nil {
		msg += "; " + e.Err.Error()
	}
	return msg
}

// Unwrap makes a ConflictError ErrConflict, and Err.
func (e *ConflictError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrConflict}
	}
	return []error{ErrConflict, e.Err}
}
