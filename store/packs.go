package store

import (
	"context"
	"fmt"
	"time"
)

// Packs keeps the content packs players upload: each belongs to its uploader's key and
// has a name unique for that owner; an admin may publish one for everyone. The store
// keeps a pack's text as it came and never looks inside it (the lobby validates it).
type Packs interface {
	// SavePack stores p, replacing the owner's pack of the same name (and its published
	// mark). Created is kept to the millisecond.
	SavePack(ctx context.Context, p Pack) error
	// Pack returns the owner's pack of that name, or ErrNotFound.
	Pack(ctx context.Context, owner, name string) (Pack, error)
	// PacksOf lists the owner's packs, by name.
	PacksOf(ctx context.Context, owner string) ([]Pack, error)
	// PublishedPacks lists every published pack, by name, then owner.
	PublishedPacks(ctx context.Context) ([]Pack, error)
	// SetPublished marks the owner's pack as published for everyone (or not), or
	// returns ErrNotFound.
	SetPublished(ctx context.Context, owner, name string, published bool) error
	// DeletePack removes the owner's pack, or returns ErrNotFound.
	DeletePack(ctx context.Context, owner, name string) error
}

// Pack is one uploaded content pack.
type Pack struct {
	Owner     string    // the uploader's key fingerprint
	Name      string    // unique per owner
	Kind      string    // the pack kind, e.g. "quadrant-words"
	Content   []byte    // the file, in the kind's built-in format
	Entries   int       // how many entries it holds, as counted when it was checked
	Published bool      // shown to everyone
	Created   time.Time // when it was uploaded
}

// CheckPack rejects a pack that no implementation may store.
func CheckPack(p Pack) error {
	switch {
	case p.Owner == "":
		return fmt.Errorf("%w: pack without owner", ErrInvalid)
	case p.Name == "":
		return fmt.Errorf("%w: pack without name", ErrInvalid)
	case p.Kind == "":
		return fmt.Errorf("%w: pack %s without kind", ErrInvalid, p.Name)
	}
	return nil
}
