package server_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/testlog"
	"parlor/server"
)

// metric reads one series from the server's /metrics ("name" or `name{label="v"}`);
// a series not there yet reads 0.
func metric(t *testing.T, s *e2e.Server, series string) float64 {
	t.Helper()
	res, err := http.Get("http://" + s.HTTPAddr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	return 0
}

// eventually waits (boundedly) until cond holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(e2e.Wait); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", e2e.Wait, what)
		}
	}
}

func refused(reason string) string { return fmt.Sprintf(`parlor_refused_total{reason=%q}`, reason) }

// TestSilentConnectionsAreCappedAndClosed: one address opening 200 connections that
// never speak holds at most --per-ip-unauthenticated of them, and only until
// --login-grace.
func TestSilentConnectionsAreCappedAndClosed(t *testing.T) {
	t.Parallel() // its own server, waiting out a grace for most of its time
	var logs testlog.Buffer
	s, stop, done := startLogging(t, func(c *server.Config) { c.LoginGrace = time.Second }, &logs)
	defer func() { stop(); <-done }()
	var conns []net.Conn
	for i := 0; i < 200; i++ {
		c, err := net.Dial("tcp", s.AddrString())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	if n := metric(t, s, `parlor_connections{state="login"}`); n > float64(server.Defaults().PerIPUnauthenticated) {
		t.Fatalf("%v connections from one address are logging in at once", n)
	}
	var wg sync.WaitGroup
	open := 0
	var mu sync.Mutex
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.SetReadDeadline(time.Now().Add(e2e.Wait))
			if _, err := io.Copy(io.Discard, c); err != nil { // a timeout: still open
				mu.Lock()
				open++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if open > 0 {
		t.Fatalf("%d silent connections were still open after %s", open, e2e.Wait)
	}
	for _, r := range []string{"per_ip_rate", "per_ip_unauthenticated", "login_grace"} {
		if metric(t, s, refused(r)) == 0 {
			t.Errorf("no refusal counted as %s", r)
		}
	}
	eventually(t, "the gate to count no connection", func() bool { return metric(t, s, `parlor_connections{state="login"}`) == 0 })
	if n := strings.Count(logs.String(), "refused a connection"); n != 1 {
		t.Errorf("%d log lines for one address's refusals in a minute, want 1:\n%s", n, logs.String())
	}
}

// TestEveryLoggedInConnectionCounts: a connection that logged in and holds no session
// still takes one of the --max-sessions places.
func TestEveryLoggedInConnectionCounts(t *testing.T) {
	s := e2e.Start(t, func(c *server.Config) { c.MaxSessions = 1 })
	bare := s.Dial(t, "bare", e2e.NewKey(t))
	defer bare.Close()
	_, stderr, err := s.Run(t, e2e.NewKey(t), "help")
	if err == nil || !strings.Contains(stderr, "parlor is full right now") {
		t.Fatalf("second connection: err=%v stderr=%q", err, stderr)
	}
	if metric(t, s, refused("full")) != 1 {
		t.Errorf("refusals for a full server = %v", metric(t, s, refused("full")))
	}
}

// TestLoggedInWithoutASessionIsClosed: a connection that logs in and opens no session,
// or opens one and never says what to run, is closed after --session-grace.
func TestLoggedInWithoutASessionIsClosed(t *testing.T) {
	t.Parallel() // its own server, waiting out a grace for most of its time
	s := e2e.Start(t, func(c *server.Config) { c.SessionGrace = time.Second })
	bare := s.Dial(t, "bare", e2e.NewKey(t))
	idle := s.Dial(t, "idle", e2e.NewKey(t))
	if _, err := idle.NewSession(); err != nil { // a channel, but no shell or command
		t.Fatal(err)
	}
	for _, c := range []*gossh.Client{bare, idle} {
		closed := make(chan struct{})
		go func() { _ = c.Wait(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(e2e.Wait):
			t.Fatalf("a connection without a session was still open after %s", e2e.Wait)
		}
	}
	if metric(t, s, refused("no_session")) != 2 {
		t.Errorf("refusals for no session = %v, want 2", metric(t, s, refused("no_session")))
	}
}

// TestGuestsOffTellsAGuestToMakeAKey: with --guests=false a client without a key is
// refused, and told to make a key (ssh prints the challenge's instruction).
func TestGuestsOffTellsAGuestToMakeAKey(t *testing.T) {
	s := e2e.Start(t, func(c *server.Config) { c.Guests = false })
	var told string
	cfg := &gossh.ClientConfig{User: "guest", HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second,
		Auth: []gossh.AuthMethod{gossh.KeyboardInteractive(func(_, instruction string, questions []string, _ []bool) ([]string, error) {
			told += instruction
			return make([]string, len(questions)), nil
		})}}
	c, err := gossh.Dial("tcp", s.AddrString(), cfg)
	if err == nil {
		c.Close()
		t.Fatal("a guest got in with guests off")
	}
	if !strings.Contains(told, "players with an SSH key only") || !strings.Contains(told, "ssh-keygen -t ed25519") {
		t.Fatalf("the guest was told %q", told)
	}
	if _, _, err := s.Run(t, e2e.NewKey(t), "help"); err != nil {
		t.Fatalf("a player with a key: %v", err)
	}
}

// TestProxyProtocol: behind a trusted load balancer the PROXY header names the player;
// from any other address a PROXY header is not believed.
func TestProxyProtocol(t *testing.T) {
	var logs testlog.Buffer
	s, stop, done := startLogging(t, func(c *server.Config) {
		c.ProxyProtocol = []string{"127.0.0.1"}
		c.LogFormat = "json"
	}, &logs)
	defer func() { stop(); <-done }()
	key := e2e.NewKey(t)

	viaProxy := func(from, header string) error {
		d := net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		conn, err := d.Dial("tcp", s.AddrString())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if header != "" {
			if _, err := io.WriteString(conn, header); err != nil {
				return err
			}
		}
		cfg := &gossh.ClientConfig{User: "lb", Auth: []gossh.AuthMethod{gossh.PublicKeys(key.Signer())},
			HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second}
		cc, chans, reqs, err := gossh.NewClientConn(conn, s.AddrString(), cfg)
		if err != nil {
			return err
		}
		c := gossh.NewClient(cc, chans, reqs)
		defer c.Close()
		sess, err := c.NewSession()
		if err != nil {
			return err
		}
		_, err = sess.Output("help")
		return err
	}

	if err := viaProxy("127.0.0.1", "PROXY TCP4 203.0.113.7 127.0.0.1 40000 2222\r\n"); err != nil {
		t.Fatalf("through the load balancer: %v", err)
	}
	eventually(t, "the session's log line", func() bool { return strings.Contains(logs.String(), `"remote":"203.0.113.7:40000"`) })

	if err := viaProxy("127.0.0.1", ""); err == nil {
		t.Fatal("the load balancer's address got in without a PROXY header")
	}
	if metric(t, s, refused("proxy_header")) != 1 {
		t.Errorf("refusals for a missing PROXY header = %v", metric(t, s, refused("proxy_header")))
	}

	_ = viaProxy("127.0.0.2", "PROXY TCP4 203.0.113.9 127.0.0.1 40000 2222\r\n") // may or may not get in
	if strings.Contains(logs.String(), "203.0.113.9") {
		t.Fatalf("a PROXY header from an untrusted address was believed:\n%s", logs.String())
	}
}

// TestSessionsPerConnection: one connection may hold a few sessions (as OpenSSH's
// ControlMaster does), not any number.
func TestSessionsPerConnection(t *testing.T) {
	s := e2e.Start(t, nil)
	c := s.Dial(t, "many", e2e.NewKey(t))
	defer c.Close()
	var err error
	opened := 0
	for ; opened < 10 && err == nil; opened++ {
		_, err = c.NewSession()
	}
	if err == nil || !strings.Contains(err.Error(), "at most 4 sessions") {
		t.Fatalf("opened %d sessions on one connection (last error %v)", opened, err)
	}
}
