package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Memory is a Store that lives only as long as the process: for tests, and for running
// without a data directory. It behaves exactly like the SQLite store (same suite).
type Memory struct {
	mu       sync.RWMutex
	closed   bool
	players  map[string]Player
	games    []FinishedGame // in recording order; copies, never shared with callers
	packs    map[packKey]Pack
	tables   map[string][]TableEntry
	alive    time.Time
	mod      moderation
	browsers []Browser           // in the order added
	links    map[string]LinkCode // by code
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{players: map[string]Player{}, tables: map[string][]TableEntry{}}
}

var _ Store = (*Memory)(nil)

// ready reports a cancelled context or a closed store; callers hold mu.
func (m *Memory) ready(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if m.closed {
		return ErrClosed
	}
	return nil
}

// Player returns the player with this key fingerprint, or ErrNotFound.
func (m *Memory) Player(ctx context.Context, id string) (Player, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return Player{}, fmt.Errorf("store: get player %s: %w", id, err)
	}
	p, ok := m.players[id]
	if !ok {
		return Player{}, fmt.Errorf("store: get player %s: %w", id, ErrNotFound)
	}
	return p, nil
}

// SavePlayer inserts or updates p, keeping the earlier FirstSeen.
func (m *Memory) SavePlayer(ctx context.Context, p Player) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: save player %s: %w", p.ID, err)
	}
	if err := CheckPlayer(p); err != nil {
		return fmt.Errorf("store: save player: %w", err)
	}
	p.FirstSeen, p.LastSeen = NormTime(p.FirstSeen), NormTime(p.LastSeen)
	if old, ok := m.players[p.ID]; ok {
		p.FirstSeen = Earlier(old.FirstSeen, p.FirstSeen)
	}
	p.Linear = m.players[p.ID].Linear
	m.players[p.ID] = p
	return nil
}

// SetLinear remembers whether a known player plays in the linear mode.
func (m *Memory) SetLinear(ctx context.Context, id string, on bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: linear mode of %s: %w", id, err)
	}
	p, ok := m.players[id]
	if !ok {
		return fmt.Errorf("store: linear mode of %s: %w", id, ErrNotFound)
	}
	p.Linear = on
	m.players[id] = p
	return nil
}

// RenamePlayer changes a known player's display name, or returns ErrNotFound.
func (m *Memory) RenamePlayer(ctx context.Context, id, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: rename player %s: %w", id, err)
	}
	if name == "" {
		return fmt.Errorf("store: rename player %s: %w: empty name", id, ErrInvalid)
	}
	p, ok := m.players[id]
	if !ok {
		return fmt.Errorf("store: rename player %s: %w", id, ErrNotFound)
	}
	p.Name = name
	m.players[id] = p
	return nil
}

// RecordGame stores one finished game.
func (m *Memory) RecordGame(ctx context.Context, g FinishedGame) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: record game %s at %s: %w", g.GameID, g.Table, err)
	}
	if err := CheckGame(g); err != nil {
		return fmt.Errorf("store: record game: %w", err)
	}
	g.FinishedAt = NormTime(g.FinishedAt)
	g.Seats = slices.Clone(g.Seats)
	m.games = append(m.games, g)
	return nil
}

// RecentGames lists the player's finished games, newest first.
func (m *Memory) RecentGames(ctx context.Context, playerID string, limit int) ([]FinishedGame, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: recent games of %s: %w", playerID, err)
	}
	var out []FinishedGame
	if playerID == "" {
		return out, nil
	}
	// Walking backwards gives recording order as the tie-break for equal times, the
	// same as SQLite's rowid.
	for i := len(m.games) - 1; i >= 0; i-- {
		g := m.games[i]
		if sat(g, playerID) {
			g.Seats = slices.Clone(g.Seats)
			out = append(out, g)
		}
	}
	slices.SortStableFunc(out, func(a, b FinishedGame) int { return b.FinishedAt.Compare(a.FinishedAt) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// PlayerStats counts the player's finished and won games.
func (m *Memory) PlayerStats(ctx context.Context, playerID string) (Stats, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return Stats{}, fmt.Errorf("store: stats of %s: %w", playerID, err)
	}
	var s Stats
	if playerID == "" {
		return s, nil
	}
	for _, g := range m.games {
		if sat(g, playerID) {
			s.Played++
		}
		if won(g, playerID) {
			s.Won++
		}
	}
	return s, nil
}

// Close empties the store; later calls return ErrClosed.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.players, m.games, m.tables = nil, nil, nil
	return nil
}

// sat and won count a game once even if a player somehow held two seats in it.
func sat(g FinishedGame, id string) bool {
	return slices.ContainsFunc(g.Seats, func(s Seat) bool { return s.PlayerID == id })
}

func won(g FinishedGame, id string) bool {
	return slices.ContainsFunc(g.Seats, func(s Seat) bool { return s.PlayerID == id && s.Winner })
}

// AppendTables writes the entries atomically: they are all checked before any is kept.
func (m *Memory) AppendTables(ctx context.Context, entries []TableEntry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: append table log: %w", err)
	}
	seen := map[string]map[int64]bool{}
	for _, e := range entries {
		if err := CheckEntry(e); err != nil {
			return fmt.Errorf("store: append table log: %w", err)
		}
		if seen[e.Table] == nil {
			seen[e.Table] = map[int64]bool{}
			for _, old := range m.tables[e.Table] {
				seen[e.Table][old.Seq] = true
			}
		}
		if seen[e.Table][e.Seq] {
			return fmt.Errorf("store: append table log: %w: table %s seq %d is already stored", ErrInvalid, e.Table, e.Seq)
		}
		seen[e.Table][e.Seq] = true
	}
	for _, e := range entries {
		e.At, e.Data = NormTime(e.At), slices.Clone(e.Data)
		switch e.Kind {
		case EntryClosed:
			delete(m.tables, e.Table)
		case EntrySnapshot:
			m.tables[e.Table] = slices.DeleteFunc(m.tables[e.Table], func(old TableEntry) bool { return old.Seq < e.Seq })
			fallthrough
		default:
			m.tables[e.Table] = append(m.tables[e.Table], e)
		}
	}
	return nil
}

// OpenTables lists the codes of the tables that have a log, sorted.
func (m *Memory) OpenTables(ctx context.Context) ([]string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: open tables: %w", err)
	}
	codes := make([]string, 0, len(m.tables))
	for code := range m.tables {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	return codes, nil
}

// ReadTable returns a copy of the table's log in seq order.
func (m *Memory) ReadTable(ctx context.Context, code string) ([]TableEntry, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: read table %s: %w", code, err)
	}
	out := make([]TableEntry, 0, len(m.tables[code]))
	for _, e := range m.tables[code] {
		e.Data = slices.Clone(e.Data)
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b TableEntry) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, nil
}

// MarkAlive records that the server was running at t.
func (m *Memory) MarkAlive(ctx context.Context, t time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: mark alive: %w", err)
	}
	m.alive = NormTime(t)
	return nil
}

// LastAlive is the latest time given to MarkAlive.
func (m *Memory) LastAlive(ctx context.Context) (time.Time, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return time.Time{}, fmt.Errorf("store: last alive: %w", err)
	}
	return m.alive, nil
}
