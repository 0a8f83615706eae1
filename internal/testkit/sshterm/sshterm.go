// Package sshterm is a real terminal player: an SSH client (x/crypto/ssh) with a PTY whose
// output goes through a terminal emulator (x/vt), so what a player would see can be read
// as text. The end-to-end tests (internal/testkit/e2e) and the load generator
// (cmd/parlor-load) both drive these clients; this package needs no *testing.T.
package sshterm

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"
)

// Key is a player's SSH identity; the zero Key is a guest (no key at all).
type Key struct{ signer gossh.Signer }

// Signer is the key as x/crypto uses it, for tests that dial by hand.
func (k Key) Signer() gossh.Signer { return k.signer }

// Fingerprint is the key's SHA256 fingerprint, as the server names players (and admins).
func (k Key) Fingerprint() string { return gossh.FingerprintSHA256(k.signer.PublicKey()) }

// NewKey makes a fresh ed25519 key.
func NewKey() (Key, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return Key{}, err
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return Key{}, err
	}
	return Key{s}, nil
}

// Dial connects and authenticates as user with key (keyboard-interactive without
// questions for a guest). A non-nil source is the local address to dial from: players
// from many loopback addresses (127.x.y.z) are not all held to one address's limit.
func Dial(addr, user string, key Key, source net.IP, timeout time.Duration) (*gossh.Client, error) {
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}
	if key.signer != nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(key.signer)}
	}
	cfg := &gossh.ClientConfig{User: user, Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: timeout}
	d := net.Dialer{Timeout: timeout}
	if source != nil {
		d.LocalAddr = &net.TCPAddr{IP: source}
	}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	if timeout > 0 {
		_ = conn.SetDeadline(time.Now().Add(timeout))
	}
	cc, chans, reqs, err := gossh.NewClientConn(conn, addr, cfg)
	if err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("ssh handshake with %s: %w", addr, err)
	}
	_ = conn.SetDeadline(time.Time{})
	return gossh.NewClient(cc, chans, reqs), nil
}

// Terminal is one interactive session of a client: a PTY of a fixed size (or, from
// OpenStream, another connection's terminal) and an emulator showing its screen.
type Terminal struct {
	hangup func()               // ends the connection
	window func(w, h int) error // tells the program the window's new size
	stdin  io.Writer
	scr    *screen
	done   chan struct{} // closed when the session ends
	mu     sync.Mutex
	exit   error
}

// OpenAsking starts an interactive session on c running command ("" for a shell), for
// a client that asks for a ptyW×ptyH terminal while its screen is w×h (the same, or
// not, as a hostile client may). onOutput, if not nil, is called after each piece of
// output reaches the screen. The client is closed when the session ends, as ssh does.
func OpenAsking(c *gossh.Client, command string, ptyW, ptyH, w, h int, onOutput func()) (*Terminal, error) {
	return OpenOn(c, command, ptyW, ptyH, NewScreen(w, h), onOutput)
}

// Screen is a terminal's screen before it connects, as a player's terminal window is
// open before they type ssh. Making its emulator is most of what a client costs to
// set up (two screens of cells), so the load generator makes every player's before
// it starts counting logins.
type Screen struct{ scr *screen }

// NewScreen makes a w×h screen for OpenOn.
func NewScreen(w, h int) *Screen {
	return &Screen{&screen{em: vt.NewEmulator(w, h), changed: make(chan struct{}, 1), wrote: func() {}}}
}

// OpenOn is OpenAsking on a screen made beforehand; a screen serves one session.
func OpenOn(c *gossh.Client, command string, ptyW, ptyH int, on *Screen, onOutput func()) (*Terminal, error) {
	sess, err := c.NewSession()
	if err != nil {
		return nil, err
	}
	if err := sess.RequestPty("xterm-256color", ptyH, ptyW, gossh.TerminalModes{}); err != nil {
		_ = sess.Close()
		return nil, err
	}
	pipe, _ := sess.StdinPipe()
	// The emulator's replies (answer) and the keys typed (Write, Press) come from
	// different goroutines, and x/crypto's channel is not safe for concurrent writes: its
	// WriteExtended builds every packet in one buffer per channel, so two writes at once
	// can send a packet whose length does not match its data, and the server drops the
	// connection ("ssh: wrong packet length"). Every write goes through one lock.
	stdin := &LockedWriter{W: pipe}
	stdout, _ := sess.StdoutPipe()
	if onOutput == nil {
		onOutput = func() {}
	}
	on.scr.wrote = onOutput
	t := &Terminal{
		hangup: func() { _ = sess.Close(); _ = c.Close() },
		window: func(w, h int) error { return sess.WindowChange(h, w) },
		stdin:  stdin, scr: on.scr, done: make(chan struct{}),
	}
	if command == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(command)
	}
	if err != nil {
		_ = sess.Close()
		return nil, err
	}
	// The terminal answers the program's queries, as a real one does. (This reader is
	// never stopped: closing the emulator under it is a data race inside x/vt, so tests
	// tell goleak to ignore it.)
	go answer(t.scr, stdin)
	go func() {
		_, _ = io.Copy(t.scr, stdout)
		err := sess.Wait()
		_ = c.Close() // as ssh does when its session ends; a server shutting down waits for that
		t.mu.Lock()
		t.exit = err
		t.mu.Unlock()
		close(t.done)
	}()
	return t, nil
}

// OpenStream runs a terminal on a screen made beforehand over a connection that is not
// an SSH session (the browser door's WebSocket, for the load generator): out is what
// the program writes, in takes what is typed (and the terminal's answers), window
// tells the program a new size, and hangup ends the connection. The session ends when
// out does.
func OpenStream(on *Screen, in io.Writer, out io.Reader, window func(w, h int) error, hangup func(), onOutput func()) *Terminal {
	if onOutput == nil {
		onOutput = func() {}
	}
	on.scr.wrote = onOutput
	stdin := &LockedWriter{W: in}
	t := &Terminal{hangup: hangup, window: window, stdin: stdin, scr: on.scr, done: make(chan struct{})}
	go answer(t.scr, stdin)
	go func() {
		_, err := io.Copy(t.scr, out)
		hangup()
		t.mu.Lock()
		t.exit = err
		t.mu.Unlock()
		close(t.done)
	}()
	return t
}

// LockedWriter lets several goroutines write to W, one write at a time.
type LockedWriter struct {
	mu sync.Mutex
	W  io.Writer
}

func (l *LockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.W.Write(p)
}

// answer copies the emulator's replies (to the program's terminal queries) to stdin.
func answer(scr *screen, stdin io.Writer) {
	buf := make([]byte, 256)
	for {
		n, err := scr.Read(buf)
		if n > 0 {
			_, _ = stdin.Write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// Close ends the connection.
func (t *Terminal) Close() { t.hangup() }

// Write sends raw input (keys, a paste) to the program.
func (t *Terminal) Write(p []byte) (int, error) { return t.stdin.Write(p) }

// Resize changes the window size.
func (t *Terminal) Resize(w, h int) error {
	t.scr.Resize(w, h)
	return t.window(w, h)
}

// AskWindow sends a window-change request for w×h without resizing the screen.
func (t *Terminal) AskWindow(w, h int) error { return t.window(w, h) }

// Changed gets a value after new output has reached the screen (several writes may share
// one value), so a watcher can look again without busy polling. Only one goroutine
// should read it.
func (t *Terminal) Changed() <-chan struct{} { return t.scr.changed }

// Screen is the text on the screen now.
func (t *Terminal) Screen() string { return t.scr.String() }

// Row is the text of row y (from 0) of Screen, read alone: a watcher that knows where
// to look reads 80 cells instead of the whole screen.
func (t *Terminal) Row(y int) string { return t.scr.Row(y) }

// Done is closed when the session has ended.
func (t *Terminal) Done() <-chan struct{} { return t.done }

// Exit is the session's exit error, once Done is closed.
func (t *Terminal) Exit() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.exit
}

// screen is an emulator behind a lock. (vt.SafeEmulator leaves String unlocked.) Read
// only touches the emulator's reply pipe, so it needs no lock, and must not hold one
// while it waits.
type screen struct {
	mu      sync.Mutex
	em      *vt.Emulator
	changed chan struct{} // gets a value (coalesced) after each write
	wrote   func()        // called after each write
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	n, err := s.em.Write(p)
	s.mu.Unlock()
	s.wrote()
	select {
	case s.changed <- struct{}{}:
	default:
	}
	return n, err
}

func (s *screen) Read(p []byte) (int, error) { return s.em.Read(p) }

// String is the text on the screen, as Emulator.String gives it: each row's cells
// without its trailing spaces, rows joined by newlines. Written out here because
// Emulator.String compares every cell with a blank one, style and all, and under load
// that was a third of the load generator's CPU, on the same cores as the server it
// measures. A wide character's second column holds no content, so it adds nothing.
func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, h := s.em.Width(), s.em.Height()
	var b strings.Builder
	b.Grow((w + 1) * h)
	for y := range h {
		if y > 0 {
			b.WriteByte('\n')
		}
		s.rowInto(&b, y, w)
	}
	return b.String()
}

// Row is row y of String (empty past the screen's last row).
func (s *screen) Row(y int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if y < 0 || y >= s.em.Height() {
		return ""
	}
	var b strings.Builder
	w := s.em.Width()
	b.Grow(w)
	s.rowInto(&b, y, w)
	return b.String()
}

// rowInto writes row y's text, without its trailing spaces; s.mu is held.
func (s *screen) rowInto(b *strings.Builder, y, w int) {
	spaces := 0 // blanks not yet written: a row's trailing ones never are
	for x := range w {
		c := s.em.CellAt(x, y)
		switch {
		case c == nil || c.Content == "":
		case c.Content == " ":
			spaces++
		default:
			for ; spaces > 0; spaces-- {
				b.WriteByte(' ')
			}
			if len(c.Content) == 1 {
				b.WriteByte(c.Content[0])
			} else {
				b.WriteString(c.Content)
			}
		}
	}
}

func (s *screen) Resize(w, h int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.em.Resize(w, h)
}

// Keys that Press understands by name.
var named = map[string]string{
	"enter": "\r", "esc": "\x1b", "tab": "\t", "backspace": "\x7f", "space": " ",
	"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
	"ctrl+c": "\x03", "ctrl+u": "\x15",
}

// Press sends one named key ("enter", "up", …) or literal text, then pauses as a typist
// does: a lone esc is followed by a longer pause, so the program does not read it as
// alt+next key.
func (t *Terminal) Press(key string) error {
	seq, ok := named[key]
	if !ok {
		seq = key
	}
	if _, err := io.WriteString(t.stdin, seq); err != nil {
		return fmt.Errorf("typing %q: %w", key, err)
	}
	if key == "esc" {
		time.Sleep(150 * time.Millisecond)
	} else {
		time.Sleep(15 * time.Millisecond)
	}
	return nil
}

// Write shows what a program wrote, for a screen fed by something other than an SSH
// session (a test's browser-door client); Answer must run meanwhile.
func (s *Screen) Write(p []byte) (int, error) { return s.scr.Write(p) }

// String is the text on the screen now.
func (s *Screen) String() string { return s.scr.String() }

// Answer copies the emulator's replies to the program's terminal queries to w, until
// the program ends, on a goroutine of its own beside the writes. (As for an SSH
// terminal's screen, it is never closed: goleak is told to ignore it, IgnoreTerminal.)
func (s *Screen) Answer(w io.Writer) { answer(s.scr, w) }

// KeySequence is what a terminal sends for a named key ("enter", "up", …), or key
// itself when it names none.
func KeySequence(key string) string {
	if seq, ok := named[key]; ok {
		return seq
	}
	return key
}
