package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver: no cgo, static binary
)

// SQLite is the Store kept in one SQLite database file.
type SQLite struct {
	db     *sql.DB
	path   string
	closed atomic.Bool
	stop   chan struct{} // ends the checkpointer
	done   chan struct{}
}

var _ Store = (*SQLite)(nil)

// busyTimeout is how long a writer waits for another connection's write lock before
// failing; writes here are tiny, so hitting it means something is badly stuck.
const busyTimeout = 5 * time.Second

// OpenSQLite opens (creating if needed) the database at path and brings its schema up
// to date. The parent directory is created if missing.
func OpenSQLite(path string) (*SQLite, error) {
	if path == "" {
		return nil, fmt.Errorf("store: open sqlite: %w: empty path", ErrInvalid)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", dsn(abs))
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	// WAL lets readers run beside the one writer; a few connections are plenty for a
	// game server, and keeping them open avoids re-running the pragmas per query.
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)

	s := &SQLite{db: db, path: path, stop: make(chan struct{}), done: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.migrate(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	go s.checkpoints()
	return s, nil
}

// checkpointEvery is how often the WAL is copied back into the database file.
const checkpointEvery = 10 * time.Second

// checkpoints keeps the WAL short without making any commit wait: a passive checkpoint
// copies what no reader still needs and never blocks a writer.
func (s *SQLite) checkpoints() {
	defer close(s.done)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			_, _ = s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`) // the next one tries again
			cancel()
		}
	}
}

// dsn builds a file: URI for modernc.org/sqlite. Every connection the pool opens runs
// these pragmas, which is why they live in the DSN rather than in one Exec. _txlock=
// immediate makes each transaction take the write lock at BEGIN, so two writers queue
// on busy_timeout instead of deadlocking on a read-to-write upgrade (SQLITE_BUSY).
func dsn(abs string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	// No checkpoint inside a commit: copying the WAL back into the database (and its
	// fsync) took tens of milliseconds now and then, and every table waits on commits.
	// The checkpointer goroutine does it instead, beside the writers.
	q.Add("_pragma", "wal_autocheckpoint(0)")
	q.Set("_txlock", "immediate")
	// url.URL escapes '?', '#' and '%' in the path, which SQLite decodes again.
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	return u.String()
}

// migrate applies the migrations this database has not run yet, in one transaction so
// a failed step leaves the previous version intact.
func (s *SQLite) migrate(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL) STRICT`); err != nil {
		return fmt.Errorf("migrate: create schema_version: %w", err)
	}
	var version int
	err = tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (0)`); err != nil {
			return fmt.Errorf("migrate: init schema_version: %w", err)
		}
	case err != nil:
		return fmt.Errorf("migrate: read schema_version: %w", err)
	}
	if version > len(migrations) {
		return fmt.Errorf("migrate: database schema version %d is newer than this binary's %d: run a newer parlor", version, len(migrations))
	}
	for v := version; v < len(migrations); v++ {
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("migrate to version %d: %w", v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, len(migrations)); err != nil {
		return fmt.Errorf("migrate: write schema_version: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}

// ready turns use after Close into ErrClosed rather than database/sql's own error, so
// both implementations answer the same.
func (s *SQLite) ready() error {
	if s.closed.Load() {
		return ErrClosed
	}
	return nil
}

// Player returns the player with this key fingerprint, or ErrNotFound.
func (s *SQLite) Player(ctx context.Context, id string) (Player, error) {
	if err := s.ready(); err != nil {
		return Player{}, fmt.Errorf("store: get player %s: %w", id, err)
	}
	var p Player
	var first, last int64
	err := s.db.QueryRowContext(ctx,
		`SELECT id, name, first_seen, last_seen, linear FROM players WHERE id = ?`, id,
	).Scan(&p.ID, &p.Name, &first, &last, &p.Linear)
	if errors.Is(err, sql.ErrNoRows) {
		return Player{}, fmt.Errorf("store: get player %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Player{}, fmt.Errorf("store: get player %s: %w", id, err)
	}
	p.FirstSeen, p.LastSeen = FromMillis(first), FromMillis(last)
	return p, nil
}

// SavePlayer inserts or updates p, keeping the earlier FirstSeen.
func (s *SQLite) SavePlayer(ctx context.Context, p Player) error {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: save player %s: %w", p.ID, err)
	}
	if err := CheckPlayer(p); err != nil {
		return fmt.Errorf("store: save player: %w", err)
	}
	// 0 stands for "unknown": it never replaces a real first_seen, and a real one
	// replaces it (the same rule as Earlier()).
	_, err := s.db.ExecContext(ctx, `
INSERT INTO players (id, name, first_seen, last_seen) VALUES (?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET
	name = excluded.name,
	last_seen = excluded.last_seen,
	first_seen = CASE
		WHEN players.first_seen = 0 THEN excluded.first_seen
		WHEN excluded.first_seen = 0 THEN players.first_seen
		ELSE min(players.first_seen, excluded.first_seen)
	END`,
		p.ID, p.Name, ToMillis(p.FirstSeen), ToMillis(p.LastSeen))
	if err != nil {
		return fmt.Errorf("store: save player %s: %w", p.ID, err)
	}
	return nil
}

// SetLinear remembers whether a known player plays in the linear mode.
func (s *SQLite) SetLinear(ctx context.Context, id string, on bool) error {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: linear mode of %s: %w", id, err)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE players SET linear = ? WHERE id = ?`, on, id)
	if err != nil {
		return fmt.Errorf("store: linear mode of %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: linear mode of %s: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("store: linear mode of %s: %w", id, ErrNotFound)
	}
	return nil
}

// RenamePlayer changes a known player's display name, or returns ErrNotFound.
func (s *SQLite) RenamePlayer(ctx context.Context, id, name string) error {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: rename player %s: %w", id, err)
	}
	if name == "" {
		return fmt.Errorf("store: rename player %s: %w: empty name", id, ErrInvalid)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE players SET name = ? WHERE id = ?`, name, id)
	if err != nil {
		return fmt.Errorf("store: rename player %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: rename player %s: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("store: rename player %s: %w", id, ErrNotFound)
	}
	return nil
}

// RecordGame stores one finished game and its seats atomically.
func (s *SQLite) RecordGame(ctx context.Context, g FinishedGame) (err error) {
	if err := s.ready(); err != nil {
		return fmt.Errorf("store: record game %s at %s: %w", g.GameID, g.Table, err)
	}
	if err := CheckGame(g); err != nil {
		return fmt.Errorf("store: record game: %w", err)
	}
	defer func() {
		if err != nil {
			err = fmt.Errorf("store: record game %s at %s: %w", g.GameID, g.Table, err)
		}
	}()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	res, err := tx.ExecContext(ctx,
		`INSERT INTO games (game, table_code, finished_at) VALUES (?, ?, ?)`,
		g.GameID, g.Table, ToMillis(g.FinishedAt))
	if err != nil {
		return err
	}
	gameID, err := res.LastInsertId()
	if err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx,
		`INSERT INTO game_seats (game_id, seat, player_id, name, score, winner) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for i, seat := range g.Seats {
		if _, err := ins.ExecContext(ctx, gameID, i, seat.PlayerID, seat.Name, seat.Score, seat.Winner); err != nil {
			return fmt.Errorf("seat %d: %w", i, err)
		}
	}
	return tx.Commit()
}

// RecentGames lists the player's finished games, newest first. Games and seats are read
// in one query so the answer is one consistent snapshot.
func (s *SQLite) RecentGames(ctx context.Context, playerID string, limit int) (games []FinishedGame, err error) {
	if err := s.ready(); err != nil {
		return nil, fmt.Errorf("store: recent games of %s: %w", playerID, err)
	}
	if playerID == "" {
		return nil, nil
	}
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := s.db.QueryContext(ctx, `
WITH recent AS (
	SELECT g.id, g.game, g.table_code, g.finished_at
	FROM games g
	WHERE EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.player_id = ?)
	ORDER BY g.finished_at DESC, g.id DESC
	LIMIT ?
)
SELECT r.id, r.game, r.table_code, r.finished_at, s.player_id, s.name, s.score, s.winner
FROM recent r JOIN game_seats s ON s.game_id = r.id
ORDER BY r.finished_at DESC, r.id DESC, s.seat`, playerID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: recent games of %s: %w", playerID, err)
	}
	defer rows.Close()
	lastID := int64(-1)
	for rows.Next() {
		var (
			id       int64
			g        FinishedGame
			finished int64
			seat     Seat
		)
		if err := rows.Scan(&id, &g.GameID, &g.Table, &finished, &seat.PlayerID, &seat.Name, &seat.Score, &seat.Winner); err != nil {
			return nil, fmt.Errorf("store: recent games of %s: %w", playerID, err)
		}
		if id != lastID {
			g.FinishedAt = FromMillis(finished)
			games = append(games, g)
			lastID = id
		}
		last := &games[len(games)-1]
		last.Seats = append(last.Seats, seat)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: recent games of %s: %w", playerID, err)
	}
	return games, nil
}

// PlayerStats counts the player's finished and won games.
func (s *SQLite) PlayerStats(ctx context.Context, playerID string) (Stats, error) {
	if err := s.ready(); err != nil {
		return Stats{}, fmt.Errorf("store: stats of %s: %w", playerID, err)
	}
	var st Stats
	if playerID == "" {
		return st, nil
	}
	// Grouping by game first counts a game once even if the player held two seats.
	err := s.db.QueryRowContext(ctx, `
SELECT count(*), coalesce(sum(won), 0) FROM (
	SELECT max(winner) AS won FROM game_seats WHERE player_id = ? GROUP BY game_id
)`, playerID).Scan(&st.Played, &st.Won)
	if err != nil {
		return Stats{}, fmt.Errorf("store: stats of %s: %w", playerID, err)
	}
	return st, nil
}

// Close checkpoints and closes the database; later calls return ErrClosed.
func (s *SQLite) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	close(s.stop)
	<-s.done
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close sqlite %s: %w", s.path, err)
	}
	return nil
}
