package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SavePack stores p, replacing the owner's pack of the same name.
func (s *SQLite) SavePack(ctx context.Context, p Pack) error {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: save pack %s: %w", p.Name, err)
	}
	if err := CheckPack(p); err != nil {
		return fmt.Errorf("store: save pack: %w", err)
	}
	_, err := s.db.ExecContext(ctx, `
INSERT INTO packs (owner, name, kind, content, entries, published, created) VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (owner, name) DO UPDATE SET
	kind = excluded.kind, content = excluded.content, entries = excluded.entries,
	published = excluded.published, created = excluded.created`,
		p.Owner, p.Name, p.Kind, p.Content, p.Entries, p.Published, ToMillis(p.Created))
	if err != nil {
		return fmt.Errorf("store: save pack %s: %w", p.Name, err)
	}
	return nil
}

const packColumns = `owner, name, kind, content, entries, published, created`

func scanPack(row interface{ Scan(...any) error }) (Pack, error) {
	var p Pack
	var created int64
	if err := row.Scan(&p.Owner, &p.Name, &p.Kind, &p.Content, &p.Entries, &p.Published, &created); err != nil {
		return Pack{}, err
	}
	p.Created = FromMillis(created)
	if p.Content == nil {
		p.Content = []byte{}
	}
	return p, nil
}

// Pack returns the owner's pack of that name.
func (s *SQLite) Pack(ctx context.Context, owner, name string) (Pack, error) {
	if err := s.ready(); err != nil {
		return Pack{}, fmt.Errorf("store: get pack %s: %w", name, err)
	}
	p, err := scanPack(s.db.QueryRowContext(ctx, `SELECT `+packColumns+` FROM packs WHERE owner = ? AND name = ?`, owner, name))
	if errors.Is(err, sql.ErrNoRows) {
		return Pack{}, fmt.Errorf("store: get pack %s: %w", name, ErrNotFound)
	}
	if err != nil {
		return Pack{}, fmt.Errorf("store: get pack %s: %w", name, err)
	}
	return p, nil
}

// PacksOf lists the owner's packs, by name.
func (s *SQLite) PacksOf(ctx context.Context, owner string) ([]Pack, error) {
	return s.listPacks(ctx, `SELECT `+packColumns+` FROM packs WHERE owner = ? ORDER BY name`, owner)
}

// PublishedPacks lists every published pack, by name, then owner.
func (s *SQLite) PublishedPacks(ctx context.Context) ([]Pack, error) {
	return s.listPacks(ctx, `SELECT `+packColumns+` FROM packs WHERE published ORDER BY name, owner`)
}

func (s *SQLite) listPacks(ctx context.Context, query string, args ...any) ([]Pack, error) {
	if err := s.ready(); err != nil {
		return nil, fmt.Errorf("store: list packs: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: list packs: %w", err)
	}
	defer rows.Close()
	var out []Pack
	for rows.Next() {
		p, err := scanPack(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list packs: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list packs: %w", err)
	}
	return out, nil
}

// SetPublished marks the owner's pack as published or not.
func (s *SQLite) SetPublished(ctx context.Context, owner, name string, published bool) error {
	return s.changePack(ctx, "publish", `UPDATE packs SET published = ? WHERE owner = ? AND name = ?`, published, owner, name)
}

// DeletePack removes the owner's pack.
func (s *SQLite) DeletePack(ctx context.Context, owner, name string) error {
	return s.changePack(ctx, "delete", `DELETE FROM packs WHERE owner = ? AND name = ?`, owner, name)
}

// changePack runs a statement on one pack (its last two arguments are owner and name),
// reporting ErrNotFound when there is no such pack.
func (s *SQLite) changePack(ctx context.Context, verb, query string, args ...any) error {
	name := args[len(args)-1]
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: %s pack %s: %w", verb, name, err)
	}
	res, err := s.db.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("store: %s pack %s: %w", verb, name, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: %s pack %s: %w", verb, name, err)
	}
	if n == 0 {
		return fmt.Errorf("store: %s pack %s: %w", verb, name, ErrNotFound)
	}
	return nil
}
