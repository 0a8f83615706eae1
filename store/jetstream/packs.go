package jetstream

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	natsjs "github.com/nats-io/nats.go/jetstream"

	"parlor/store"
)

// packRecord is a pack's value in the packs bucket, keyed OWNER.NAME (both as tokens),
// so an owner's packs are the keys under OWNER.
type packRecord struct {
	Owner     string `json:"owner"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Content   []byte `json:"content"`
	Entries   int    `json:"entries"`
	Published bool   `json:"published,omitempty"`
	Created   int64  `json:"created"` // Unix ms
}

// packKey is the bucket key of an owner's pack; "" when either is empty (no such pack).
func packKey(owner, name string) string {
	if owner == "" || name == "" {
		return ""
	}
	return token(owner) + "." + token(name)
}

func encodePack(p store.Pack) ([]byte, error) {
	return json.Marshal(packRecord{Owner: p.Owner, Name: p.Name, Kind: p.Kind, Content: p.Content,
		Entries: p.Entries, Published: p.Published, Created: store.ToMillis(p.Created)})
}

func decodePack(b []byte) (store.Pack, error) {
	var r packRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return store.Pack{}, err
	}
	if r.Content == nil {
		r.Content = []byte{}
	}
	return store.Pack{Owner: r.Owner, Name: r.Name, Kind: r.Kind, Content: r.Content,
		Entries: r.Entries, Published: r.Published, Created: store.FromMillis(r.Created)}, nil
}

// SavePack stores p, replacing the owner's pack of the same name.
func (s *Store) SavePack(ctx context.Context, p store.Pack) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: save pack %s: %w", p.Name, err)
	}
	if err := store.CheckPack(p); err != nil {
		return fmt.Errorf("store: save pack: %w", err)
	}
	b, err := encodePack(p)
	if err == nil {
		_, err = s.packs.Put(ctx, packKey(p.Owner, p.Name), b)
	}
	if err != nil {
		return fmt.Errorf("store: save pack %s: %w", p.Name, err)
	}
	return nil
}

// getPack reads a pack and the revision to change it at; ErrNotFound if there is none.
func (s *Store) getPack(ctx context.Context, owner, name string) (store.Pack, uint64, error) {
	kv, err := get(ctx, s.packs, packKey(owner, name))
	if err != nil {
		return store.Pack{}, 0, err
	}
	p, err := decodePack(kv.Value())
	return p, kv.Revision(), err
}

// Pack returns the owner's pack of that name, or ErrNotFound.
func (s *Store) Pack(ctx context.Context, owner, name string) (store.Pack, error) {
	if err := s.ready(ctx); err != nil {
		return store.Pack{}, fmt.Errorf("store: get pack %s: %w", name, err)
	}
	p, _, err := s.getPack(ctx, owner, name)
	if err != nil {
		return store.Pack{}, fmt.Errorf("store: get pack %s: %w", name, err)
	}
	return p, nil
}

// PacksOf lists the owner's packs, by name.
func (s *Store) PacksOf(ctx context.Context, owner string) ([]store.Pack, error) {
	if owner == "" {
		return s.listPacks(ctx, "", nil)
	}
	return s.listPacks(ctx, token(owner)+".*", nil)
}

// PublishedPacks lists every published pack, by name, then owner. It reads the whole
// bucket: packs are few and small (64 KiB at most).
func (s *Store) PublishedPacks(ctx context.Context) ([]store.Pack, error) {
	return s.listPacks(ctx, ">", func(p store.Pack) bool { return p.Published })
}

// listPacks reads the packs whose keys match filter ("" matches none) through a
// key-value watcher, which delivers the current value of each key and then a nil.
func (s *Store) listPacks(ctx context.Context, filter string, keep func(store.Pack) bool) ([]store.Pack, error) {
	if err := s.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: list packs: %w", err)
	}
	if filter == "" {
		return nil, nil
	}
	w, err := s.packs.Watch(ctx, filter, natsjs.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("store: list packs: %w", err)
	}
	defer w.Stop() //nolint:errcheck // nothing to do about a failed unsubscribe
	var out []store.Pack
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("store: list packs: %w", ctx.Err())
		case kv, ok := <-w.Updates():
			if !ok {
				return nil, fmt.Errorf("store: list packs: watcher stopped")
			}
			if kv == nil {
				slices.SortFunc(out, func(a, b store.Pack) int {
					if c := strings.Compare(a.Name, b.Name); c != 0 {
						return c
					}
					return strings.Compare(a.Owner, b.Owner)
				})
				return out, nil
			}
			p, err := decodePack(kv.Value())
			if err != nil {
				return nil, fmt.Errorf("store: list packs: %s: %w", kv.Key(), err)
			}
			if keep == nil || keep(p) {
				out = append(out, p)
			}
		}
	}
}

// SetPublished marks the owner's pack as published for everyone (or not), or returns
// ErrNotFound.
func (s *Store) SetPublished(ctx context.Context, owner, name string, published bool) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: publish pack %s: %w", name, err)
	}
	for range maxRetries {
		p, rev, err := s.getPack(ctx, owner, name)
		if err != nil {
			return fmt.Errorf("store: publish pack %s: %w", name, err)
		}
		p.Published = published
		b, err := encodePack(p)
		if err == nil {
			_, err = s.packs.Update(ctx, packKey(owner, name), b, rev)
		}
		if !revisionConflict(err) {
			if err != nil {
				return fmt.Errorf("store: publish pack %s: %w", name, err)
			}
			return nil
		}
	}
	return fmt.Errorf("store: publish pack %s: %w", name, ErrConflict)
}

// DeletePack removes the owner's pack, or returns ErrNotFound.
func (s *Store) DeletePack(ctx context.Context, owner, name string) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: delete pack %s: %w", name, err)
	}
	for range maxRetries {
		_, rev, err := s.getPack(ctx, owner, name)
		if err != nil {
			return fmt.Errorf("store: delete pack %s: %w", name, err)
		}
		err = s.packs.Delete(ctx, packKey(owner, name), natsjs.LastRevision(rev))
		if !revisionConflict(err) {
			if err != nil {
				return fmt.Errorf("store: delete pack %s: %w", name, err)
			}
			return nil
		}
	}
	return fmt.Errorf("store: delete pack %s: %w", name, ErrConflict)
}
