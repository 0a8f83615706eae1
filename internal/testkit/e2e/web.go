package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlor/internal/testkit/sshterm"
)

// WebPlayer is a browser door client without a browser: the page's wire protocol
// (server/webterm.go) spoken from Go, its output on an emulated screen, for the tests
// of hostile input and for those that need no real browser.
type WebPlayer struct {
	t    testing.TB
	s    *Server
	Conn *websocket.Conn
	scr  *sshterm.Screen
	// Welcome is the server's welcome message.
	Welcome map[string]any

	mu     sync.Mutex
	closed *websocket.CloseError // why the server closed, once it has
	done   chan struct{}
}

// WebHello is the page's hello: where to go and who it is (see server/web.go).
type WebHello struct {
	Join, Watch string
	// Hello, if set, makes the whole hello from the server's challenge nonce.
	Hello func(nonce []byte) map[string]any
}

// DialWeb opens a WebSocket to the server's browser door with origin ("" sends none).
func (s *Server) DialWeb(t testing.TB, origin string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	return s.DialWebWith(t, h)
}

// DialWebWith opens a WebSocket to the server's browser door with the request's header h.
func (s *Server) DialWebWith(t testing.TB, h http.Header) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, "ws://"+s.WebAddr()+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err == nil {
		c.SetReadLimit(1 << 20)
		t.Cleanup(func() { _ = c.CloseNow() })
	}
	return c, resp, err
}

// ReadChallenge reads the server's challenge and gives its nonce.
func ReadChallenge(t testing.TB, c *websocket.Conn) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	typ, data, err := c.Read(ctx)
	var msg struct{ Type, Nonce string }
	if err != nil || typ != websocket.MessageText || json.Unmarshal(data, &msg) != nil || msg.Type != "challenge" {
		t.Fatalf("no challenge: %v %s", err, data)
	}
	nonce, err := decodeB64(msg.Nonce)
	if err != nil {
		t.Fatal(err)
	}
	return nonce
}

// ConnectWeb opens a w×h browser session as hello says and waits for the welcome.
func (s *Server) ConnectWeb(t testing.TB, hello WebHello, w, h int) *WebPlayer {
	t.Helper()
	c, _, err := s.DialWeb(t, "")
	if err != nil {
		t.Fatal(err)
	}
	nonce := ReadChallenge(t, c)
	msg := map[string]any{}
	if hello.Hello != nil {
		msg = hello.Hello(nonce)
	}
	msg["type"], msg["cols"], msg["rows"] = "hello", w, h
	if hello.Join != "" {
		msg["join"] = hello.Join
	}
	if hello.Watch != "" {
		msg["watch"] = hello.Watch
	}
	b, _ := json.Marshal(msg)
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
	p := &WebPlayer{t: t, s: s, Conn: c, scr: sshterm.NewScreen(w, h), done: make(chan struct{})}
	typ, data, err := c.Read(ctx)
	if err != nil {
		p.closed = closeOf(err)
		close(p.done)
		return p
	}
	if typ != websocket.MessageText || json.Unmarshal(data, &p.Welcome) != nil || p.Welcome["type"] != "welcome" {
		t.Fatalf("no welcome: %s", data)
	}
	go p.scr.Answer(p)
	go p.read()
	return p
}

func closeOf(err error) *websocket.CloseError {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return &ce
	}
	return &websocket.CloseError{Code: -1, Reason: err.Error()}
}

func (p *WebPlayer) read() {
	defer close(p.done)
	for {
		typ, data, err := p.Conn.Read(context.Background())
		if err != nil {
			p.mu.Lock()
			p.closed = closeOf(err)
			p.mu.Unlock()
			return
		}
		if typ == websocket.MessageBinary {
			p.s.touch()
			_, _ = p.scr.Write(data)
		}
	}
}

// Write sends input, as the page sends what the player types.
func (p *WebPlayer) Write(b []byte) (int, error) {
	p.s.touch()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	if err := p.Conn.Write(ctx, websocket.MessageBinary, b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Press sends named keys ("enter", "up", …) or literal text, one after the other.
func (p *WebPlayer) Press(keys ...string) {
	for _, k := range keys {
		if _, err := p.Write([]byte(sshterm.KeySequence(k))); err != nil {
			p.t.Fatal(err)
		}
		if k == "esc" {
			time.Sleep(150 * time.Millisecond)
		} else {
			time.Sleep(15 * time.Millisecond)
		}
	}
}

// Send sends a text (control) message as it is.
func (p *WebPlayer) Send(text string) error {
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	return p.Conn.Write(ctx, websocket.MessageText, []byte(text))
}

// Screen is the text on the player's screen now.
func (p *WebPlayer) Screen() string { return p.scr.String() }

// WaitFor waits until every text appears on the screen.
func (p *WebPlayer) WaitFor(texts ...string) string {
	p.t.Helper()
	return p.s.waitFor(p.t, p.Screen, texts)
}

// Closed waits until the server has closed the session and says why.
func (p *WebPlayer) Closed() *websocket.CloseError {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(Wait):
		p.t.Fatalf("the session was not closed within %s; the screen shows:\n%s", Wait, p.Screen())
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

func decodeB64(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }
