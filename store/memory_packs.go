package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

type packKey struct{ owner, name string }

// SavePack stores a copy of p.
func (m *Memory) SavePack(ctx context.Context, p Pack) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: save pack %s: %w", p.Name, err)
	}
	if err := CheckPack(p); err != nil {
		return fmt.Errorf("store: save pack: %w", err)
	}
	if m.packs == nil {
		m.packs = map[packKey]Pack{}
	}
	p.Content = slices.Clone(p.Content)
	p.Created = NormTime(p.Created)
	m.packs[packKey{p.Owner, p.Name}] = p
	return nil
}

// Pack returns a copy of the owner's pack.
func (m *Memory) Pack(ctx context.Context, owner, name string) (Pack, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return Pack{}, fmt.Errorf("store: get pack %s: %w", name, err)
	}
	p, ok := m.packs[packKey{owner, name}]
	if !ok {
		return Pack{}, fmt.Errorf("store: get pack %s: %w", name, ErrNotFound)
	}
	p.Content = slices.Clone(p.Content)
	return p, nil
}

// PacksOf lists copies of the owner's packs, by name.
func (m *Memory) PacksOf(ctx context.Context, owner string) ([]Pack, error) {
	return m.listPacks(ctx, func(p Pack) bool { return p.Owner == owner })
}

// PublishedPacks lists copies of the published packs, by name, then owner.
func (m *Memory) PublishedPacks(ctx context.Context) ([]Pack, error) {
	return m.listPacks(ctx, func(p Pack) bool { return p.Published })
}

func (m *Memory) listPacks(ctx context.Context, keep func(Pack) bool) ([]Pack, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: list packs: %w", err)
	}
	var out []Pack
	for _, p := range m.packs {
		if keep(p) {
			p.Content = slices.Clone(p.Content)
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b Pack) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Owner, b.Owner)
	})
	return out, nil
}

// SetPublished marks the owner's pack as published or not.
func (m *Memory) SetPublished(ctx context.Context, owner, name string, published bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: publish pack %s: %w", name, err)
	}
	k := packKey{owner, name}
	p, ok := m.packs[k]
	if !ok {
		return fmt.Errorf("store: publish pack %s: %w", name, ErrNotFound)
	}
	p.Published = published
	m.packs[k] = p
	return nil
}

// DeletePack removes the owner's pack.
func (m *Memory) DeletePack(ctx context.Context, owner, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ready(ctx); err != nil {
		return fmt.Errorf("store: delete pack %s: %w", name, err)
	}
	k := packKey{owner, name}
	if _, ok := m.packs[k]; !ok {
		return fmt.Errorf("store: delete pack %s: %w", name, ErrNotFound)
	}
	delete(m.packs, k)
	return nil
}
