package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// Memory is a Store that lives only as long as the process: for tests, and for running
// without a data directory. It behaves exactly like the SQLite store (same suite).
type Memory struct {
	mu      sync.RWMutex
	closed  bool
	players map[string]Player
	games   []FinishedGame // in recording order; copies, never shared with callers
	packs   map[packKey]Pack
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{players: map[string]Player{}}
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
	if err := checkPlayer(p); err != nil {
		return fmt.Errorf("store: save player: %w", err)
	}
	p.FirstSeen, p.LastSeen = normTime(p.FirstSeen), normTime(p.LastSeen)
	if old, ok := m.players[p.ID]; ok {
		p.FirstSeen = earlier(old.FirstSeen, p.FirstSeen)
	}
	m.players[p.ID] = p
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
	if err := checkGame(g); err != nil {
		return fmt.Errorf("store: record game: %w", err)
	}
	g.FinishedAt = normTime(g.FinishedAt)
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
	m.players, m.games = nil, nil
	return nil
}

// sat and won count a game once even if a player somehow held two seats in it.
func sat(g FinishedGame, id string) bool {
	return slices.ContainsFunc(g.Seats, func(s Seat) bool { return s.PlayerID == id })
}

func won(g FinishedGame, id string) bool {
	return slices.ContainsFunc(g.Seats, func(s Seat) bool { return s.PlayerID == id && s.Winner })
}
