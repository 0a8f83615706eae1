package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"

	"github.com/coder/websocket"

	"parlor/internal/testkit/sshterm"
)

// Players in a browser (-web): the same terminal player as the SSH one — an 80×24
// screen of the same emulator, the same keys — over parlor's browser door, speaking
// its page's wire (assets/web/parlor.js, server/webterm.go): a challenge from the
// server, the page's hello (window size, the table to sit at, a linked browser's
// signature), a welcome, then binary messages both ways, the program's output in and
// what the player types out. A guest at /t/CODE takes a seat as the page does; the
// host of a table, whose seat was made over the API with an SSH key, links a browser
// key to that SSH key first (ssh host link), as a player does once, so that their
// browser is the host and takes the seat back.

// webPlayer tells whether the j-th player (of all tables, in seat order) comes through
// the browser door when a fraction f of them do: spread evenly, so that every table
// has its share and -web 1 makes every player a browser one.
func webPlayer(j int, f float64) bool {
	return int(float64(j+1)*f) > int(float64(j)*f)
}

// browserKey is a linked browser's key as the page makes it with WebCrypto: ECDSA
// P-256, signing the server's challenge as r and s side by side.
type browserKey struct{ *ecdsa.PrivateKey }

func newBrowserKey() (browserKey, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	return browserKey{k}, err
}

// public is the key's public half as the page sends it: base64 of its SPKI.
func (k browserKey) public() (string, error) {
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	return base64.StdEncoding.EncodeToString(der), err
}

// sign signs a challenge as the page does (server/weblink.go's verifyBrowser).
func (k browserKey) sign(nonce []byte) (string, error) {
	h := sha256.Sum256(append([]byte("parlor browser sign-in\n"), nonce...))
	r, s, err := ecdsa.Sign(rand.Reader, k.PrivateKey, h[:])
	if err != nil {
		return "", err
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return base64.StdEncoding.EncodeToString(sig), nil
}

var linkCodeRE = regexp.MustCompile(`/link/([A-Z0-9]+)`)

// linkCode runs "ssh link" as p, whose browser is to be linked, and gives the one-time
// code it prints. (A connection of its own: a parlor connection runs one command.)
func (w *workload) linkCode(p *player) (string, error) {
	c, sess, err := w.command(p)
	if err != nil {
		return "", err
	}
	defer c.Close()
	out, err := sess.Output("link")
	m := linkCodeRE.FindSubmatch(out)
	if err != nil || m == nil {
		return "", fmt.Errorf("ssh link: %v %q", err, out)
	}
	return string(m[1]), nil
}

// webHello is the page's hello, made from the server's challenge nonce; its type and
// window size are added.
type webHello func(nonce []byte) (map[string]any, error)

// hello is what the page of p at t's /t/CODE says: a guest's join, or for a host the
// link of their browser key with the code their SSH key got.
func (p *player) hello(t *table) webHello {
	return func(nonce []byte) (map[string]any, error) {
		msg := map[string]any{"join": t.code}
		if p.link == "" {
			return msg, nil
		}
		pub, err := p.browser.public()
		if err != nil {
			return nil, err
		}
		sig, err := p.browser.sign(nonce)
		msg["link"], msg["public"], msg["sig"] = p.link, pub, sig
		return msg, err
	}
}

// dialWeb opens a browser session at the door addr from the loopback address source,
// as the page does, and waits for its welcome; the connection then carries the
// terminal's bytes alone.
func dialWeb(ctx context.Context, addr string, source net.IP, w, h int, hello webHello) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	// coder/websocket dials with an http.Client: its transport's dialer binds the
	// source address (a client of its own, since each dial has its own source).
	d := &net.Dialer{Timeout: dialTimeout, LocalAddr: &net.TCPAddr{IP: source}}
	client := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{HTTPClient: client})
	if err != nil {
		return nil, fmt.Errorf("websocket %s: %w", addr, err)
	}
	// A full repaint of a screen in colour can be larger than the default 32 KB.
	c.SetReadLimit(1 << 20)
	fail := func(err error) (*websocket.Conn, error) {
		_ = c.CloseNow()
		return nil, err
	}
	var msg struct {
		Type  string
		Nonce []byte // base64, as encoding/json reads a []byte
	}
	if err := readText(ctx, c, &msg); err != nil || msg.Type != "challenge" {
		return fail(fmt.Errorf("no challenge from the browser door: %v %q", err, msg.Type))
	}
	m, err := hello(msg.Nonce)
	if err != nil {
		return fail(err)
	}
	m["type"], m["cols"], m["rows"] = "hello", w, h
	b, _ := json.Marshal(m)
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		return fail(err)
	}
	if err := readText(ctx, c, &msg); err != nil || msg.Type != "welcome" {
		return fail(fmt.Errorf("no welcome from the browser door: %v %q", err, msg.Type))
	}
	return c, nil
}

// readText reads one control message into v; the server's close reason is the error
// if it closed instead.
func readText(ctx context.Context, c *websocket.Conn, v any) error {
	typ, data, err := c.Read(ctx)
	if err != nil {
		return err
	}
	if typ != websocket.MessageText {
		return errors.New("a binary message before the welcome")
	}
	return json.Unmarshal(data, v)
}

// openWeb makes the browser session's terminal on p's screen: keys go out as the page
// sends what xterm.js gives it (a binary message each), resizes as its control
// message.
func openWeb(c *websocket.Conn, on *sshterm.Screen) *sshterm.Terminal {
	stream := websocket.NetConn(context.Background(), c, websocket.MessageBinary)
	window := func(w, h int) error {
		b, _ := json.Marshal(map[string]any{"type": "resize", "cols": w, "rows": h})
		return c.Write(context.Background(), websocket.MessageText, b)
	}
	return sshterm.OpenStream(on, stream, stream, window, func() { _ = stream.Close() }, nil)
}
