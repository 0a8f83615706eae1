package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// AddBrowser stores b under its ID.
func (s *SQLite) AddBrowser(ctx context.Context, b Browser) error {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: add browser: %w", err)
	}
	if err := CheckBrowser(b); err != nil {
		return fmt.Errorf("store: add browser: %w", err)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO browsers (id, player, player_key, public_key, label, added) VALUES (?, ?, ?, ?, ?, ?)`,
		b.ID, b.Player, b.PlayerKey, b.PublicKey, b.Label, ToMillis(b.Added))
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return fmt.Errorf("store: add browser: %w: id taken", ErrInvalid)
	}
	if err != nil {
		return fmt.Errorf("store: add browser: %w", err)
	}
	return nil
}

// Browser returns the browser with this ID.
func (s *SQLite) Browser(ctx context.Context, id string) (Browser, error) {
	if err := s.ready(); err != nil {
		return Browser{}, fmt.Errorf("store: browser: %w", err)
	}
	b, err := scanBrowser(s.db.QueryRowContext(ctx, `SELECT id, player, player_key, public_key, label, added FROM browsers WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Browser{}, fmt.Errorf("store: browser: %w", ErrNotFound)
	}
	if err != nil {
		return Browser{}, fmt.Errorf("store: browser: %w", err)
	}
	return b, nil
}

func scanBrowser(row interface{ Scan(...any) error }) (Browser, error) {
	var b Browser
	var added int64
	if err := row.Scan(&b.ID, &b.Player, &b.PlayerKey, &b.PublicKey, &b.Label, &added); err != nil {
		return Browser{}, err
	}
	b.Added = FromMillis(added)
	return b, nil
}

// Browsers lists a player's browsers, oldest first.
func (s *SQLite) Browsers(ctx context.Context, player string) ([]Browser, error) {
	if err := s.ready(); err != nil {
		return nil, fmt.Errorf("store: list browsers: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, player, player_key, public_key, label, added FROM browsers WHERE player = ? ORDER BY added, rowid`, player)
	if err != nil {
		return nil, fmt.Errorf("store: list browsers: %w", err)
	}
	defer rows.Close()
	var out []Browser
	for rows.Next() {
		b, err := scanBrowser(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list browsers: %w", err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list browsers: %w", err)
	}
	return out, nil
}

// RemoveBrowser forgets one of the player's browsers.
func (s *SQLite) RemoveBrowser(ctx context.Context, player, id string) error {
	return s.changeOne(ctx, "remove browser", `DELETE FROM browsers WHERE id = ? AND player = ?`, id, player)
}

// AddLinkCode keeps c until it is taken or expires.
func (s *SQLite) AddLinkCode(ctx context.Context, c LinkCode, now time.Time) error {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: add link code: %w", err)
	}
	if err := CheckLinkCode(c); err != nil {
		return fmt.Errorf("store: add link code: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM link_codes WHERE expires <= ?`, ToMillis(now)); err != nil {
		return fmt.Errorf("store: add link code: %w", err)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO link_codes (code, player, player_key, expires) VALUES (?, ?, ?, ?)`,
		c.Code, c.Player, c.PlayerKey, ToMillis(c.Expires))
	if err != nil && strings.Contains(err.Error(), "UNIQUE") {
		return fmt.Errorf("store: add link code: %w: taken", ErrInvalid)
	}
	if err != nil {
		return fmt.Errorf("store: add link code: %w", err)
	}
	return nil
}

// TakeLinkCode gives the code and forgets it, in one statement: two nodes taking the
// same code cannot both have it.
func (s *SQLite) TakeLinkCode(ctx context.Context, code string, now time.Time) (LinkCode, error) {
	if err := s.ready(); err != nil {
		return LinkCode{}, fmt.Errorf("store: take link code: %w", err)
	}
	c := LinkCode{Code: code}
	var expires int64
	err := s.db.QueryRowContext(ctx, `DELETE FROM link_codes WHERE code = ? RETURNING player, player_key, expires`, code).
		Scan(&c.Player, &c.PlayerKey, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return LinkCode{}, fmt.Errorf("store: take link code: %w", ErrNotFound)
	}
	if err != nil {
		return LinkCode{}, fmt.Errorf("store: take link code: %w", err)
	}
	c.Expires = FromMillis(expires)
	if !c.Expires.After(now) {
		return LinkCode{}, fmt.Errorf("store: take link code: %w", ErrNotFound)
	}
	return c, nil
}
