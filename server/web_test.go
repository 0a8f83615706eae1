package server_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"parlor/internal/testkit/e2e"
	"parlor/server"
)

// The browser door's wire, spoken from Go: the same session as SSH, and what hostile
// input gets. (e2e_web_test.go drives a real browser.)

// webGuest opens a guest browser session and picks a name.
func webGuest(t *testing.T, s *e2e.Server, hello e2e.WebHello, name string) *e2e.WebPlayer {
	t.Helper()
	p := s.ConnectWeb(t, hello, 80, 24)
	if p.Welcome["guest"] != true {
		t.Fatalf("welcome %v; want a guest", p.Welcome)
	}
	p.WaitFor("Welcome to parlor", "guest")
	p.Press("ctrl+u", name, "enter")
	return p
}

func TestWebGuestMeetsAnSSHPlayerAtATable(t *testing.T) {
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Pick")
	// The table gives its link beside its code, now that the door is on.
	ann.WaitFor("http://HOST:")

	bea := webGuest(t, s, e2e.WebHello{Join: code}, "Bea")
	bea.WaitFor("table "+code, "Ann", "Bea")
	ann.WaitFor("Bea sits down")
	bea.Press("enter", "hello from a browser", "enter")
	ann.WaitFor("Bea: hello from a browser")

	// A resize reaches the session: the screen is drawn for the new size. An absurd
	// one is clamped (termrt.Clamp) and harms nothing.
	if err := bea.Send(`{"type":"resize","cols":70,"rows":24}`); err != nil {
		t.Fatal(err)
	}
	bea.WaitFor("enlarge")
	if err := bea.Send(`{"type":"resize","cols":1000000000000,"rows":-1000000000000}`); err != nil {
		t.Fatal(err)
	}
	if err := bea.Send(`{"type":"resize","cols":80,"rows":24}`); err != nil {
		t.Fatal(err)
	}
	bea.WaitFor("table " + code)
	if n := metric(t, s, "parlor_web_sessions"); n != 1 {
		t.Errorf("parlor_web_sessions = %v; want 1", n)
	}
}

// A message the page never sends ends the session with a reason; the server and the
// other sessions go on.
func TestWebHostileMessagesCloseOnlyTheirSession(t *testing.T) {
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	for _, c := range []struct {
		name string
		send func(p *e2e.WebPlayer) error
		code websocket.StatusCode
	}{
		{"malformed control", func(p *e2e.WebPlayer) error { return p.Send("{not json") }, websocket.StatusUnsupportedData},
		{"unknown control", func(p *e2e.WebPlayer) error { return p.Send(`{"type":"shell"}`) }, websocket.StatusUnsupportedData},
		{"oversized input", func(p *e2e.WebPlayer) error {
			_, err := p.Write(make([]byte, 1<<20))
			return err
		}, websocket.StatusMessageTooBig},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := s.ConnectWeb(t, e2e.WebHello{}, 80, 24)
			p.WaitFor("Welcome to parlor")
			_ = c.send(p)
			if got := p.Closed(); got.Code != c.code {
				t.Fatalf("closed with %v; want %v", got, c.code)
			}
		})
	}
	// A hello that is not one.
	conn, _, err := s.DialWeb(t, "")
	if err != nil {
		t.Fatal(err)
	}
	e2e.ReadChallenge(t, conn)
	ctx, cancel := context.WithTimeout(context.Background(), e2e.Wait)
	defer cancel()
	_ = conn.Write(ctx, websocket.MessageBinary, []byte("GET / HTTP/1.0"))
	if _, _, err := conn.Read(ctx); websocket.CloseStatus(err) != websocket.StatusUnsupportedData {
		t.Fatalf("a binary hello: %v", err)
	}
	ann.PressSeen("?")
	ann.WaitFor("help & rules") // the server goes on
}

// The door's responses carry the security headers; the page's addresses and assets
// are served, nothing else is listed.
func TestWebPagesAndHeaders(t *testing.T) {
	s := e2e.Start(t, nil)
	for _, c := range []struct {
		path, want string
		status     int
	}{
		{"/", "<title>parlor</title>", 200},
		{"/t/ABCD", "/assets/parlor.js", 200},
		{"/w/ABCDEFGH", "/assets/parlor.js", 200},
		{"/assets/xterm/xterm.mjs", "Terminal", 200},
		{"/assets/xterm/LICENSE.xterm", "MIT", 200},
		{"/assets/", "", 404},
		{"/etc/passwd", "", 404},
	} {
		resp, err := http.Get("http://" + s.WebAddr() + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(body), c.want) {
			t.Errorf("%s: %d %.80q; want %d with %q", c.path, resp.StatusCode, body, c.status, c.want)
		}
		h := resp.Header
		if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") || h.Get("X-Content-Type-Options") != "nosniff" ||
			h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: headers %v", c.path, h)
		}
	}
}

// A page of another site cannot open a session; the door's own and --web-origin's can.
func TestWebOriginIsChecked(t *testing.T) {
	s := e2e.Start(t, func(c *server.Config) { c.WebOrigins = []string{"https://play.example.com"} })
	for _, c := range []struct {
		origin string
		ok     bool
	}{
		{"http://" + s.WebAddr(), true},
		{"https://play.example.com", true},
		{"https://evil.example.com", false},
		{"null", false},
	} {
		_, resp, err := s.DialWeb(t, c.origin)
		if c.ok != (err == nil) {
			t.Errorf("origin %s: %v; want ok %v", c.origin, err, c.ok)
		}
		if !c.ok && (resp == nil || resp.StatusCode != http.StatusForbidden) {
			t.Errorf("origin %s: %v; want 403", c.origin, resp)
		}
	}
	if n := metric(t, s, `parlor_refused_total{reason="origin"}`); n != 2 {
		t.Errorf("refused for their origin: %v; want 2", n)
	}
}

// The gate's per-address limits hold for browser sessions too, with the same reasons.
func TestWebSessionsCountAtTheGate(t *testing.T) {
	s := e2e.Start(t, func(c *server.Config) { c.PerIPConnections = 2 })
	a := s.ConnectWeb(t, e2e.WebHello{}, 80, 24)
	b := s.ConnectWeb(t, e2e.WebHello{}, 80, 24)
	a.WaitFor("Welcome to parlor")
	b.WaitFor("Welcome to parlor")
	_, resp, err := s.DialWeb(t, "")
	if err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a third session from one address: %v %v; want 429", err, resp)
	}
	if n := metric(t, s, `parlor_refused_total{reason="per_ip_connections"}`); n != 1 {
		t.Errorf("refused per_ip_connections: %v; want 1", n)
	}
}

// browserKey is a browser's key as the page makes it (ECDSA P-256), signing as
// WebCrypto does (r and s side by side).
type browserKey struct{ *ecdsa.PrivateKey }

func newBrowserKey(t *testing.T) browserKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return browserKey{k}
}

func (k browserKey) public(t *testing.T) string {
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(der)
}

func (k browserKey) sign(nonce []byte) string {
	h := sha256.Sum256(append([]byte("parlor browser sign-in\n"), nonce...))
	r, s, _ := ecdsa.Sign(rand.Reader, k.PrivateKey, h[:])
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return base64.StdEncoding.EncodeToString(sig)
}

var linkCodeRE = regexp.MustCompile(`/link/([A-Z0-9]+)`)

// The identity protocol without a browser: a link code binds a key once; the key signs
// in as the player; a signature by another key is refused; a revoked key is a guest.
func TestWebLinkedBrowserIsThePlayer(t *testing.T) {
	s := e2e.Start(t, nil)
	ann, annKey := newPlayer(t, s, "Ann")
	ann.Close()
	if _, stderr, err := s.Run(t, e2e.Guest, "link"); err == nil || !strings.Contains(stderr, "SSH key") {
		t.Errorf("link for a guest: %v %q", err, stderr)
	}
	out, _, err := s.Run(t, annKey, "link")
	m := linkCodeRE.FindStringSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("link: %v\n%s", err, out)
	}
	key, other := newBrowserKey(t), newBrowserKey(t)
	link := func(k browserKey) e2e.WebHello {
		return e2e.WebHello{Hello: func(nonce []byte) map[string]any {
			return map[string]any{"link": m[1], "public": k.public(t), "sig": k.sign(nonce)}
		}}
	}
	p := s.ConnectWeb(t, link(key), 80, 24)
	id, _ := p.Welcome["key"].(string)
	if p.Welcome["guest"] != false || p.Welcome["linked"] != true || id == "" {
		t.Fatalf("welcome after a link: %v", p.Welcome)
	}
	p.WaitFor("you are Ann")
	p.Conn.CloseNow()
	// A link code is a secret for a few minutes: the log names none.
	if logs := s.Logs(); strings.Contains(logs, m[1]) || !strings.Contains(logs, "session") {
		t.Errorf("the link code %s in the log (or no log):\n%s", m[1], logs)
	}
	// The code worked once.
	if again := s.ConnectWeb(t, link(other), 80, 24); again.Closed() == nil || !strings.Contains(again.Closed().Reason, "used or expired") {
		t.Fatalf("a spent code: %v", again.Closed())
	}
	signIn := func(k browserKey) e2e.WebHello {
		return e2e.WebHello{Hello: func(nonce []byte) map[string]any { return map[string]any{"key": id, "sig": k.sign(nonce)} }}
	}
	p = s.ConnectWeb(t, signIn(key), 80, 24)
	if p.Welcome["guest"] != false || p.Welcome["key"] != id {
		t.Fatalf("welcome of a linked browser: %v", p.Welcome)
	}
	p.WaitFor("you are Ann")
	p.Conn.CloseNow()
	if thief := s.ConnectWeb(t, signIn(other), 80, 24); thief.Closed() == nil || !strings.Contains(thief.Closed().Reason, "did not sign in") {
		t.Fatalf("another key's signature: %v", thief.Closed())
	}

	list, _, err := s.Run(t, annKey, "link list")
	if err != nil || !strings.Contains(list, id[:8]) {
		t.Fatalf("link list: %v\n%s", err, list)
	}
	if out, _, err := s.Run(t, annKey, "link revoke "+id[:8]); err != nil || !strings.Contains(out, "Revoked") {
		t.Fatalf("link revoke: %v\n%s", err, out)
	}
	p = s.ConnectWeb(t, signIn(key), 80, 24)
	if p.Welcome["guest"] != true {
		t.Fatalf("a revoked browser: %v; want a guest", p.Welcome)
	}
	if list, _, _ := s.Run(t, annKey, "link list"); !strings.Contains(list, "No browser") {
		t.Errorf("link list after the revoke:\n%s", list)
	}
}

// With guests off, a browser that is not linked is told how to link one.
func TestWebWithoutGuestsNeedsALink(t *testing.T) {
	s := e2e.Start(t, func(c *server.Config) { c.Guests = false })
	p := s.ConnectWeb(t, e2e.WebHello{}, 80, 24)
	if c := p.Closed(); c == nil || !strings.Contains(c.Reason, "link") {
		t.Fatalf("a guest browser with guests off: %v", c)
	}
	if n := metric(t, s, `parlor_refused_total{reason="no_guests"}`); n != 1 {
		t.Errorf("refused no_guests: %v; want 1", n)
	}
}

// A shutdown says goodbye to a browser as to a terminal, then closes its session.
func TestWebShutdownSaysGoodbye(t *testing.T) {
	s := e2e.Start(t, nil)
	p := s.ConnectWeb(t, e2e.WebHello{}, 80, 24)
	p.WaitFor("Welcome to parlor")
	stopped := make(chan error, 1)
	go func() { stopped <- s.Stop() }()
	if c := p.Closed(); c == nil || c.Code < 0 {
		t.Fatalf("closed with %v; want a close frame", c)
	}
	if scr := p.Screen(); !strings.Contains(scr, "parlor is restarting") {
		t.Errorf("no goodbye on the screen:\n%s", scr)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}

// X-Forwarded-For names the player only when a trusted proxy (--web-proxy) sends it:
// the per-address limit then holds per player, and nobody else can pick an address.
func TestWebForwardedForOnlyFromTrustedProxies(t *testing.T) {
	from := func(s *e2e.Server, addr string) int {
		_, resp, err := s.DialWebWith(t, http.Header{"X-Forwarded-For": {"198.51.100.7, " + addr}})
		if err == nil {
			return http.StatusSwitchingProtocols
		}
		if resp == nil {
			t.Fatal(err)
		}
		return resp.StatusCode
	}
	behind := e2e.Start(t, func(c *server.Config) { c.WebProxies, c.PerIPConnections = []string{"127.0.0.0/8"}, 1 })
	if a, b, again := from(behind, "203.0.113.1"), from(behind, "203.0.113.2"), from(behind, "203.0.113.1"); a != 101 || b != 101 || again != 429 {
		t.Errorf("behind a trusted proxy: %d, %d, then the first address again %d; want 101, 101, 429", a, b, again)
	}
	open := e2e.Start(t, func(c *server.Config) { c.PerIPConnections = 1 })
	if a, b := from(open, "203.0.113.1"), from(open, "203.0.113.2"); a != 101 || b != 429 {
		t.Errorf("without a trusted proxy: %d, %d; want 101, then 429 (the header ignored)", a, b)
	}
}
