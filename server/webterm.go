package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"charm.land/ssh"
	"github.com/coder/websocket"
	gossh "golang.org/x/crypto/ssh"

	"parlor/termrt"
)

// webSession is a browser's terminal as the SSH session a player's program runs on
// (charm.land/ssh's Session): the browser door hands it to the same middleware chain
// and the same program, model and painter as an SSH session, so nothing of the game
// side knows a browser from a terminal.
//
// The wire (web/parlor.js is the other end): a binary message from the browser is
// what the player typed, as a terminal would send it; a text message is a control
// message in JSON, of which only {"type":"resize","cols":C,"rows":R} comes once the
// session runs; a binary message to the browser is what its terminal is to show.
// Both ends close with a status and a reason a player can read.
type webSession struct {
	conn    *websocket.Conn
	ctx     *webContext
	key     ssh.PublicKey // the player's SSH key, for a linked browser; nil: a guest
	command string        // "", "join CODE" or "watch CODE"
	// writeTimeout bounds one write: a browser that stops reading is closed after it,
	// as its frames would otherwise wait in memory (the painter writes on the
	// session's goroutine and waits for each write).
	writeTimeout time.Duration

	mu      sync.Mutex
	win     ssh.Window
	resized func(ssh.Window) // the program's, once it runs
	exited  bool

	pending []byte // the rest of the input message Read is taking; the reader's own
}

// The most a browser may send in one message: a paste is cut to 64 KB anyway
// (termrt's key reader), and a control message is a few bytes.
const webReadLimit = 64<<10 + 512

// webControl is a control message from the browser.
type webControl struct {
	Type string `json:"type"`
	Cols int    `json:"cols"`
	Rows int    `json:"rows"`
}

// The close statuses the browser door uses besides the standard ones: the page shows
// the reason, and knows from the status whether to offer to connect again.
const (
	statusRefused = websocket.StatusCode(4000) // the gate, a ban or a full server turned it away
	statusGone    = websocket.StatusCode(4001) // the session ended on the server's side
)

// Read gives what the player typed. A resize on the way is taken (clamped, as an SSH
// client's window change is) and passed to the program; anything else that is not
// input closes the session with why.
func (w *webSession) Read(p []byte) (int, error) {
	for len(w.pending) == 0 {
		typ, data, err := w.conn.Read(w.ctx)
		if err != nil {
			w.ctx.cancel()
			return 0, err
		}
		if typ == websocket.MessageBinary {
			w.pending = data
			continue
		}
		var c webControl
		if json.Unmarshal(data, &c) != nil || c.Type != "resize" {
			w.closeWith(websocket.StatusUnsupportedData, "parlor did not understand a message from the page")
			return 0, io.EOF
		}
		w.resize(c.Cols, c.Rows)
	}
	n := copy(p, w.pending)
	w.pending = w.pending[n:]
	return n, nil
}

func (w *webSession) resize(cols, rows int) {
	win := termrt.Clamp(cols, rows)
	w.mu.Lock()
	w.win = win
	resized := w.resized
	w.mu.Unlock()
	if resized != nil {
		resized(win)
	}
}

// OnResize is termrt.Resizer: the program takes the window changes from here on.
func (w *webSession) OnResize(f func(ssh.Window)) {
	w.mu.Lock()
	w.resized = f
	w.mu.Unlock()
}

// Write sends p to the browser's terminal, within writeTimeout.
func (w *webSession) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	ctx, cancel := context.WithTimeout(w.ctx, w.writeTimeout)
	defer cancel()
	if err := w.conn.Write(ctx, websocket.MessageBinary, p); err != nil {
		// A write that timed out has closed the connection (coder/websocket does): the
		// session ends with it.
		w.ctx.cancel()
		return 0, err
	}
	return len(p), nil
}

// closeWith ends the session with a status and the reason the page shows.
func (w *webSession) closeWith(code websocket.StatusCode, reason string) {
	w.mu.Lock()
	done := w.exited
	w.exited = true
	w.mu.Unlock()
	if !done {
		_ = w.conn.Close(code, reason)
	}
	w.ctx.cancel()
}

// Exit ends the session: what it had to say is on the player's screen already.
func (w *webSession) Exit(code int) error {
	if code == 0 {
		w.closeWith(websocket.StatusNormalClosure, "goodbye")
	} else {
		w.closeWith(statusGone, "the session ended")
	}
	return nil
}

func (w *webSession) Close() error {
	w.closeWith(websocket.StatusNormalClosure, "")
	return nil
}

func (w *webSession) CloseWrite() error { return nil }

func (w *webSession) SendRequest(string, bool, []byte) (bool, error) { return false, nil }

// Stderr is the terminal too: a browser has one screen.
func (w *webSession) Stderr() io.ReadWriter { return w }

func (w *webSession) User() string         { return "" }
func (w *webSession) RemoteAddr() net.Addr { return w.ctx.remote }
func (w *webSession) LocalAddr() net.Addr  { return w.ctx.local }

// Environ tells the colour profile: xterm.js draws 24-bit colour.
func (w *webSession) Environ() []string { return []string{"COLORTERM=truecolor"} }

func (w *webSession) Command() []string {
	if w.command == "" {
		return nil
	}
	return strings.Fields(w.command)
}

func (w *webSession) RawCommand() string       { return w.command }
func (w *webSession) Subsystem() string        { return "" }
func (w *webSession) PublicKey() ssh.PublicKey { return w.key }
func (w *webSession) Context() ssh.Context     { return w.ctx }
func (w *webSession) Permissions() ssh.Permissions {
	return ssh.Permissions{Permissions: &gossh.Permissions{}}
}
func (w *webSession) EmulatedPty() bool { return false }

// Pty is xterm.js, with the newest window the page sent.
func (w *webSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return ssh.Pty{Term: "xterm-256color", Window: w.win}, nil, true
}

func (w *webSession) Signals(chan<- ssh.Signal) {}
func (w *webSession) Break(chan<- bool)         {}

// webContext is a browser session's ssh.Context: it ends when the WebSocket does.
type webContext struct {
	context.Context
	sync.Mutex
	cancel        context.CancelFunc
	id            string
	remote, local net.Addr

	vmu    sync.Mutex
	values map[any]any
}

func newWebContext(parent context.Context, remote, local net.Addr) *webContext {
	ctx, cancel := context.WithCancel(parent)
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return &webContext{Context: ctx, cancel: cancel, id: hex.EncodeToString(b), remote: remote, local: local, values: map[any]any{}}
}

func (c *webContext) Value(key any) any {
	c.vmu.Lock()
	v, ok := c.values[key]
	c.vmu.Unlock()
	if ok {
		return v
	}
	return c.Context.Value(key)
}

func (c *webContext) SetValue(key, value any) {
	c.vmu.Lock()
	c.values[key] = value
	c.vmu.Unlock()
}

func (c *webContext) User() string          { return "" }
func (c *webContext) SessionID() string     { return c.id }
func (c *webContext) ClientVersion() string { return "browser" }
func (c *webContext) ServerVersion() string { return "" }
func (c *webContext) RemoteAddr() net.Addr  { return c.remote }
func (c *webContext) LocalAddr() net.Addr   { return c.local }
func (c *webContext) Permissions() *ssh.Permissions {
	return &ssh.Permissions{Permissions: &gossh.Permissions{}}
}
