package jetstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	natsjs "github.com/nats-io/nats.go/jetstream"

	"parlor/store"
)

// playerRecord is a player's value in the players bucket; the key is the fingerprint.
type playerRecord struct {
	Name      string `json:"name"`
	FirstSeen int64  `json:"first_seen"` // Unix ms, 0 unknown
	LastSeen  int64  `json:"last_seen"`
	Linear    bool   `json:"linear,omitempty"`
}

// maxRetries bounds read-modify-write loops that lose to concurrent writers.
const maxRetries = 20

// playerKey is the bucket key of a fingerprint ("SHA256:…" holds ':' and '+', which
// keys may not); "" for the empty id, which has no key.
func playerKey(id string) string {
	if id == "" {
		return ""
	}
	return token(id)
}

// getPlayer reads a player and the revision to update it at; ErrNotFound if unknown.
func (s *Store) getPlayer(ctx context.Context, id string) (store.Player, uint64, error) {
	kv, err := get(ctx, s.players, playerKey(id))
	if err != nil {
		return store.Player{}, 0, err
	}
	var r playerRecord
	if err := json.Unmarshal(kv.Value(), &r); err != nil {
		return store.Player{}, 0, err
	}
	return store.Player{ID: id, Name: r.Name, FirstSeen: store.FromMillis(r.FirstSeen), LastSeen: store.FromMillis(r.LastSeen), Linear: r.Linear}, kv.Revision(), nil
}

// putPlayer writes p at revision rev (0: the player must be new), so that a concurrent
// change is noticed instead of overwritten.
func (s *Store) putPlayer(ctx context.Context, p store.Player, rev uint64) error {
	b, err := json.Marshal(playerRecord{Name: p.Name, FirstSeen: store.ToMillis(p.FirstSeen), LastSeen: store.ToMillis(p.LastSeen), Linear: p.Linear})
	if err != nil {
		return err
	}
	if rev == 0 {
		_, err = s.players.Create(ctx, playerKey(p.ID), b)
	} else {
		_, err = s.players.Update(ctx, playerKey(p.ID), b, rev)
	}
	return err
}

// revisionConflict tells a lost revision-checked write, worth retrying, from a failure.
func revisionConflict(err error) bool {
	return errors.Is(err, natsjs.ErrKeyExists) || errors.Is(err, natsjs.ErrKeyRevisionMismatch)
}

// Player returns the player with this key fingerprint, or ErrNotFound.
func (s *Store) Player(ctx context.Context, id string) (store.Player, error) {
	if err := s.ready(ctx); err != nil {
		return store.Player{}, fmt.Errorf("store: get player %s: %w", id, err)
	}
	p, _, err := s.getPlayer(ctx, id)
	if err != nil {
		return store.Player{}, fmt.Errorf("store: get player %s: %w", id, err)
	}
	return p, nil
}

// SavePlayer inserts or updates p, keeping the earlier FirstSeen.
func (s *Store) SavePlayer(ctx context.Context, p store.Player) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: save player %s: %w", p.ID, err)
	}
	if err := store.CheckPlayer(p); err != nil {
		return fmt.Errorf("store: save player: %w", err)
	}
	p.FirstSeen, p.LastSeen = store.NormTime(p.FirstSeen), store.NormTime(p.LastSeen)
	err := s.changePlayer(ctx, p.ID, func(old *store.Player) (store.Player, error) {
		if old == nil {
			return p, nil
		}
		q := p
		q.FirstSeen = store.Earlier(old.FirstSeen, p.FirstSeen)
		q.Linear = old.Linear
		return q, nil
	})
	if err != nil {
		return fmt.Errorf("store: save player %s: %w", p.ID, err)
	}
	return nil
}

// RenamePlayer changes a known player's display name, or returns ErrNotFound.
func (s *Store) RenamePlayer(ctx context.Context, id, name string) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: rename player %s: %w", id, err)
	}
	if name == "" {
		return fmt.Errorf("store: rename player %s: %w: empty name", id, store.ErrInvalid)
	}
	err := s.changePlayer(ctx, id, func(old *store.Player) (store.Player, error) {
		if old == nil {
			return store.Player{}, store.ErrNotFound
		}
		q := *old
		q.Name = name
		return q, nil
	})
	if err != nil {
		return fmt.Errorf("store: rename player %s: %w", id, err)
	}
	return nil
}

// SetLinear remembers whether a known player plays in the linear mode.
func (s *Store) SetLinear(ctx context.Context, id string, on bool) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: linear mode of %s: %w", id, err)
	}
	err := s.changePlayer(ctx, id, func(old *store.Player) (store.Player, error) {
		if old == nil {
			return store.Player{}, store.ErrNotFound
		}
		q := *old
		q.Linear = on
		return q, nil
	})
	if err != nil {
		return fmt.Errorf("store: linear mode of %s: %w", id, err)
	}
	return nil
}

// changePlayer writes change(current player, nil if unknown), retrying while other
// writers get in between.
func (s *Store) changePlayer(ctx context.Context, id string, change func(old *store.Player) (store.Player, error)) error {
	for range maxRetries {
		old, rev, err := s.getPlayer(ctx, id)
		var cur *store.Player
		switch {
		case err == nil:
			cur = &old
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		p, err := change(cur)
		if err != nil {
			return err
		}
		if err := s.putPlayer(ctx, p, rev); !revisionConflict(err) {
			return err
		}
	}
	return fmt.Errorf("%w: gave up after %d concurrent changes", ErrConflict, maxRetries)
}
