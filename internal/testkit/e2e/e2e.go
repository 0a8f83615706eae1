// Package e2e is the end-to-end harness: it starts a real parlor server on 127.0.0.1:0
// with a temporary data directory, connects players with real SSH clients and PTYs,
// types keys, and reads each player's screen through a terminal emulator (x/vt).
// Only tests import it.
//
// Game time runs on a clock the harness moves: whenever a test waits for something,
// nothing has gone to or come from any client for a moment, and every client's last
// keys (or request) have been answered on its screen, the clock moves on by a step. So
// bots think, reveals unfold and results pauses end as fast as the machine allows, with
// the games' own timings, while a test's keys still land as promptly, in game time, as
// a quick player's. Nothing moves the clock while a test is not waiting, so a player's
// time limit never runs out while the test is typing.
package e2e

import (
	"bufio"
	"bytes"
	"context"
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
	"go.uber.org/goleak"
	gossh "golang.org/x/crypto/ssh"

	"parlor/internal/testkit/sshterm"
	"parlor/internal/testkit/testclock"
	"parlor/lobby"
	"parlor/server"
	"parlor/store"
)

// Wait is how long a test waits for something to appear before it fails.
const Wait = 15 * time.Second

const (
	// Step is how far game time moves at once. It is shorter than anything a test waits
	// to see (a reveal step, a results pause), so no screen a test looks for is skipped.
	Step = time.Second
	// settle is how long nothing must be sent or shown before game time moves: enough for
	// a table's update to reach every screen (the renderer draws at 30 frames a second).
	settle = 40 * time.Millisecond
	// poll is how often a waiting test looks at a screen again.
	poll = 10 * time.Millisecond
	// answerWait is how long game time waits for a client's keys (or request) to be
	// answered by some output: a slow server (the race detector, a busy box) must not
	// see a second of game time pass while a test's keys are still on their way.
	answerWait = 2 * time.Second
)

// Server is a running test server.
type Server struct {
	*server.Server
	pc       *pace // see timing
	paceOnce sync.Once
	t        testing.TB

	spread  atomic.Bool   // dial from a new loopback address each time
	sources atomic.Uint32 // loopback addresses used so far
	remote  net.Addr      // set by Attach: a parlor process started elsewhere
	logs    *logBuffer    // everything the server logged, for Logs

	stopOnce sync.Once
	stop     func() error // ends Serve and waits for it
}

// pace moves game time on when every client has settled; the servers of a cluster test
// share one, so game time is the same on every node.
type pace struct {
	clock *testclock.Clock // the game clock; nil when a test chose another
	quiet atomic.Int64     // UnixNano since when nothing has gone to or come from a client

	mu      sync.Mutex
	clients []*exchange
}

// Attach is a Server for a parlor process the test started itself (the real binary), so
// the same clients can talk to it; addr is its SSH address.
func Attach(t testing.TB, addr string) *Server {
	t.Helper()
	a, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return &Server{t: t, remote: a, pc: &pace{}}
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
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	return start(t, st, &pace{clock: testclock.New(time.Now())}, edit)
}

// StartNodes runs a server per store, all on one game clock, for a cluster test: the
// stores are views of the one store every node of a cluster reads (the table logs).
// edit(i, cfg) sets node i up.
func StartNodes(t testing.TB, stores []store.Store, edit func(i int, cfg *server.Config)) []*Server {
	t.Helper()
	p := &pace{clock: testclock.New(time.Now())}
	out := make([]*Server, len(stores))
	for i, st := range stores {
		out[i] = start(t, st, p, func(c *server.Config) { edit(i, c) })
	}
	return out
}

func start(t testing.TB, st store.Store, p *pace, edit func(*server.Config)) *Server {
	t.Helper()
	cfg := server.Defaults()
	cfg.Listen = "127.0.0.1:0"
	cfg.HTTP = "127.0.0.1:0"
	cfg.Web = "127.0.0.1:0"
	cfg.DataDir = t.TempDir()
	clock := p.clock
	cfg.Clock = clock
	if edit != nil {
		edit(&cfg)
	}
	// The log is kept (Logs) and, with -v, shown.
	logs := &logBuffer{}
	var w io.Writer = logs
	if testing.Verbose() {
		w = io.MultiWriter(logs, testWriter{t})
	}
	logger := log.NewWithOptions(w, log.Options{})
	s, err := server.Listen(cfg, st, logger)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	srv := &Server{Server: s, t: t, pc: p, logs: logs}
	if cfg.Clock != lobby.Clock(clock) {
		srv.pc = &pace{}
	}
	srv.stop = func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(20 * time.Second):
			return errors.New("server did not stop within 20 s")
		}
	}
	t.Cleanup(func() {
		if err := srv.Stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return srv
}

// Stop shuts the server down as SIGTERM does and waits until it has stopped; the
// test's cleanup does it for a server still running.
func (s *Server) Stop() error {
	var err error
	s.stopOnce.Do(func() {
		if s.stop != nil { // a Server made by hand: its test stops it
			err = s.stop()
		}
	})
	return err
}

// touch notes that something went to or came from a client: game time stands still
// until things settle.
func (s *Server) touch() { s.timing().quiet.Store(time.Now().UnixNano()) }

// Busy notes activity the harness does not see from its clients (a cluster's
// deliveries between nodes, on their way to a screen): game time stands still until
// things settle, as after a client's input or output.
func (s *Server) Busy() { s.touch() }

// timing is the server's pace; a Server made by hand around a server.Server (a test
// that starts its own) gets one without a game clock.
func (s *Server) timing() *pace {
	s.paceOnce.Do(func() {
		if s.pc == nil {
			s.pc = &pace{}
		}
	})
	return s.pc
}

// exchange is one client's input and the output that answers it.
type exchange struct {
	s           *Server
	sent, heard atomic.Int64 // UnixNano of the last input, the last output
}

func (s *Server) newExchange() *exchange {
	e := &exchange{s: s}
	p := s.timing()
	p.mu.Lock()
	p.clients = append(p.clients, e)
	p.mu.Unlock()
	return e
}

func (e *exchange) send() {
	e.sent.Store(time.Now().UnixNano())
	e.s.touch()
}

func (e *exchange) hear() {
	e.heard.Store(time.Now().UnixNano())
	e.s.touch()
}

// unanswered tells whether input went out and no output has come back since (for less
// than answerWait: some keys change nothing on screen).
func (e *exchange) unanswered(now time.Time) bool {
	sent := e.sent.Load()
	return sent > e.heard.Load() && now.Sub(time.Unix(0, sent)) < answerWait
}

// settled tells whether game time may move: nothing sent or shown for a moment, and
// every client's input answered.
func (p *pace) settled(last int64) bool {
	now := time.Now()
	if now.Sub(time.Unix(0, last)) < settle {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.clients {
		if e.unanswered(now) {
			return false
		}
	}
	return true
}

// Pause waits a moment, as a test does between looks at a screen; if nothing has gone
// to or come from any client for a while, game time moves on by a Step meanwhile.
func (s *Server) Pause() {
	time.Sleep(poll)
	s.letTimePass()
}

// letTimePass moves game time on by a Step if everything has settled; then the tables
// have ticked before it returns.
func (s *Server) letTimePass() {
	p := s.timing()
	if p.clock == nil {
		return
	}
	last := p.quiet.Load()
	if !p.settled(last) {
		return
	}
	// Only one waiting goroutine moves the clock per settled moment.
	if p.quiet.CompareAndSwap(last, time.Now().UnixNano()) {
		p.clock.Advance(Step)
	}
}

// Logs is what the server has logged so far (info and above), for a test of what must
// never be in a log.
func (s *Server) Logs() string {
	s.logs.mu.Lock()
	defer s.logs.mu.Unlock()
	return s.logs.b.String()
}

// logBuffer keeps a server's log lines, written from any goroutine.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// Key is a player's SSH identity.
type Key = sshterm.Key

// NewKey makes a fresh ed25519 key.
func NewKey(t testing.TB) Key {
	k, err := sshterm.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

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
	var source net.IP
	if s.spread.Load() {
		n := s.sources.Add(1)
		source = net.IPv4(127, 1, byte(n/250), byte(n%250+1))
	}
	c, err := sshterm.Dial(s.Addr().String(), user, key, source, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// FromManyAddresses makes every later connection come from its own loopback address
// (127.1.x.y), as real players do, so that the server's per-address connection limit
// does not turn away a load test's hundreds of clients.
func (s *Server) FromManyAddresses() { s.spread.Store(true) }

// Player is one SSH client with a PTY and a terminal emulator showing its screen.
type Player struct {
	t    testing.TB
	s    *Server
	ex   *exchange
	term *sshterm.Terminal
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
	ex := s.newExchange()
	term, err := sshterm.OpenAsking(s.dial(t, user, key), command, ptyW, ptyH, w, h, ex.hear)
	if err != nil {
		t.Fatal(err)
	}
	p := &Player{t: t, s: s, ex: ex, term: term}
	t.Cleanup(p.Close)
	return p
}

// Close ends the connection.
func (p *Player) Close() { p.term.Close() }

// IgnoreTerminal is the goleak option for the emulators' reply readers.
var IgnoreTerminal = goleak.IgnoreAnyFunction("parlor/internal/testkit/sshterm.answer")

// Press sends named keys ("enter", "up", …) or literal text, one after the other. A
// lone esc is followed by a pause, so the program does not read it as alt+next key.
func (p *Player) Press(keys ...string) {
	for _, k := range keys {
		p.ex.send()
		if err := p.term.Press(k); err != nil {
			p.t.Fatal(err)
		}
	}
}

// Paste sends text as a bracketed paste.
func (p *Player) Paste(text string) {
	p.ex.send()
	_, _ = io.WriteString(p.term, "\x1b[200~"+text+"\x1b[201~")
}

// Resize changes the window size.
func (p *Player) Resize(w, h int) {
	if err := p.term.Resize(w, h); err != nil {
		p.t.Fatal(err)
	}
}

// AskWindow sends a window-change request for w×h without resizing the screen.
func (p *Player) AskWindow(w, h int) error { return p.term.AskWindow(w, h) }

// Changed gets a value after new output has reached the screen (several writes may share
// one value), so a benchmark can time how soon something appears without busy polling.
// Only one goroutine should read it.
func (p *Player) Changed() <-chan struct{} { return p.term.Changed() }

// Screen is the text on the player's screen now.
func (p *Player) Screen() string { return p.term.Screen() }

// WaitFor waits until every text appears on the screen together (a sentence wrapped
// over lines counts), and returns the screen.
func (p *Player) WaitFor(texts ...string) string {
	p.t.Helper()
	return p.s.waitFor(p.t, p.Screen, texts)
}

// waitFor waits until every text is on screen(), letting game time pass meanwhile.
func (s *Server) waitFor(t testing.TB, screen func() string, texts []string) string {
	t.Helper()
	deadline := time.Now().Add(Wait)
	for {
		scr := screen()
		if Shows(scr, texts...) {
			return scr
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %q; the screen shows:\n%s", Wait, texts, scr)
		}
		s.Pause()
	}
}

// WaitInTurn waits until every player's screen has shown each of steps' texts in turn
// (a player is looked at for a step once it has shown the one before), and calls
// each(i, step), if set, as player i shows step. Every player's screen is looked at on
// each pass, so one that shows something only for a while (a reveal, a results pause)
// is not missed while another player's is waited for; game time passes meanwhile, as
// in WaitFor, and each step has Wait to show.
func WaitInTurn(t testing.TB, players []*Player, steps [][]string, each func(i, step int)) {
	t.Helper()
	at := make([]int, len(players))
	deadline := time.Now().Add(Wait)
	for {
		left := -1
		for i, p := range players {
			for at[i] < len(steps) && Shows(p.Screen(), steps[at[i]]...) {
				if each != nil {
					each(i, at[i])
				}
				at[i]++
				deadline = time.Now().Add(Wait)
			}
			if at[i] < len(steps) && left < 0 {
				left = i
			}
		}
		if left < 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for player %d to show %q; the screen shows:\n%s", Wait, left, steps[at[left]], players[left].Screen())
		}
		players[0].s.Pause()
	}
}

// Shows says whether every text is on scr. A sentence may wrap: it counts as shown
// when its words are, in order.
func Shows(scr string, texts ...string) bool {
	words := strings.Join(strings.Fields(scr), " ")
	for _, s := range texts {
		if !strings.Contains(scr, s) && !strings.Contains(words, strings.Join(strings.Fields(s), " ")) {
			return false
		}
	}
	return true
}

// WaitGone waits until text is no longer on the screen.
func (p *Player) WaitGone(text string) {
	p.t.Helper()
	deadline := time.Now().Add(Wait)
	for strings.Contains(p.Screen(), text) {
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for %q to go; the screen shows:\n%s", Wait, text, p.Screen())
		}
		p.s.Pause()
	}
}

// WaitUntil waits until cond holds, looking again after each Pause, and fails the test
// after Wait with what it waited for and the screen.
func (p *Player) WaitUntil(what string, cond func() bool) {
	p.t.Helper()
	deadline := time.Now().Add(Wait)
	for !cond() {
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for %s; the screen shows:\n%s", Wait, what, p.Screen())
		}
		p.s.Pause()
	}
}

// PressUntil presses key until text appears (at most n times). After each press it
// waits for the screen to change, so a slow screen does not make it press once too often.
func (p *Player) PressUntil(key, text string, n int) {
	p.t.Helper()
	for i := 0; i < n; i++ {
		if strings.Contains(p.Screen(), text) {
			return
		}
		// Wait longer than PressSeen for the press to show: a press sent before the
		// last was shown could go past the text (a busy machine running the race
		// detector took more than a second to show one, and the game list wrapped
		// round to its first game).
		p.pressSeen(key, pressShown)
	}
	p.WaitFor(text)
}

// pressShown is how long PressUntil waits for a press to show before it presses again.
const pressShown = 5 * time.Second

// PressSeen presses key and waits until the screen changes (for a second at most: a key
// may change nothing), so that what the test reads next is the key's doing.
func (p *Player) PressSeen(key string) { p.pressSeen(key, time.Second) }

func (p *Player) pressSeen(key string, most time.Duration) {
	before := p.Screen()
	p.Press(key)
	deadline := time.Now().Add(most)
	for p.Screen() == before && time.Now().Before(deadline) {
		time.Sleep(poll)
	}
}

var codeRE = regexp.MustCompile(`table ([A-Z]{8}|[A-Z]{4})\b`) // 8 letters for a private table

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
		p.s.Pause()
	}
}

// Ended waits for the session to end and returns its exit error.
func (p *Player) Ended() error {
	p.t.Helper()
	select {
	case <-p.term.Done():
	case <-time.After(Wait):
		p.t.Fatalf("the session did not end; the screen shows:\n%s", p.Screen())
	}
	return p.term.Exit()
}

// Run runs a command without a PTY and returns its output and exit error.
func (s *Server) Run(t testing.TB, key Key, command string) (stdout, stderr string, err error) {
	t.Helper()
	return s.RunInput(t, key, command, "")
}

// API is a JSON Lines client on "ssh host api".
type API struct {
	t     testing.TB
	s     *Server
	ex    *exchange
	c     *gossh.Client
	sess  *gossh.Session
	in    io.Writer
	lines chan map[string]any
	// Welcome is the first line the server sent.
	Welcome map[string]any
}

// API connects to the JSON interface. Like the ssh command, it hangs up once the server
// ends its session.
func (s *Server) API(t testing.TB, user string, key Key) *API {
	t.Helper()
	return s.api(t, user, key, false)
}

// LingeringAPI is an API client that keeps its connection open after the server ends its
// session, as a script that never hangs up does, until the test closes it.
func (s *Server) LingeringAPI(t testing.TB, user string, key Key) *API {
	t.Helper()
	return s.api(t, user, key, true)
}

func (s *Server) api(t testing.TB, user string, key Key, linger bool) *API {
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
	a := &API{t: t, s: s, ex: s.newExchange(), c: c, sess: sess, in: in, lines: make(chan map[string]any, 1024)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			a.ex.hear()
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"type": "unparsable", "raw": sc.Text()}
			}
			a.lines <- m
		}
		close(a.lines)
		if !linger {
			_ = sess.Wait()
			_ = c.Close()
		}
	}()
	t.Cleanup(a.Close)
	a.Welcome = a.Expect("welcome")
	return a
}

// Request sends a request on the API's session channel (RFC 4254 6), wanting no reply,
// as a client may send them whenever it likes.
func (a *API) Request(typ string, payload []byte) {
	a.t.Helper()
	if _, err := a.sess.SendRequest(typ, false, payload); err != nil {
		a.t.Fatal(err)
	}
}

// Close hangs up.
func (a *API) Close() {
	_ = a.sess.Close()
	_ = a.c.Close()
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
	a.ex.send()
	if _, err := a.in.Write(append(b, '\n')); err != nil {
		a.t.Fatal(err)
	}
}

// ErrClosed is returned by Next when the connection has ended.
var ErrClosed = errors.New("api connection closed")

// Next returns the next line, or an error after Wait. Game time passes while it waits.
func (a *API) Next() (map[string]any, error) {
	deadline := time.After(Wait)
	look := time.NewTicker(poll)
	defer look.Stop()
	for {
		select {
		case m, ok := <-a.lines:
			if !ok {
				return nil, ErrClosed
			}
			return m, nil
		case <-deadline:
			return nil, fmt.Errorf("no line from the API within %s", Wait)
		case <-look.C:
			a.s.letTimePass()
		}
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
