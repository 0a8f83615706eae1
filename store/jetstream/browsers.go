package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	natsjs "github.com/nats-io/nats.go/jetstream"

	"parlor/store"
)

// Linked browsers live in the moderation bucket too, under browser.ID (an ID is
// letters and digits, a token as it is): every node reads them, so a browser signs in
// on whichever node the load balancer gives it.

type browserRecord struct {
	Player    string `json:"player"`
	PlayerKey []byte `json:"player_key"`
	PublicKey []byte `json:"public_key"`
	Label     string `json:"label"`
	Added     int64  `json:"added"`
}

func (r browserRecord) browser(id string) store.Browser {
	return store.Browser{ID: id, Player: r.Player, PlayerKey: r.PlayerKey, PublicKey: r.PublicKey, Label: r.Label, Added: store.FromMillis(r.Added)}
}

// AddBrowser stores b under its ID.
func (s *Store) AddBrowser(ctx context.Context, b store.Browser) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: add browser: %w", err)
	}
	if err := store.CheckBrowser(b); err != nil {
		return fmt.Errorf("store: add browser: %w", err)
	}
	v, err := json.Marshal(browserRecord{Player: b.Player, PlayerKey: b.PlayerKey, PublicKey: b.PublicKey, Label: b.Label, Added: store.ToMillis(b.Added)})
	if err == nil {
		_, err = s.mod.Create(ctx, "browser."+b.ID, v)
	}
	if errors.Is(err, natsjs.ErrKeyExists) {
		return fmt.Errorf("store: add browser: %w: id taken", store.ErrInvalid)
	}
	if err != nil {
		return fmt.Errorf("store: add browser: %w", err)
	}
	return nil
}

// Browser returns the browser with this ID.
func (s *Store) Browser(ctx context.Context, id string) (store.Browser, error) {
	if err := s.ready(ctx); err != nil {
		return store.Browser{}, fmt.Errorf("store: browser: %w", err)
	}
	r, err := s.browser(ctx, id)
	if err != nil {
		return store.Browser{}, fmt.Errorf("store: browser: %w", err)
	}
	return r.browser(id), nil
}

func (s *Store) browser(ctx context.Context, id string) (browserRecord, error) {
	var r browserRecord
	if id == "" || strings.ContainsAny(id, ".*> ") {
		return r, store.ErrNotFound
	}
	e, err := get(ctx, s.mod, "browser."+id)
	if err != nil {
		return r, err
	}
	return r, json.Unmarshal(e.Value(), &r)
}

// Browsers lists a player's browsers, oldest first.
func (s *Store) Browsers(ctx context.Context, player string) ([]store.Browser, error) {
	if err := s.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: list browsers: %w", err)
	}
	var out []store.Browser
	err := s.each(ctx, "browser", func(id string, v []byte) error {
		var r browserRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		if r.Player == player {
			out = append(out, r.browser(id))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: list browsers: %w", err)
	}
	slices.SortStableFunc(out, func(a, b store.Browser) int { return a.Added.Compare(b.Added) })
	return out, nil
}

// RemoveBrowser forgets one of the player's browsers.
func (s *Store) RemoveBrowser(ctx context.Context, player, id string) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: remove browser: %w", err)
	}
	r, err := s.browser(ctx, id)
	if err == nil && r.Player != player {
		err = store.ErrNotFound
	}
	if err == nil {
		err = s.remove(ctx, "browser."+id)
	}
	if err != nil {
		return fmt.Errorf("store: remove browser: %w", err)
	}
	return nil
}

// Link codes live in the moderation bucket under link.CODE until taken (a delete at
// the revision read, so that two nodes cannot both take one) or expired.

type linkRecord struct {
	Player    string `json:"player"`
	PlayerKey []byte `json:"player_key"`
	Expires   int64  `json:"expires"`
}

// AddLinkCode keeps c until it is taken or expires.
func (s *Store) AddLinkCode(ctx context.Context, c store.LinkCode, now time.Time) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: add link code: %w", err)
	}
	if err := store.CheckLinkCode(c); err != nil {
		return fmt.Errorf("store: add link code: %w", err)
	}
	var stale []string
	err := s.each(ctx, "link", func(code string, v []byte) error {
		var r linkRecord
		if json.Unmarshal(v, &r) != nil || !store.FromMillis(r.Expires).After(now) {
			stale = append(stale, code)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: add link code: %w", err)
	}
	for _, code := range stale {
		_ = s.remove(ctx, "link."+code) // another node may have dropped it first
	}
	v, err := json.Marshal(linkRecord{Player: c.Player, PlayerKey: c.PlayerKey, Expires: store.ToMillis(c.Expires)})
	if err == nil {
		_, err = s.mod.Create(ctx, "link."+c.Code, v)
	}
	if errors.Is(err, natsjs.ErrKeyExists) {
		return fmt.Errorf("store: add link code: %w: taken", store.ErrInvalid)
	}
	if err != nil {
		return fmt.Errorf("store: add link code: %w", err)
	}
	return nil
}

// TakeLinkCode gives the code and forgets it.
func (s *Store) TakeLinkCode(ctx context.Context, code string, now time.Time) (store.LinkCode, error) {
	if err := s.ready(ctx); err != nil {
		return store.LinkCode{}, fmt.Errorf("store: take link code: %w", err)
	}
	if code == "" || strings.ContainsAny(code, ".*> ") {
		return store.LinkCode{}, fmt.Errorf("store: take link code: %w", store.ErrNotFound)
	}
	e, err := get(ctx, s.mod, "link."+code)
	if err == nil {
		// Deleted at the revision read: of two nodes taking it, one fails here.
		err = s.mod.Delete(ctx, "link."+code, natsjs.LastRevision(e.Revision()))
		if revisionConflict(err) {
			err = store.ErrNotFound
		}
	}
	if err != nil {
		return store.LinkCode{}, fmt.Errorf("store: take link code: %w", err)
	}
	var r linkRecord
	if err := json.Unmarshal(e.Value(), &r); err != nil {
		return store.LinkCode{}, fmt.Errorf("store: take link code: %w", err)
	}
	c := store.LinkCode{Code: code, Player: r.Player, PlayerKey: r.PlayerKey, Expires: store.FromMillis(r.Expires)}
	if !c.Expires.After(now) {
		return store.LinkCode{}, fmt.Errorf("store: take link code: %w", store.ErrNotFound)
	}
	return c, nil
}
