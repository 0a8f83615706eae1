package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Moderation keeps what the operators decide about players: bans of a key or an address
// range, server-wide mutes, the reports players file about each other, and the audit log
// of every moderation action. Timed bans and mutes stop counting once their Until has
// passed: the lists take the time to judge by, so that a test clock works as the wall
// clock does.
type Moderation interface {
	// AddBan stores b under a new ID, never used before in this store, and returns it
	// as stored.
	AddBan(ctx context.Context, b Ban) (Ban, error)
	// Bans lists the bans in force at now (Until zero, or after now), by ID.
	Bans(ctx context.Context, now time.Time) ([]Ban, error)
	// RemoveBan lifts ban id, or returns ErrNotFound.
	RemoveBan(ctx context.Context, id int64) error
	// SetMute mutes m.Player, replacing any mute they had.
	SetMute(ctx context.Context, m Mute) error
	// Mutes lists the mutes in force at now, by player.
	Mutes(ctx context.Context, now time.Time) ([]Mute, error)
	// RemoveMute lifts the player's mute, or returns ErrNotFound.
	RemoveMute(ctx context.Context, player string) error
	// AddReport stores r under a new ID and returns it as stored; a report whose Call
	// is stored already is returned as stored, with ErrFiled.
	AddReport(ctx context.Context, r Report) (Report, error)
	// Reports lists the reports, newest first, at most limit (<= 0: all).
	Reports(ctx context.Context, limit int) ([]Report, error)
	// AddAudit appends an entry to the audit log.
	AddAudit(ctx context.Context, e AuditEntry) error
	// Audit lists the audit log, newest first, at most limit (<= 0: all).
	Audit(ctx context.Context, limit int) ([]AuditEntry, error)
	// SetIgnore remembers that player by ignores player about (their chat does not
	// reach by), under the name about had then; again, it keeps the newer name.
	SetIgnore(ctx context.Context, by, about, name string) error
	// Ignores is whom player by ignores: their ids, each to the name they were ignored
	// under; empty for nobody.
	Ignores(ctx context.Context, by string) (map[string]string, error)
	// RemoveIgnore forgets that by ignores about, or returns ErrNotFound.
	RemoveIgnore(ctx context.Context, by, about string) error
}

// The kinds of ban.
const (
	BanKey  = "key"  // Target is a key fingerprint, "SHA256:…"
	BanAddr = "addr" // Target is an address range in CIDR form, "203.0.113.0/24"
)

// Ban keeps a key or an address range out.
type Ban struct {
	ID     int64     // given by AddBan
	Kind   string    // BanKey or BanAddr
	Target string    // the fingerprint or the CIDR
	Reason string    // told to the banned player
	By     string    // the admin's fingerprint
	At     time.Time // when it was made
	Until  time.Time // when it ends; zero: for good
}

// Mute keeps a player's chat and free text off every table.
type Mute struct {
	Player string // key fingerprint
	Reason string
	By     string
	At     time.Time
	Until  time.Time // zero: for good
}

// Report is one player's complaint about another at a table.
type Report struct {
	ID        int64 // given by AddReport
	Table     string
	ByID      string
	ByName    string
	AboutID   string
	AboutName string
	Reason    string
	Chat      []string // the table's recent chat lines, as the reporter saw them
	At        time.Time
	// Call is the id of the call that filed it when that call may come again (a
	// cluster's session sends a call whose answer did not come again): a report whose
	// Call the store holds already is not stored again. "" for none.
	Call string
}

// ErrFiled answers AddReport for a report whose Call the store holds already: it is not
// stored again, and the report returned is the one stored.
var ErrFiled = errors.New("store: filed already")

// AuditEntry records one moderation action.
type AuditEntry struct {
	At     time.Time
	By     string // the admin's fingerprint (or who filed a report)
	Action string // "ban", "unban", "mute", "unmute", "close", "broadcast", "report"
	Target string
	Reason string
}

// InForce says whether something lasting until until still counts at now.
func InForce(until, now time.Time) bool { return until.IsZero() || until.After(now) }

// CheckBan rejects a ban no implementation may store.
func CheckBan(b Ban) error {
	switch {
	case b.Kind != BanKey && b.Kind != BanAddr:
		return fmt.Errorf("%w: ban of kind %q", ErrInvalid, b.Kind)
	case b.Target == "":
		return fmt.Errorf("%w: ban without target", ErrInvalid)
	}
	return nil
}

// CheckMute rejects a mute no implementation may store.
func CheckMute(m Mute) error {
	if m.Player == "" {
		return fmt.Errorf("%w: mute without player", ErrInvalid)
	}
	return nil
}

// CheckReport rejects a report no implementation may store.
func CheckReport(r Report) error {
	switch {
	case r.Reason == "":
		return fmt.Errorf("%w: report without reason", ErrInvalid)
	case r.ByID == "" || r.AboutID == "":
		return fmt.Errorf("%w: report without its players", ErrInvalid)
	}
	return nil
}

// CheckAudit rejects an audit entry no implementation may store.
func CheckAudit(e AuditEntry) error {
	if e.Action == "" {
		return fmt.Errorf("%w: audit entry without action", ErrInvalid)
	}
	return nil
}

// NormBan, NormMute, NormReport and NormAudit keep times as every store does.
func NormBan(b Ban) Ban { b.At, b.Until = NormTime(b.At), NormTime(b.Until); return b }

// NormMute is NormBan for a mute.
func NormMute(m Mute) Mute { m.At, m.Until = NormTime(m.At), NormTime(m.Until); return m }

// NormReport is NormBan for a report; it also copies the chat lines.
func NormReport(r Report) Report {
	r.At = NormTime(r.At)
	r.Chat = append([]string{}, r.Chat...)
	return r
}

// NormAudit is NormBan for an audit entry.
func NormAudit(e AuditEntry) AuditEntry { e.At = NormTime(e.At); return e }

// CheckIgnore rejects an ignore no implementation may store.
func CheckIgnore(by, about string) error {
	switch {
	case by == "" || about == "":
		return fmt.Errorf("%w: ignore without its players", ErrInvalid)
	case by == about:
		return fmt.Errorf("%w: a player ignoring themselves", ErrInvalid)
	}
	return nil
}
