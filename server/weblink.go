package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"net"
	"strings"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"parlor/playertext"
	"parlor/store"
)

// One identity across SSH and the browser: "ssh host link" gives a one-time code; the
// page that opens /link/CODE makes a key pair in the browser (WebCrypto, ECDSA P-256,
// its private half not extractable, kept in IndexedDB) and sends the public half with
// its signature of the server's challenge; parlor stores it for the player
// (store.Browsers) with their SSH key. On every later visit the page signs a fresh
// challenge, and the session runs with the player's SSH key as its PublicKey: their
// fingerprint, so their name, stats, seats, admin rights and bans follow.

// linkTTL is how long a link code is good for; it works once.
const linkTTL = 5 * time.Minute

// linkAlphabet leaves out letters and digits that read alike (0/O, 1/I/L).
const linkAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// signedPrefix is put before the challenge a browser signs, so that its signature can
// never be taken for one of anything else.
const signedPrefix = "parlor browser sign-in\n"

// newLinkCode keeps a new link code for the player in the store, where every node of a
// cluster finds it.
func (s *Server) newLinkCode(ctx context.Context, player string, key []byte) (string, error) {
	now := time.Now()
	for range 3 {
		b := make([]byte, store.LinkCodeLen)
		_, _ = rand.Read(b)
		for i := range b {
			b[i] = linkAlphabet[int(b[i])%len(linkAlphabet)]
		}
		err := s.wrote(s.store.AddLinkCode(ctx, store.LinkCode{Code: string(b), Player: player, PlayerKey: key, Expires: now.Add(linkTTL)}, now))
		if !errors.Is(err, store.ErrInvalid) { // taken: one more try
			return string(b), err
		}
	}
	return "", errors.New("no free code")
}

// takeLinkCode uses a code up: it gives what it was for, once, before it expires.
func (s *Server) takeLinkCode(ctx context.Context, code string) (store.LinkCode, bool) {
	code = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(code), "-", ""))
	c, err := s.store.TakeLinkCode(ctx, code, time.Now())
	return c, err == nil
}

// identify decides who a browser's hello makes it: a player it was linked to (or is
// being linked to now, with a link code), with their SSH key, or a guest (nil key). A
// key the store no longer knows (revoked) is a guest, and the page is told to forget
// it; a signature that does not verify is refused.
func (d *webDoor) identify(ctx context.Context, h webHello, nonce []byte) (key ssh.PublicKey, id string, linked bool, err error) {
	sig, _ := base64.StdEncoding.DecodeString(h.Sig)
	switch {
	case h.Link != "":
		pub, err := parseBrowserKey(h.Public)
		if err != nil || !verifyBrowser(pub, nonce, sig) {
			return nil, "", false, errors.New("this browser could not make its key; try another browser, or play as a guest")
		}
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		code, ok := d.s.takeLinkCode(sctx, h.Link)
		if !ok {
			return nil, "", false, errors.New("this link code is unknown, used or expired: ask for a new one with ssh HOST link")
		}
		key, err := gossh.ParsePublicKey(code.PlayerKey)
		if err != nil {
			return nil, "", false, errors.New("parlor could not read your SSH key: please link again")
		}
		der, _ := base64.StdEncoding.DecodeString(h.Public)
		b := store.Browser{ID: newBrowserID(), Player: code.Player, PlayerKey: code.PlayerKey, PublicKey: der,
			Label: h.Label, Added: time.Now()}
		if err := d.s.wrote(d.s.store.AddBrowser(sctx, b)); err != nil {
			return nil, "", false, errors.New("parlor could not keep this browser's key right now: please link again in a moment")
		}
		return key, b.ID, true, nil
	case h.Key != "":
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		b, err := d.s.store.Browser(sctx, playertext.Short(h.Key, store.BrowserIDLen))
		if errors.Is(err, store.ErrNotFound) {
			return nil, "", false, nil // revoked: a guest, and the page forgets the key
		}
		if err != nil {
			return nil, "", false, errors.New("parlor cannot check this browser's key right now: please try again in a moment")
		}
		pub, err := parseBrowserKey(base64.StdEncoding.EncodeToString(b.PublicKey))
		if err != nil || !verifyBrowser(pub, nonce, sig) {
			return nil, "", false, errors.New("this browser's key did not sign in: link it again with ssh HOST link")
		}
		key, err := gossh.ParsePublicKey(b.PlayerKey)
		if err != nil {
			return nil, "", false, errors.New("parlor could not read your SSH key: please link again")
		}
		return key, b.ID, false, nil
	}
	return nil, "", false, nil
}

// parseBrowserKey reads a browser key's public half: base64 of its SPKI, P-256 only.
func parseBrowserKey(b64 string) (*ecdsa.PublicKey, error) {
	der, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(der) > 512 {
		return nil, errors.New("not a key")
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, err
	}
	pub, ok := k.(*ecdsa.PublicKey)
	if !ok || pub.Curve != elliptic.P256() {
		return nil, errors.New("not an ECDSA P-256 key")
	}
	return pub, nil
}

// verifyBrowser checks a browser's signature of the challenge: WebCrypto's ECDSA
// signature is r and s side by side, 32 bytes each for P-256.
func verifyBrowser(pub *ecdsa.PublicKey, nonce, sig []byte) bool {
	if len(sig) != 64 || len(nonce) == 0 {
		return false
	}
	h := sha256.Sum256(append([]byte(signedPrefix), nonce...))
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	return ecdsa.Verify(pub, h[:], r, s)
}

const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// newBrowserID is a new, unguessable browser ID (22 of 62 characters: 130 bits).
func newBrowserID() string {
	b := make([]byte, store.BrowserIDLen)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return string(b)
}

// webBase is the browser door's public address for a session's links: the one the
// browser used, for a browser; --web-url; else http://HOST:PORT, HOST as the SSH
// commands parlor gives say it.
func (s *Server) webBase(sess ssh.Session) string {
	if s.web == nil {
		return ""
	}
	if b, ok := sess.Context().Value(webBaseKey{}).(string); ok {
		return b
	}
	if s.cfg.WebURL != "" {
		return strings.TrimSuffix(s.cfg.WebURL, "/")
	}
	scheme := "http"
	if s.cfg.WebCert != "" {
		scheme = "https"
	}
	_, port, _ := net.SplitHostPort(s.WebAddr())
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		return scheme + "://HOST"
	}
	return scheme + "://HOST:" + port
}

// serveLink is "ssh host link": a code for a new browser, "link list" and
// "link revoke ID".
func (s *Server) serveLink(sess ssh.Session, args []string) {
	key := sess.PublicKey()
	if key == nil {
		fail(sess, "link ties a browser to your SSH key, and you connected without one. Make one with ssh-keygen -t ed25519 and connect again.")
		return
	}
	if s.web == nil {
		fail(sess, "This server's browser door is off (--web=off): there is nothing to link.")
		return
	}
	player := gossh.FingerprintSHA256(key)
	ctx, cancel := context.WithTimeout(sess.Context(), 5*time.Second)
	defer cancel()
	switch {
	case len(args) == 0:
		code, err := s.newLinkCode(ctx, player, key.Marshal())
		if err != nil {
			fail(sess, "parlor cannot make a link code right now: please try again in a moment.")
			return
		}
		fmt.Fprintf(sess, "Open this address in the browser you want to play from, within %d minutes (it works once):\n\n  %s/link/%s\n\n"+
			"That browser then plays as you, with your name, your seats and your record. %s link list shows your browsers.\n",
			int(linkTTL/time.Minute), s.webBase(sess), code, s.sshCommand())
	case len(args) == 1 && args[0] == "list":
		list, err := s.store.Browsers(ctx, player)
		if err != nil {
			fail(sess, "parlor cannot read your browsers right now: please try again in a moment.")
			return
		}
		if len(list) == 0 {
			fmt.Fprintf(sess, "No browser is linked to your key. %s link gives a code for one.\n", s.sshCommand())
			break
		}
		fmt.Fprintln(sess, "Browsers linked to your key (revoke one with link revoke ID):")
		for _, b := range list {
			fmt.Fprintf(sess, "  %s  %-24s linked %s\n", b.ID[:8], playertext.Short(b.Label, 24), b.Added.Format("2006-01-02 15:04 MST"))
		}
	case len(args) == 2 && args[0] == "revoke":
		list, err := s.store.Browsers(ctx, player)
		if err != nil {
			fail(sess, "parlor cannot read your browsers right now: please try again in a moment.")
			return
		}
		want := strings.TrimSpace(args[1])
		for _, b := range list {
			if len(want) >= 6 && strings.HasPrefix(b.ID, want) {
				if err := s.wrote(s.store.RemoveBrowser(ctx, player, b.ID)); err != nil {
					fail(sess, "parlor could not revoke it right now: please try again in a moment.")
					return
				}
				fmt.Fprintf(sess, "Revoked %s (%s): it plays as a guest from its next visit.\n", b.ID[:8], playertext.Short(b.Label, 24))
				_ = sess.Exit(0)
				return
			}
		}
		fail(sess, fmt.Sprintf("You have no browser %q: %s link list shows yours.", playertext.Short(want, 24), s.sshCommand()))
		return
	default:
		fail(sess, fmt.Sprintf("link takes nothing, list, or revoke ID: %s link", s.sshCommand()))
		return
	}
	_ = sess.Exit(0)
}

// browserLabel is a short name for a browser from its User-Agent, for link list.
func browserLabel(ua string) string {
	kind := "a browser"
	for _, k := range []struct{ token, name string }{{"Edg/", "Edge"}, {"Firefox/", "Firefox"}, {"Chrome/", "Chrome"}, {"Safari/", "Safari"}} {
		if strings.Contains(ua, k.token) {
			kind = k.name
			break
		}
	}
	for _, p := range []struct{ token, name string }{{"Android", "Android"}, {"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Windows", "Windows"}, {"Mac OS", "macOS"}, {"Linux", "Linux"}} {
		if strings.Contains(ua, p.token) {
			return kind + " on " + p.name
		}
	}
	return kind
}
