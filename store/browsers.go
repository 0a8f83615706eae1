package store

import (
	"context"
	"fmt"
	"regexp"
	"time"
)

// Browsers keeps the browsers players have linked to their SSH key (the browser door,
// ssh host link): each browser holds a key pair whose private half never leaves it,
// and the store keeps the public half, with the player's SSH key, so that the browser
// signs in as that player.
type Browsers interface {
	// AddBrowser stores b under its ID, which must be new in the store (ErrInvalid
	// for one already there).
	AddBrowser(ctx context.Context, b Browser) error
	// Browser returns the browser with this ID, or ErrNotFound.
	Browser(ctx context.Context, id string) (Browser, error)
	// Browsers lists a player's browsers, oldest first.
	Browsers(ctx context.Context, player string) ([]Browser, error)
	// RemoveBrowser forgets one of the player's browsers; ErrNotFound when the player
	// has no browser with this ID (another player's included).
	RemoveBrowser(ctx context.Context, player, id string) error
	// AddLinkCode keeps a one-time link code (ssh host link) until it is taken or
	// expires, and drops those expired at now. Every node of a cluster reads them, so
	// the browser may land on any node. A code already there is ErrInvalid.
	AddLinkCode(ctx context.Context, c LinkCode, now time.Time) error
	// TakeLinkCode gives the code and forgets it: it works once. ErrNotFound for a
	// code unknown, taken, or expired at now.
	TakeLinkCode(ctx context.Context, code string, now time.Time) (LinkCode, error)
}

// LinkCode is a code that links a browser to a player, once, before it expires.
type LinkCode struct {
	Code      string // letters and digits, LinkCodeLen of them
	Player    string // the player's key fingerprint
	PlayerKey []byte // the player's SSH public key, in the SSH wire format
	Expires   time.Time
}

// LinkCodeLen is the length of a link code.
const LinkCodeLen = 8

var linkCode = regexp.MustCompile(`^[A-Z0-9]{8}$`)

// CheckLinkCode reports a link code that can never be stored.
func CheckLinkCode(c LinkCode) error {
	if !linkCode.MatchString(c.Code) || c.Player == "" || len(c.PlayerKey) == 0 || len(c.PlayerKey) > 16<<10 || c.Expires.IsZero() {
		return fmt.Errorf("%w: link code", ErrInvalid)
	}
	return nil
}

// Browser is one linked browser.
type Browser struct {
	ID        string    // given by the server: BrowserIDLen letters and digits, unguessable
	Player    string    // the player's key fingerprint, "SHA256:…"
	PlayerKey []byte    // the player's SSH public key, in the SSH wire format
	PublicKey []byte    // the browser key's public half (ECDSA P-256, SPKI DER)
	Label     string    // what the player tells it apart by (the browser's kind)
	Added     time.Time // when it was linked
}

// BrowserIDLen is the length of a browser's ID.
const BrowserIDLen = 22

var browserID = regexp.MustCompile(`^[A-Za-z0-9]{22}$`)

// CheckBrowser reports a browser that can never be stored.
func CheckBrowser(b Browser) error {
	switch {
	case !browserID.MatchString(b.ID):
		return fmt.Errorf("%w: browser id %q", ErrInvalid, b.ID)
	case b.Player == "" || len(b.PlayerKey) == 0 || len(b.PublicKey) == 0:
		return fmt.Errorf("%w: a browser needs its player, their key and its own", ErrInvalid)
	case len(b.PlayerKey) > 16<<10 || len(b.PublicKey) > 1024 || len(b.Label) > 200:
		return fmt.Errorf("%w: browser too large", ErrInvalid)
	}
	return nil
}

// NormBrowser is b as every store gives it back: the time in UTC to the millisecond,
// the byte slices its own.
func NormBrowser(b Browser) Browser {
	b.Added = FromMillis(ToMillis(b.Added))
	b.PlayerKey = append([]byte(nil), b.PlayerKey...)
	b.PublicKey = append([]byte(nil), b.PublicKey...)
	return b
}
