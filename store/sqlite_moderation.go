package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// AddBan stores b under a new ID (AUTOINCREMENT: a lifted ban's ID is never reused).
func (s *SQLite) AddBan(ctx context.Context, b Ban) (Ban, error) {
	if err := s.ready(); err != nil {
		return Ban{}, fmt.Errorf("store: add ban: %w", err)
	}
	if err := CheckBan(b); err != nil {
		return Ban{}, fmt.Errorf("store: add ban: %w", err)
	}
	b = NormBan(b)
	err := s.db.QueryRowContext(ctx, `INSERT INTO bans (kind, target, reason, by, at, until) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
		b.Kind, b.Target, b.Reason, b.By, ToMillis(b.At), ToMillis(b.Until)).Scan(&b.ID)
	if err != nil {
		return Ban{}, fmt.Errorf("store: add ban: %w", err)
	}
	return b, nil
}

// Bans lists the bans in force at now, by ID.
func (s *SQLite) Bans(ctx context.Context, now time.Time) ([]Ban, error) {
	if err := s.ready(); err != nil {
		return nil, fmt.Errorf("store: list bans: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, kind, target, reason, by, at, until FROM bans WHERE until = 0 OR until > ? ORDER BY id`, now.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("store: list bans: %w", err)
	}
	defer rows.Close()
	var out []Ban
	for rows.Next() {
		var b Ban
		var at, until int64
		if err := rows.Scan(&b.ID, &b.Kind, &b.Target, &b.Reason, &b.By, &at, &until); err != nil {
			return nil, fmt.Errorf("store: list bans: %w", err)
		}
		b.At, b.Until = FromMillis(at), FromMillis(until)
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list bans: %w", err)
	}
	return out, nil
}

// RemoveBan lifts ban id.
func (s *SQLite) RemoveBan(ctx context.Context, id int64) error {
	return s.changeOne(ctx, fmt.Sprintf("remove ban %d", id), `DELETE FROM bans WHERE id = ?`, id)
}

// SetMute mutes a player, replacing any mute they had.
func (s *SQLite) SetMute(ctx context.Context, m Mute) error {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: mute %s: %w", m.Player, err)
	}
	if err := CheckMute(m); err != nil {
		return fmt.Errorf("store: mute: %w", err)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO mutes (player, reason, by, at, until) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (player) DO UPDATE SET reason = excluded.reason, by = excluded.by, at = excluded.at, until = excluded.until`,
		m.Player, m.Reason, m.By, ToMillis(m.At), ToMillis(m.Until))
	if err != nil {
		return fmt.Errorf("store: mute %s: %w", m.Player, err)
	}
	return nil
}

// Mutes lists the mutes in force at now, by player.
func (s *SQLite) Mutes(ctx context.Context, now time.Time) ([]Mute, error) {
	if err := s.ready(); err != nil {
		return nil, fmt.Errorf("store: list mutes: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT player, reason, by, at, until FROM mutes WHERE until = 0 OR until > ? ORDER BY player`, now.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("store: list mutes: %w", err)
	}
	defer rows.Close()
	var out []Mute
	for rows.Next() {
		var m Mute
		var at, until int64
		if err := rows.Scan(&m.Player, &m.Reason, &m.By, &at, &until); err != nil {
			return nil, fmt.Errorf("store: list mutes: %w", err)
		}
		m.At, m.Until = FromMillis(at), FromMillis(until)
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list mutes: %w", err)
	}
	return out, nil
}

// RemoveMute lifts a player's mute.
func (s *SQLite) RemoveMute(ctx context.Context, player string) error {
	return s.changeOne(ctx, "unmute "+player, `DELETE FROM mutes WHERE player = ?`, player)
}

// changeOne runs a statement that must change one row, or reports ErrNotFound.
func (s *SQLite) changeOne(ctx context.Context, what, query string, args ...any) error {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	res, err := s.db.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("store: %s: %w", what, ErrNotFound)
	}
	return nil
}

// AddReport stores a report under a new ID, once for its call.
func (s *SQLite) AddReport(ctx context.Context, r Report) (Report, error) {
	if err := s.ready(); err != nil {
		return Report{}, fmt.Errorf("store: add report: %w", err)
	}
	if err := CheckReport(r); err != nil {
		return Report{}, fmt.Errorf("store: add report: %w", err)
	}
	r = NormReport(r)
	chat, err := json.Marshal(r.Chat)
	if err != nil {
		return Report{}, fmt.Errorf("store: add report: %w", err)
	}
	err = s.db.QueryRowContext(ctx, `INSERT INTO reports (table_code, by_id, by_name, about_id, about_name, reason, chat, at, call)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (call) WHERE call != '' DO NOTHING RETURNING id`,
		r.Table, r.ByID, r.ByName, r.AboutID, r.AboutName, r.Reason, string(chat), ToMillis(r.At), r.Call).Scan(&r.ID)
	if errors.Is(err, sql.ErrNoRows) { // its call filed it already
		had, err := s.reports(ctx, `WHERE call = ? LIMIT 1`, r.Call)
		if err != nil || len(had) == 0 {
			return Report{}, fmt.Errorf("store: add report: the report of call %q: %w", r.Call, err)
		}
		return had[0], ErrFiled
	}
	if err != nil {
		return Report{}, fmt.Errorf("store: add report: %w", err)
	}
	return r, nil
}

// Reports lists reports, newest first.
func (s *SQLite) Reports(ctx context.Context, limit int) ([]Report, error) {
	if err := s.ready(); err != nil {
		return nil, fmt.Errorf("store: list reports: %w", err)
	}
	if limit <= 0 {
		limit = -1
	}
	out, err := s.reports(ctx, `ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: list reports: %w", err)
	}
	return out, nil
}

// reports reads the reports the query's tail (its WHERE, ORDER and LIMIT) selects.
func (s *SQLite) reports(ctx context.Context, tail string, args ...any) ([]Report, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, table_code, by_id, by_name, about_id, about_name, reason, chat, at, call FROM reports `+tail, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Report
	for rows.Next() {
		var r Report
		var chat string
		var at int64
		if err := rows.Scan(&r.ID, &r.Table, &r.ByID, &r.ByName, &r.AboutID, &r.AboutName, &r.Reason, &chat, &at, &r.Call); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(chat), &r.Chat); err != nil {
			return nil, fmt.Errorf("report %d: %w", r.ID, err)
		}
		r.At = FromMillis(at)
		out = append(out, NormReport(r))
	}
	return out, rows.Err()
}

// AddAudit appends to the audit log.
func (s *SQLite) AddAudit(ctx context.Context, e AuditEntry) error {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	if err := CheckAudit(e); err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO audit (at, by, action, target, reason) VALUES (?, ?, ?, ?, ?)`,
		ToMillis(e.At), e.By, e.Action, e.Target, e.Reason)
	if err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	return nil
}

// Audit lists the audit log, newest first.
func (s *SQLite) Audit(ctx context.Context, limit int) ([]AuditEntry, error) {
	if err := s.ready(); err != nil {
		return nil, fmt.Errorf("store: read audit log: %w", err)
	}
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.db.QueryContext(ctx, `SELECT at, by, action, target, reason FROM audit ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: read audit log: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var at int64
		if err := rows.Scan(&at, &e.By, &e.Action, &e.Target, &e.Reason); err != nil {
			return nil, fmt.Errorf("store: read audit log: %w", err)
		}
		e.At = FromMillis(at)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read audit log: %w", err)
	}
	return out, nil
}

// SetIgnore remembers that by ignores about.
func (s *SQLite) SetIgnore(ctx context.Context, by, about, name string) error {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: ignore: %w", err)
	}
	if err := CheckIgnore(by, about); err != nil {
		return fmt.Errorf("store: ignore: %w", err)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO ignores (by, about, name) VALUES (?, ?, ?)
ON CONFLICT (by, about) DO UPDATE SET name = excluded.name`, by, about, name)
	if err != nil {
		return fmt.Errorf("store: ignore: %w", err)
	}
	return nil
}

// Ignores is whom by ignores.
func (s *SQLite) Ignores(ctx context.Context, by string) (map[string]string, error) {
	if err := s.ready(); err != nil {
		return nil, fmt.Errorf("store: ignores: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT about, name FROM ignores WHERE by = ?`, by)
	if err != nil {
		return nil, fmt.Errorf("store: ignores: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var about, name string
		if err := rows.Scan(&about, &name); err != nil {
			return nil, fmt.Errorf("store: ignores: %w", err)
		}
		out[about] = name
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: ignores: %w", err)
	}
	return out, nil
}

// RemoveIgnore forgets that by ignores about.
func (s *SQLite) RemoveIgnore(ctx context.Context, by, about string) error {
	return s.changeOne(ctx, "unignore", `DELETE FROM ignores WHERE by = ? AND about = ?`, by, about)
}
