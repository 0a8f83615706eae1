package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// moderation is the in-memory store's part for Moderation; Memory's mu guards it.
type moderation struct {
	bans    []Ban
	lastBan int64
	mutes   map[string]Mute
	reports []Report
	audit   []AuditEntry
	ignores map[string]map[string]string // by → about → name
}

// AddBan stores b under the next ID.
func (m *Memory) AddBan(ctx context.Context, b Ban) (Ban, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return Ban{}, fmt.Errorf("store: add ban: %w", err)
	}
	if err := CheckBan(b); err != nil {
		return Ban{}, fmt.Errorf("store: add ban: %w", err)
	}
	m.mod.lastBan++
	b = NormBan(b)
	b.ID = m.mod.lastBan
	m.mod.bans = append(m.mod.bans, b)
	return b, nil
}

// Bans lists the bans in force at now, by ID.
func (m *Memory) Bans(ctx context.Context, now time.Time) ([]Ban, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: list bans: %w", err)
	}
	var out []Ban
	for _, b := range m.mod.bans {
		if InForce(b.Until, now) {
			out = append(out, b)
		}
	}
	return out, nil
}

// RemoveBan lifts ban id.
func (m *Memory) RemoveBan(ctx context.Context, id int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: remove ban %d: %w", id, err)
	}
	i := slices.IndexFunc(m.mod.bans, func(b Ban) bool { return b.ID == id })
	if i < 0 {
		return fmt.Errorf("store: remove ban %d: %w", id, ErrNotFound)
	}
	m.mod.bans = slices.Delete(m.mod.bans, i, i+1)
	return nil
}

// SetMute mutes a player.
func (m *Memory) SetMute(ctx context.Context, mu Mute) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: mute %s: %w", mu.Player, err)
	}
	if err := CheckMute(mu); err != nil {
		return fmt.Errorf("store: mute: %w", err)
	}
	if m.mod.mutes == nil {
		m.mod.mutes = map[string]Mute{}
	}
	m.mod.mutes[mu.Player] = NormMute(mu)
	return nil
}

// Mutes lists the mutes in force at now, by player.
func (m *Memory) Mutes(ctx context.Context, now time.Time) ([]Mute, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: list mutes: %w", err)
	}
	var out []Mute
	for _, mu := range m.mod.mutes {
		if InForce(mu.Until, now) {
			out = append(out, mu)
		}
	}
	slices.SortFunc(out, func(a, b Mute) int { return strings.Compare(a.Player, b.Player) })
	return out, nil
}

// RemoveMute lifts a player's mute.
func (m *Memory) RemoveMute(ctx context.Context, player string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: unmute %s: %w", player, err)
	}
	if _, ok := m.mod.mutes[player]; !ok {
		return fmt.Errorf("store: unmute %s: %w", player, ErrNotFound)
	}
	delete(m.mod.mutes, player)
	return nil
}

// AddReport stores a report under the next ID, once for its call.
func (m *Memory) AddReport(ctx context.Context, r Report) (Report, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return Report{}, fmt.Errorf("store: add report: %w", err)
	}
	if err := CheckReport(r); err != nil {
		return Report{}, fmt.Errorf("store: add report: %w", err)
	}
	r = NormReport(r)
	if r.Call != "" {
		for _, had := range m.mod.reports {
			if had.Call == r.Call {
				return NormReport(had), ErrFiled
			}
		}
	}
	r.ID = int64(len(m.mod.reports) + 1)
	m.mod.reports = append(m.mod.reports, r)
	return NormReport(r), nil
}

// Reports lists reports, newest first.
func (m *Memory) Reports(ctx context.Context, limit int) ([]Report, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: list reports: %w", err)
	}
	var out []Report
	for i := len(m.mod.reports) - 1; i >= 0 && (limit <= 0 || len(out) < limit); i-- {
		out = append(out, NormReport(m.mod.reports[i]))
	}
	return out, nil
}

// AddAudit appends to the audit log.
func (m *Memory) AddAudit(ctx context.Context, e AuditEntry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	if err := CheckAudit(e); err != nil {
		return fmt.Errorf("store: audit: %w", err)
	}
	m.mod.audit = append(m.mod.audit, NormAudit(e))
	return nil
}

// Audit lists the audit log, newest first.
func (m *Memory) Audit(ctx context.Context, limit int) ([]AuditEntry, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: read audit log: %w", err)
	}
	var out []AuditEntry
	for i := len(m.mod.audit) - 1; i >= 0 && (limit <= 0 || len(out) < limit); i-- {
		out = append(out, m.mod.audit[i])
	}
	return out, nil
}

// SetIgnore remembers that by ignores about.
func (m *Memory) SetIgnore(ctx context.Context, by, about, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: ignore: %w", err)
	}
	if err := CheckIgnore(by, about); err != nil {
		return fmt.Errorf("store: ignore: %w", err)
	}
	if m.mod.ignores == nil {
		m.mod.ignores = map[string]map[string]string{}
	}
	if m.mod.ignores[by] == nil {
		m.mod.ignores[by] = map[string]string{}
	}
	m.mod.ignores[by][about] = name
	return nil
}

// Ignores is whom by ignores.
func (m *Memory) Ignores(ctx context.Context, by string) (map[string]string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: ignores: %w", err)
	}
	out := map[string]string{}
	for about, name := range m.mod.ignores[by] {
		out[about] = name
	}
	return out, nil
}

// RemoveIgnore forgets that by ignores about.
func (m *Memory) RemoveIgnore(ctx context.Context, by, about string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: unignore: %w", err)
	}
	if _, ok := m.mod.ignores[by][about]; !ok {
		return fmt.Errorf("store: unignore: %w", ErrNotFound)
	}
	delete(m.mod.ignores[by], about)
	return nil
}
