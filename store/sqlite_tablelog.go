package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// AppendTables writes the entries in one transaction: a whole batch of tables costs one
// commit (one fsync of the WAL at most), which is what lets one writer serve every table.
func (s *SQLite) AppendTables(ctx context.Context, entries []TableEntry) (err error) {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: append table log: %w", err)
	}
	for _, e := range entries {
		if err := CheckEntry(e); err != nil {
			return fmt.Errorf("store: append table log: %w", err)
		}
	}
	defer func() {
		if err != nil {
			err = fmt.Errorf("store: append table log: %w", err)
		}
	}()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	ins, err := tx.PrepareContext(ctx, `INSERT INTO table_log (table_code, seq, kind, at, data) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, e := range entries {
		switch e.Kind {
		case EntryClosed:
			_, err = tx.ExecContext(ctx, `DELETE FROM table_log WHERE table_code = ?`, e.Table)
		case EntrySnapshot:
			if _, err = tx.ExecContext(ctx, `DELETE FROM table_log WHERE table_code = ? AND seq < ?`, e.Table, e.Seq); err == nil {
				_, err = ins.ExecContext(ctx, e.Table, e.Seq, int(e.Kind), ToMillis(e.At), e.Data)
			}
		default:
			_, err = ins.ExecContext(ctx, e.Table, e.Seq, int(e.Kind), ToMillis(e.At), e.Data)
		}
		if err != nil {
			if strings.Contains(err.Error(), "UNIQUE constraint") {
				return fmt.Errorf("%w: table %s seq %d is already stored", ErrInvalid, e.Table, e.Seq)
			}
			return fmt.Errorf("table %s seq %d: %w", e.Table, e.Seq, err)
		}
	}
	return tx.Commit()
}

// OpenTables lists the codes of the tables that have a log, sorted.
func (s *SQLite) OpenTables(ctx context.Context) ([]string, error) {
	if err := s.ready(); err != nil {
		return nil, fmt.Errorf("store: open tables: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT table_code FROM table_log ORDER BY table_code`)
	if err != nil {
		return nil, fmt.Errorf("store: open tables: %w", err)
	}
	defer rows.Close()
	codes := []string{}
	for rows.Next() {
		var code string
		if err := rows.Scan(&code); err != nil {
			return nil, fmt.Errorf("store: open tables: %w", err)
		}
		codes = append(codes, code)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: open tables: %w", err)
	}
	return codes, nil
}

// ReadTable returns the table's log in seq order.
func (s *SQLite) ReadTable(ctx context.Context, code string) ([]TableEntry, error) {
	if err := s.ready(); err != nil {
		return nil, fmt.Errorf("store: read table %s: %w", code, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, kind, at, data FROM table_log WHERE table_code = ? ORDER BY seq`, code)
	if err != nil {
		return nil, fmt.Errorf("store: read table %s: %w", code, err)
	}
	defer rows.Close()
	out := []TableEntry{}
	for rows.Next() {
		e := TableEntry{Table: code}
		var kind int
		var at int64
		if err := rows.Scan(&e.Seq, &kind, &at, &e.Data); err != nil {
			return nil, fmt.Errorf("store: read table %s: %w", code, err)
		}
		e.Kind, e.At = EntryKind(kind), FromMillis(at)
		if e.Data == nil {
			e.Data = []byte{}
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read table %s: %w", code, err)
	}
	return out, nil
}

// MarkAlive records that the server was running at t.
func (s *SQLite) MarkAlive(ctx context.Context, t time.Time) error {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: mark alive: %w", err)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO server_state (key, value) VALUES ('alive', ?)
ON CONFLICT (key) DO UPDATE SET value = excluded.value`, ToMillis(t))
	if err != nil {
		return fmt.Errorf("store: mark alive: %w", err)
	}
	return nil
}

// LastAlive is the latest time given to MarkAlive.
func (s *SQLite) LastAlive(ctx context.Context) (time.Time, error) {
	if err := s.ready(); err != nil {
		return time.Time{}, fmt.Errorf("store: last alive: %w", err)
	}
	var ms int64
	err := s.db.QueryRowContext(ctx, `SELECT value FROM server_state WHERE key = 'alive'`).Scan(&ms)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("store: last alive: %w", err)
	}
	return FromMillis(ms), nil
}
