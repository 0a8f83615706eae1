package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/testlog"
	"parlor/server"
	"parlor/store"
)

func TestMetricsAndHealth(t *testing.T) {
	s := e2e.Start(t, nil)
	p, _ := newPlayer(t, s, "Ann")
	createTable(t, p, "Pick")
	get := func(path string) string {
		res, err := http.Get("http://" + s.HTTPAddr() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %s", path, res.Status)
		}
		return string(b)
	}
	if got := get("/healthz"); got != "ok\n" {
		t.Fatalf("healthz = %q", got)
	}
	m := get("/metrics")
	for _, want := range []string{"parlor_sessions 1", "parlor_tables_open 1", "parlor_fanout_seconds_count",
		`parlor_build_info{goversion="go`, `parlor_connections{state="authenticated"} 1`} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

func TestIdlePlayersAreDisconnected(t *testing.T) {
	t.Parallel() // its own servers; it waits on its game and the cluster more than it computes
	s := e2e.Start(t, func(c *server.Config) { c.IdleTimeout = 1500 * time.Millisecond })
	p := s.Connect(t, "sleepy", e2e.NewKey(t), "", 80, 24)
	api := s.API(t, "bot", e2e.NewKey(t)) // idle at the same time as p
	p.WaitFor("Welcome to parlor")
	p.Ended()
	p.WaitFor("without a key press")

	if m := api.Expect("bye"); !strings.Contains(m["reason"].(string), "without a request") {
		t.Fatalf("api idle: %v", m)
	}
}

func TestMaxSessions(t *testing.T) {
	s := e2e.Start(t, func(c *server.Config) { c.MaxSessions = 1 })
	p := s.Connect(t, "first", e2e.NewKey(t), "", 80, 24)
	p.WaitFor("Welcome to parlor")
	_, stderr, err := s.Run(t, e2e.NewKey(t), "help")
	if err == nil || !strings.Contains(stderr, "parlor is full right now") {
		t.Fatalf("second session: err=%v stderr=%q", err, stderr)
	}
}

// TestShutdownSaysGoodbye stops a server with players in the lobby, at a table and on
// the API: each is told, and Serve returns.
func TestShutdownSaysGoodbye(t *testing.T) {
	s, stop, done := startServer(t, func(c *server.Config) { c.HTTP = "" })

	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Pick")
	ben, _ := newPlayer(t, s, "Ben")
	api := s.API(t, "cat", e2e.NewKey(t))
	api.Send(map[string]any{"op": "join", "code": code})
	api.Expect("joined")

	stop()
	for _, p := range []*e2e.Player{ann, ben} {
		p.Ended()
		p.WaitFor("parlor is restarting; your table will be here when it is back.")
	}
	api.Expect("bye")
	api.Close() // hangs up after the goodbye, as a client does: the server need not wait
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(12 * time.Second):
		t.Fatal("Serve did not return within 12 s")
	}
}

// healthz returns /healthz's status code and text.
func healthz(t *testing.T, s *e2e.Server) (int, string) {
	t.Helper()
	res, err := http.Get("http://" + s.HTTPAddr() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestHealthzWhenTheDataDirectoryIsGone: a server that cannot write its data is
// unhealthy, and says why.
func TestHealthzWhenTheDataDirectoryIsGone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s := e2e.Start(t, func(c *server.Config) { c.DataDir = dir })
	if code, body := healthz(t, s); code != 200 {
		t.Fatalf("healthz = %d %q", code, body)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if code, body := healthz(t, s); code != http.StatusServiceUnavailable || !strings.Contains(body, "not writable") {
		t.Fatalf("healthz without a data directory = %d %q", code, body)
	}
}

// TestHealthzWhileShuttingDown: a load balancer stops sending players as soon as the
// shutdown starts, while the players still there are saying goodbye.
func TestHealthzWhileShuttingDown(t *testing.T) {
	t.Parallel() // its own server, waiting out a shutdown's grace for most of its time
	s, stop, done := startServer(t, nil)
	api := s.LingeringAPI(t, "lingers", e2e.NewKey(t)) // keeps its connection open after the goodbye
	stop()
	api.Expect("bye")
	code, body := healthz(t, s) // the server waits for the lingering connection
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "shutting down") {
		t.Fatalf("healthz while shutting down = %d %q", code, body)
	}
	<-done
}

// TestSessionLogLine: each session leaves one INFO line, with what an operator needs to
// tell players apart: key fingerprint, terminal, window size and client version.
func TestSessionLogLine(t *testing.T) {
	var logs testlog.Buffer
	s, stop, done := startLogging(t, func(c *server.Config) { c.LogFormat = "json" }, &logs)
	defer func() { stop(); <-done }()
	key := e2e.NewKey(t)
	p := s.Connect(t, "ann", key, "", 100, 30)
	p.WaitFor("Welcome to parlor")
	// Through a size that shows another screen, so the test knows the server has each
	// size before it goes on (a window-change is not answered).
	p.Resize(40, 10)
	p.WaitFor("It is 40×10 now")
	p.Resize(90, 28)
	p.WaitFor("Welcome to parlor")
	p.Press("ctrl+c")
	p.Ended()
	var line map[string]any
	eventually(t, "the session's log line", func() bool {
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, `"msg":"session"`) {
				return json.Unmarshal([]byte(l), &line) == nil
			}
		}
		return false
	})
	want := map[string]string{"level": "info", "key": gossh.FingerprintSHA256(key.Signer().PublicKey()), "term": "xterm-256color",
		"window": "90×28", "client": "SSH-2.0-Go", "user": "ann", "cmd": "tui"}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("log line %s = %v, want %q (line %v)", k, line[k], v, line)
		}
	}
	if n := strings.Count(logs.String(), `"level":"info"`); n != 1 {
		t.Errorf("%d INFO lines for one connection:\n%s", n, logs.String())
	}
}

// brokenStore is a store whose disk has gone away: every write fails.
type brokenStore struct{ store.Store }

func (brokenStore) SavePlayer(context.Context, store.Player) error {
	return errors.New("disk I/O error")
}

// TestHealthzWhenTheStoreCannotBeWritten: a failed write makes parlor unhealthy.
func TestHealthzWhenTheStoreCannotBeWritten(t *testing.T) {
	t.Parallel() // its own server, waiting out a shutdown's grace for most of its time
	mem := store.NewMemory()
	defer mem.Close()
	s, stop, done := startWith(t, nil, io.Discard, brokenStore{mem})
	defer func() { stop(); <-done }()
	if code, body := healthz(t, s); code != 200 {
		t.Fatalf("healthz = %d %q", code, body)
	}
	api := s.API(t, "ann", e2e.NewKey(t))
	api.Send(map[string]any{"op": "hello", "name": "Ann"})
	api.Expect("error")
	if code, body := healthz(t, s); code != http.StatusServiceUnavailable || !strings.Contains(body, "disk I/O error") {
		t.Fatalf("healthz after a failed write = %d %q", code, body)
	}
}
