// Package e2e is the end-to-end harness: it starts a real parlor server on 127.0.0.1:0
// with a temporary data directory, connects players with real SSH clients and PTYs,
// types keys, and reads each player's screen through a terminal emulator (x/vt).
// Only tests import it.
package e2e

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"charm.land/log/v2"
	"github.com/charmbracelet/x/vt"
	"go.uber.org/goleak"
	gossh "golang.org/x/crypto/ssh"

	"parlor/server"
	"parlor/store"
)

// Wait is how long a test waits for something to appear before it fails.
const Wait = 15 * time.Second

// Server is a running test server.
type Server struct {
	*server.Server
	t testing.TB

	spread  atomic.Bool   // dial from a new loopback address each time
	sources atomic.Uint32 // loopback addresses used so far
	remote  net.Addr      // set by Attach: a parlor process started elsewhere
}

// Attach is a Server for a parlor process the test started itself (the real binary), so
// the same clients can talk to it; addr is its SSH address.
func Attach(t testing.TB, addr string) *Server {
	t.Helper()
	a, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return &Server{t: t, remote: a}
}

// Addr is the server's SSH address.
func (s *Server) Addr() net.Addr {
	if s.remote != nil {
		return s.remote
	}
	return s.Server.Addr()
}

// Start runs a server for the test; edit changes its configuration first.
func Start(t testing.TB, edit func(*server.Config)) *Server {
	t.Helper()
	cfg := server.Defaults()
	cfg.Listen = "127.0.0.1:0"
	cfg.HTTP = "127.0.0.1:0"
	cfg.DataDir = t.TempDir()
	if edit != nil {
		edit(&cfg)
	}
	st := store.NewMemory()
	logger := log.NewWithOptions(io.Discard, log.Options{})
	if testing.Verbose() {
		logger = log.New(testWriter{t})
	}
	s, err := server.Listen(cfg, st, logger)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Error("server did not stop within 20 s")
		}
		_ = st.Close()
	})
	return &Server{Server: s, t: t}
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// Key is a player's SSH identity.
type Key struct{ signer gossh.Signer }

// NewKey makes a fresh ed25519 key.
func NewKey(t testing.TB) Key {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return Key{s}
}

// Signer is the key as x/crypto uses it, for tests that dial by hand.
func (k Key) Signer() gossh.Signer { return k.signer }

// Guest is no key at all: keyboard-interactive without questions.
var Guest = Key{}

// Dial opens an SSH connection as user with key, for tests that drive the protocol by
// hand.
func (s *Server) Dial(t testing.TB, user string, key Key) *gossh.Client {
	t.Helper()
	return s.dial(t, user, key)
}

func (s *Server) dial(t testing.TB, user string, key Key) *gossh.Client {
	t.Helper()
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}
	if key.signer != nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(key.signer)}
	}
	cfg := &gossh.ClientConfig{
		User: user, Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second,
	}
	if !s.spread.Load() {
		c, err := gossh.Dial("tcp", s.Addr().String(), cfg)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		return c
	}
	n := s.sources.Add(1)
	d := net.Dialer{Timeout: cfg.Timeout, LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 1, byte(n/250), byte(n%250+1))}}
	conn, err := d.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	cc, chans, reqs, err := gossh.NewClientConn(conn, s.Addr().String(), cfg)
	if err != nil {
		_ = conn.Close()
		t.Fatalf("ssh handshake: %v", err)
	}
	return gossh.NewClient(cc, chans, reqs)
}

// FromManyAddresses makes every later connection come from its own loopback address
// (127.1.x.y), as real players do, so that the server's per-address connection limit
// does not turn away a load test's hundreds of clients.
func (s *Server) FromManyAddresses() { s.spread.Store(true) }

// Player is one SSH client with a PTY and a terminal emulator showing its screen.
type Player struct {
	t      testing.TB
	client *gossh.Client
	sess   *gossh.Session
	stdin  io.Writer
	term   *screen
	done   chan struct{} // closed when the session ends
	mu     sync.Mutex
	exit   error
}

// Connect opens an interactive session of w×h running command ("" for the lobby).
func (s *Server) Connect(t testing.TB, user string, key Key, command string, w, h int) *Player {
	t.Helper()
	return s.ConnectAsking(t, user, key, command, w, h, w, h)
}

// ConnectAsking is Connect for a client that asks for a ptyW×ptyH terminal while its
// screen is really w×h, as a hostile client may.
func (s *Server) ConnectAsking(t testing.TB, user string, key Key, command string, ptyW, ptyH, w, h int) *Player {
	t.Helper()
	c := s.dial(t, user, key)
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", ptyH, ptyW, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	stdin, _ := sess.StdinPipe()
	stdout, _ := sess.StdoutPipe()
	p := &Player{t: t, client: c, sess: sess, stdin: stdin, term: &screen{em: vt.NewEmulator(w, h), changed: make(chan struct{}, 1)}, done: make(chan struct{})}
	if command == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(command)
	}
	if err != nil {
		t.Fatal(err)
	}
	// The terminal answers the program's queries, as a real one does. (This reader is
	// never stopped: closing the emulator under it is a data race inside x/vt, so tests
	// tell goleak to ignore it with IgnoreTerminal.)
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := p.term.Read(buf)
			if n > 0 {
				_, _ = stdin.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		_, _ = io.Copy(p.term, stdout)
		err := sess.Wait()
		p.mu.Lock()
		p.exit = err
		p.mu.Unlock()
		close(p.done)
	}()
	t.Cleanup(p.Close)
	return p
}

// screen is an emulator behind a lock. (vt.SafeEmulator leaves String unlocked.) Read
// only touches the emulator's reply pipe, so it needs no lock, and must not hold one
// while it waits.
type screen struct {
	mu      sync.Mutex
	em      *vt.Emulator
	changed chan struct{} // gets a value (coalesced) after each write
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	n, err := s.em.Write(p)
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
	return n, err
}

func (s *screen) Read(p []byte) (int, error) { return s.em.Read(p) }

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.em.String()
}

func (s *screen) Resize(w, h int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.em.Resize(w, h)
}

// Close ends the connection.
func (p *Player) Close() {
	_ = p.sess.Close()
	_ = p.client.Close()
}

// IgnoreTerminal is the goleak option for the emulators' reply readers.
var IgnoreTerminal = goleak.IgnoreAnyFunction("parlor/internal/e2e.(*Server).ConnectAsking.func1")

// Keys that Type understands by name.
var named = map[string]string{
	"enter": "\r", "esc": "\x1b", "tab": "\t", "backspace": "\x7f", "space": " ",
	"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
	"ctrl+c": "\x03", "ctrl+u": "\x15",
}

// Press sends named keys ("enter", "up", …) or literal text, one after the other. A
// lone esc is followed by a pause, so the program does not read it as alt+next key.
func (p *Player) Press(keys ...string) {
	for _, k := range keys {
		seq, ok := named[k]
		if !ok {
			seq = k
		}
		if _, err := io.WriteString(p.stdin, seq); err != nil {
			p.t.Fatalf("typing %q: %v", k, err)
		}
		if k == "esc" {
			time.Sleep(150 * time.Millisecond)
		} else {
			time.Sleep(15 * time.Millisecond)
		}
	}
}

// Paste sends text as a bracketed paste.
func (p *Player) Paste(text string) {
	_, _ = io.WriteString(p.stdin, "\x1b[200~"+text+"\x1b[201~")
}

// Resize changes the window size.
func (p *Player) Resize(w, h int) {
	p.term.Resize(w, h)
	if err := p.sess.WindowChange(h, w); err != nil {
		p.t.Fatal(err)
	}
}

// AskWindow sends a window-change request for w×h without resizing the screen.
func (p *Player) AskWindow(w, h int) error { return p.sess.WindowChange(h, w) }

// Changed gets a value after new output has reached the screen (several writes may share
// one value), so a benchmark can time how soon something appears without busy polling.
// Only one goroutine should read it.
func (p *Player) Changed() <-chan struct{} { return p.term.changed }

// Screen is the text on the player's screen now.
func (p *Player) Screen() string { return p.term.String() }

// WaitFor waits until every text appears on the screen together, and returns the screen.
func (p *Player) WaitFor(texts ...string) string {
	p.t.Helper()
	deadline := time.Now().Add(Wait)
	for {
		scr := p.Screen()
		all := true
		for _, s := range texts {
			all = all && strings.Contains(scr, s)
		}
		if all {
			return scr
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for %q; the screen shows:\n%s", Wait, texts, scr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// WaitGone waits until text is no longer on the screen.
func (p *Player) WaitGone(text string) {
	p.t.Helper()
	deadline := time.Now().Add(Wait)
	for strings.Contains(p.Screen(), text) {
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for %q to go; the screen shows:\n%s", Wait, text, p.Screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// PressUntil presses key until text appears (at most n times).
func (p *Player) PressUntil(key, text string, n int) {
	p.t.Helper()
	for i := 0; i < n; i++ {
		if strings.Contains(p.Screen(), text) {
			return
		}
		p.Press(key)
		time.Sleep(60 * time.Millisecond)
	}
	p.WaitFor(text)
}

var codeRE = regexp.MustCompile(`table ([A-Z]{4})`)

// TableCode waits for a table code on the screen and returns it.
func (p *Player) TableCode() string {
	p.t.Helper()
	deadline := time.Now().Add(Wait)
	for {
		if m := codeRE.FindStringSubmatch(p.Screen()); m != nil {
			return m[1]
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("no table code on screen:\n%s", p.Screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Ended waits for the session to end and returns its exit error.
func (p *Player) Ended() error {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(Wait):
		p.t.Fatalf("the session did not end; the screen shows:\n%s", p.Screen())
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exit
}

// Run runs a command without a PTY and returns its output and exit error.
func (s *Server) Run(t testing.TB, key Key, command string) (stdout, stderr string, err error) {
	t.Helper()
	c := s.dial(t, "runner", key)
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	sess.Stdout, sess.Stderr = &out, &errb
	done := make(chan error, 1)
	go func() { done <- sess.Run(command) }()
	select {
	case err = <-done:
	case <-time.After(Wait):
		t.Fatalf("%q hung", command)
	}
	return out.String(), errb.String(), err
}

// API is a JSON Lines client on "ssh host api".
type API struct {
	t     testing.TB
	c     *gossh.Client
	sess  *gossh.Session
	in    io.Writer
	lines chan map[string]any
}

// API connects to the JSON interface.
func (s *Server) API(t testing.TB, user string, key Key) *API {
	t.Helper()
	c := s.dial(t, user, key)
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	if err := sess.Start("api"); err != nil {
		t.Fatal(err)
	}
	a := &API{t: t, c: c, sess: sess, in: in, lines: make(chan map[string]any, 1024)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"type": "unparsable", "raw": sc.Text()}
			}
			a.lines <- m
		}
		close(a.lines)
	}()
	t.Cleanup(func() { _ = sess.Close(); _ = c.Close() })
	a.Expect("welcome")
	return a
}

// Send writes one request (a map or struct, or a raw string line).
func (a *API) Send(req any) {
	a.t.Helper()
	var b []byte
	if s, ok := req.(string); ok {
		b = []byte(s)
	} else {
		b, _ = json.Marshal(req)
	}
	if _, err := a.in.Write(append(b, '\n')); err != nil {
		a.t.Fatal(err)
	}
}

// ErrClosed is returned by Next when the connection has ended.
var ErrClosed = errors.New("api connection closed")

// Next returns the next line, or fails the test after Wait.
func (a *API) Next() (map[string]any, error) {
	select {
	case m, ok := <-a.lines:
		if !ok {
			return nil, ErrClosed
		}
		return m, nil
	case <-time.After(Wait):
		return nil, fmt.Errorf("no line from the API within %s", Wait)
	}
}

// Poll returns the next line if one arrives within d; ok is false otherwise, or once the
// connection has ended.
func (a *API) Poll(d time.Duration) (m map[string]any, ok bool) {
	select {
	case m, ok = <-a.lines:
		return m, ok
	case <-time.After(d):
		return nil, false
	}
}

// Expect skips lines until one of type typ arrives (and fails on an unexpected error).
func (a *API) Expect(typ string) map[string]any {
	a.t.Helper()
	for {
		m, err := a.Next()
		if err != nil {
			a.t.Fatalf("waiting for %q: %v", typ, err)
		}
		if m["type"] == typ {
			return m
		}
		if m["type"] == "error" && typ != "error" {
			a.t.Fatalf("waiting for %q: got error %v", typ, m["error"])
		}
	}
}

// Until skips lines until cond holds for one and returns it.
func (a *API) Until(what string, cond func(map[string]any) bool) map[string]any {
	a.t.Helper()
	for {
		m, err := a.Next()
		if err != nil {
			a.t.Fatalf("waiting for %s: %v", what, err)
		}
		if cond(m) {
			return m
		}
	}
}

// Addr is the server's address as host:port.
func (s *Server) AddrString() string { return s.Addr().(*net.TCPAddr).String() }
