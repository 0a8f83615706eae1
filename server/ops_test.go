package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlor/internal/e2e"
	"parlor/server"
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
	for _, want := range []string{"parlor_sessions 1", "parlor_tables_open 1", "parlor_fanout_seconds_count"} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

func TestIdlePlayersAreDisconnected(t *testing.T) {
	s := e2e.Start(t, func(c *server.Config) { c.IdleTimeout = 1500 * time.Millisecond })
	p := s.Connect(t, "sleepy", e2e.NewKey(t), "", 80, 24)
	p.WaitFor("Welcome to parlor")
	p.Ended()
	p.WaitFor("without a key press")

	api := s.API(t, "bot", e2e.NewKey(t))
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
		p.WaitFor("The server is shutting down")
	}
	api.Expect("bye")
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(12 * time.Second):
		t.Fatal("Serve did not return within 12 s")
	}
}
