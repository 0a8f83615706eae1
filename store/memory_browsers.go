package store

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// AddBrowser stores b under its ID.
func (m *Memory) AddBrowser(ctx context.Context, b Browser) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: add browser: %w", err)
	}
	if err := CheckBrowser(b); err != nil {
		return fmt.Errorf("store: add browser: %w", err)
	}
	if slices.ContainsFunc(m.browsers, func(o Browser) bool { return o.ID == b.ID }) {
		return fmt.Errorf("store: add browser: %w: id taken", ErrInvalid)
	}
	m.browsers = append(m.browsers, NormBrowser(b))
	return nil
}

// Browser returns the browser with this ID.
func (m *Memory) Browser(ctx context.Context, id string) (Browser, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return Browser{}, fmt.Errorf("store: browser: %w", err)
	}
	for _, b := range m.browsers {
		if b.ID == id {
			return NormBrowser(b), nil
		}
	}
	return Browser{}, fmt.Errorf("store: browser: %w", ErrNotFound)
}

// Browsers lists a player's browsers, oldest first.
func (m *Memory) Browsers(ctx context.Context, player string) ([]Browser, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: list browsers: %w", err)
	}
	var out []Browser
	for _, b := range m.browsers {
		if b.Player == player {
			out = append(out, NormBrowser(b))
		}
	}
	slices.SortStableFunc(out, func(a, b Browser) int { return a.Added.Compare(b.Added) })
	return out, nil
}

// RemoveBrowser forgets one of the player's browsers.
func (m *Memory) RemoveBrowser(ctx context.Context, player, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: remove browser: %w", err)
	}
	i := slices.IndexFunc(m.browsers, func(b Browser) bool { return b.ID == id && b.Player == player })
	if i < 0 {
		return fmt.Errorf("store: remove browser: %w", ErrNotFound)
	}
	m.browsers = slices.Delete(m.browsers, i, i+1)
	return nil
}

// AddLinkCode keeps c until it is taken or expires.
func (m *Memory) AddLinkCode(ctx context.Context, c LinkCode, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: add link code: %w", err)
	}
	if err := CheckLinkCode(c); err != nil {
		return fmt.Errorf("store: add link code: %w", err)
	}
	if m.links == nil {
		m.links = map[string]LinkCode{}
	}
	for k, o := range m.links {
		if !o.Expires.After(now) {
			delete(m.links, k)
		}
	}
	if _, taken := m.links[c.Code]; taken {
		return fmt.Errorf("store: add link code: %w: taken", ErrInvalid)
	}
	c.PlayerKey = append([]byte(nil), c.PlayerKey...)
	c.Expires = FromMillis(ToMillis(c.Expires))
	m.links[c.Code] = c
	return nil
}

// TakeLinkCode gives the code and forgets it.
func (m *Memory) TakeLinkCode(ctx context.Context, code string, now time.Time) (LinkCode, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return LinkCode{}, fmt.Errorf("store: take link code: %w", err)
	}
	c, ok := m.links[code]
	delete(m.links, code)
	if !ok || !c.Expires.After(now) {
		return LinkCode{}, fmt.Errorf("store: take link code: %w", ErrNotFound)
	}
	return c, nil
}
