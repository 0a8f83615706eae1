package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"charm.land/log/v2"
	"github.com/coder/websocket"

	"parlor/assets"
	"parlor/lobby"
	"parlor/termrt"
)

// The browser door: a page with a terminal (xterm.js, embedded from assets/web) whose
// WebSocket runs the very same player session as SSH (webterm.go), so a link in a team
// chat puts a colleague at the table from any browser.
//
// What a visit does: GET / (or /t/CODE to sit at a table, /w/CODE to watch one,
// /link/CODE to make this browser an SSH player's) serves the page; the page opens
// /ws, where the gate's limits and the Origin are checked before the upgrade; the
// server sends a challenge, the page answers with its hello (window size, where to go,
// and, for a linked browser, its key's signature of the challenge: weblink.go), and
// the session runs through the same middleware chain as an SSH session's.
type webDoor struct {
	s       *Server
	log     *log.Logger
	srv     *http.Server
	ln      net.Listener
	origins []string     // hosts (patterns) whose pages may open a session besides the page's own
	proxies []*net.IPNet // reverse proxies trusted for X-Forwarded-For and -Proto
	files   fs.FS

	// Shutdown: every session's connection, to close those that outlast the goodbye.
	mu       sync.Mutex
	conns    map[*websocket.Conn]struct{}
	wg       sync.WaitGroup
	sessions atomic.Int64 // open web sessions, for /metrics
	// writeTimeout bounds one write to a browser (webSession.writeTimeout); tests
	// shorten it.
	writeTimeout atomic.Int64
}

// The limits of the door's HTTP server: a page and a WebSocket upgrade are small
// requests; an idle keep-alive connection is let go after a minute.
const (
	webHelloTimeout = 10 * time.Second
	webWriteTimeout = 15 * time.Second
	webMaxHeader    = 16 << 10
)

// validateWeb checks the door's settings.
func (c Config) validateWeb() []error {
	var errs []error
	if c.Web != "" {
		if _, _, err := net.SplitHostPort(c.Web); err != nil {
			errs = append(errs, fmt.Errorf("--web %q: want host:port such as :8080, or off to disable (%v)", c.Web, err))
		}
	}
	if (c.WebCert == "") != (c.WebKey == "") {
		errs = append(errs, errors.New("--web-cert and --web-key: give both (TLS) or neither (plain HTTP, e.g. behind a proxy that ends TLS)"))
	}
	for _, o := range c.WebOrigins {
		if _, err := originHost(o); err != nil {
			errs = append(errs, fmt.Errorf("--web-origin %q: %v", o, err))
		}
	}
	if _, err := trustedRanges(c.WebProxies); err != nil {
		errs = append(errs, fmt.Errorf("--web-proxy: %v", err))
	}
	if c.WebURL != "" {
		if u, err := url.Parse(c.WebURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("--web-url %q: want the door's public address such as https://parlor.example.com", c.WebURL))
		}
	}
	return errs
}

// originHost is the host an --web-origin entry allows: "https://play.example.com",
// "play.example.com" or a pattern such as "*.example.com".
func originHost(o string) (string, error) {
	o = strings.TrimSpace(o)
	if strings.Contains(o, "://") {
		u, err := url.Parse(o)
		if err != nil || u.Host == "" {
			return "", errors.New("want a host such as play.example.com or an origin such as https://play.example.com")
		}
		o = u.Host
	}
	if o == "" || strings.ContainsAny(o, "/ ") {
		return "", errors.New("want a host such as play.example.com or an origin such as https://play.example.com")
	}
	if _, err := path.Match(o, ""); err != nil {
		return "", err
	}
	return strings.ToLower(o), nil
}

// listenWeb opens the door's listener; Serve serves it.
func (s *Server) listenWeb() error {
	if s.cfg.Web == "" {
		return nil
	}
	ln, err := net.Listen("tcp", s.cfg.Web)
	if err != nil {
		return fmt.Errorf("listen %s (--web): %w", s.cfg.Web, err)
	}
	files, err := fs.Sub(assets.Web, "web")
	if err != nil {
		ln.Close()
		return err
	}
	d := &webDoor{s: s, log: s.log.WithPrefix("web"), ln: ln, files: files,
		conns: map[*websocket.Conn]struct{}{}}
	d.writeTimeout.Store(int64(webWriteTimeout))
	for _, o := range s.cfg.WebOrigins {
		h, _ := originHost(o)
		d.origins = append(d.origins, h)
	}
	d.proxies, _ = trustedRanges(s.cfg.WebProxies)
	d.srv = &http.Server{Handler: d.handler(), ReadHeaderTimeout: 5 * time.Second, IdleTimeout: time.Minute,
		MaxHeaderBytes: webMaxHeader, ErrorLog: nil}
	// The standard library's own lines (a bad TLS handshake) name no code, but go to
	// the server's log at debug level rather than to stderr.
	d.srv.ErrorLog = d.log.StandardLog(log.StandardLogOptions{ForceLevel: log.DebugLevel})
	s.web = d
	s.metrics.watchWeb(&d.sessions)
	return nil
}

// WebAddr is the browser door's address, or "" when it is off.
func (s *Server) WebAddr() string {
	if s.web == nil {
		return ""
	}
	return s.web.ln.Addr().String()
}

func (d *webDoor) serve() error {
	if d.s.cfg.WebCert != "" {
		return d.srv.ServeTLS(d.ln, d.s.cfg.WebCert, d.s.cfg.WebKey)
	}
	return d.srv.Serve(d.ln)
}

// shutdown stops taking pages and sessions; the sessions have been told goodbye (they
// are tracked as every session is): those still open after ctx are closed.
func (d *webDoor) shutdown(ctx context.Context) {
	_ = d.srv.Shutdown(ctx) // hijacked connections are not waited for: the sessions are, below
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		d.mu.Lock()
		for c := range d.conns {
			_ = c.CloseNow()
		}
		d.mu.Unlock()
		<-done
	}
}

// securityHeaders are on every response: nothing but this server's own files may load,
// no page may frame this one, and no address (which may hold a table's code) leaves as
// a referrer. xterm.js writes its theme into a style element, hence 'unsafe-inline'
// for styles only.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "+
		"connect-src 'self'; img-src 'self' data:; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}

func (d *webDoor) handler() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		http.ServeFileFS(w, r, d.files, "index.html")
	}
	mux.HandleFunc("GET /{$}", page)
	for _, p := range []string{"/t/{code}", "/w/{code}", "/link/{code}"} {
		mux.HandleFunc("GET "+p, page)
	}
	static := http.FileServerFS(d.files)
	mux.Handle("GET /assets/", http.StripPrefix("/assets", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/index.html" || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // no listings; the page has its own addresses
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		static.ServeHTTP(w, r)
	})))
	mux.HandleFunc("GET /ws", d.serveWS)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		securityHeaders(w.Header())
		mux.ServeHTTP(w, r)
	})
}

// remote is the player's address: the connection's, or, from a trusted reverse proxy,
// the last address in X-Forwarded-For that is not one of the trusted proxies.
func (d *webDoor) remote(r *http.Request) net.Addr {
	addr, _ := net.ResolveTCPAddr("tcp", r.RemoteAddr)
	if addr == nil {
		addr = &net.TCPAddr{}
	}
	if !d.trusted(addr.IP) {
		return addr
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		ip := net.ParseIP(strings.TrimSpace(hops[i]))
		if ip == nil {
			break
		}
		if !d.trusted(ip) {
			return &net.TCPAddr{IP: ip}
		}
	}
	return addr
}

func (d *webDoor) trusted(ip net.IP) bool {
	for _, n := range d.proxies {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// originOK says whether the page that opens a session may: a request with no Origin
// (not a browser, which always sends one) or one from the page's own host or a host
// of --web-origin.
func (d *webDoor) originOK(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	host := strings.ToLower(u.Host)
	if host == strings.ToLower(r.Host) {
		return true
	}
	if fh := r.Header.Get("X-Forwarded-Host"); fh != "" && d.trusted(addrIP(d.remoteConn(r))) && host == strings.ToLower(fh) {
		return true
	}
	for _, p := range d.origins {
		if ok, _ := path.Match(p, host); ok {
			return true
		}
	}
	return false
}

func (d *webDoor) remoteConn(r *http.Request) net.Addr {
	addr, _ := net.ResolveTCPAddr("tcp", r.RemoteAddr)
	if addr == nil {
		return &net.TCPAddr{}
	}
	return addr
}

// base is the door's public address as a page's request shows it, for the links the
// session gives: --web-url, else the scheme and host the browser used.
func (d *webDoor) base(r *http.Request) string {
	if d.s.cfg.WebURL != "" {
		return strings.TrimSuffix(d.s.cfg.WebURL, "/")
	}
	scheme := "http"
	if r.TLS != nil || d.trusted(addrIP(d.remoteConn(r))) && r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// webHello is the page's first message, the answer to the challenge.
type webHello struct {
	Type  string `json:"type"`
	Cols  int    `json:"cols"`
	Rows  int    `json:"rows"`
	Join  string `json:"join"`
	Watch string `json:"watch"`
	// A linked browser: its key's id and its signature of the challenge. With Link (a
	// code from ssh host link) the key is new: Public is its public half (SPKI).
	Key    string `json:"key"`
	Sig    string `json:"sig"`
	Link   string `json:"link"`
	Public string `json:"public"`
	Label  string `json:"-"` // the browser's kind, from its User-Agent
}

// serveWS runs one browser session: the gate, the Origin, the upgrade, the hello,
// then the session's middleware chain on this goroutine, as an SSH session's runs on
// its channel's.
func (d *webDoor) serveWS(w http.ResponseWriter, r *http.Request) {
	remote := d.remote(r)
	host := hostOf(remote)
	if !d.originOK(r) {
		d.s.refused.add(host, refusedOrigin)
		http.Error(w, "This page may not open a parlor session: its origin is not this server's.", http.StatusForbidden)
		return
	}
	if d.s.mod != nil {
		if _, banned := d.s.mod.addrBan(host); banned {
			d.s.refused.add(host, refusedBanned)
			http.Error(w, "This address is banned from this server.", http.StatusForbidden)
			return
		}
	}
	g := d.s.gate
	gateHost := lobby.AddrKey(host)
	if reason := g.enterWeb(gateHost); reason != "" {
		d.s.refused.add(host, reason)
		w.Header().Set("Retry-After", "60")
		http.Error(w, "Too many connections from your address right now: please try again in a minute.", http.StatusTooManyRequests)
		return
	}
	defer g.leaveWeb(gateHost)
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true}) // the Origin is checked above
	if err != nil {
		return // Accept has answered
	}
	conn.SetReadLimit(webReadLimit)
	d.mu.Lock()
	d.conns[conn] = struct{}{}
	d.wg.Add(1)
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.conns, conn)
		d.mu.Unlock()
		d.wg.Done()
	}()
	defer conn.CloseNow()

	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	ctx := newWebContext(context.Background(), remote, local)
	defer ctx.cancel()
	sess := &webSession{conn: conn, ctx: ctx, writeTimeout: time.Duration(d.writeTimeout.Load())}
	hello, nonce, ok := d.hello(sess)
	if !ok {
		return
	}
	sess.win = termrt.Clamp(hello.Cols, hello.Rows)
	hello.Label = browserLabel(r.UserAgent())
	switch {
	case tableCode(hello.Join) != "":
		sess.command = "join " + tableCode(hello.Join)
	case tableCode(hello.Watch) != "":
		sess.command = "watch " + tableCode(hello.Watch)
	}
	key, id, linked, err := d.identify(ctx, hello, nonce)
	if err != nil {
		sess.closeWith(statusRefused, err.Error())
		return
	}
	if key == nil && !d.s.cfg.Guests {
		d.s.refused.add(host, refusedNoGuests)
		sess.closeWith(statusRefused, "This server lets in players with an SSH key only: link this browser with ssh HOST link.")
		return
	}
	sess.key = key
	ctx.SetValue(webBaseKey{}, d.base(r))
	hostname := r.Host
	if h, _, err := net.SplitHostPort(r.Host); err == nil {
		hostname = h
	}
	if err := d.welcome(sess, id, linked, strings.Replace(d.s.sshCommand(), "HOST", hostname, 1)); err != nil {
		return
	}
	d.sessions.Add(1)
	defer d.sessions.Add(-1)
	d.s.sshd.Handler(sess)
	sess.closeWith(websocket.StatusNormalClosure, "goodbye") // if the handler did not
}

// tableCode is what of a page's table code can be one: letters and digits, at most 16.
func tableCode(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return -1
	}, s)
	return s[:min(len(s), 16)]
}

// webBaseKey holds a browser session's public base address in its context, for the
// links its screens give.
type webBaseKey struct{}

// hello sends the challenge and reads the page's answer, within webHelloTimeout.
func (d *webDoor) hello(sess *webSession) (h webHello, nonce []byte, ok bool) {
	nonce = make([]byte, 32)
	_, _ = rand.Read(nonce)
	ctx, cancel := context.WithTimeout(sess.ctx, webHelloTimeout)
	defer cancel()
	challenge, _ := json.Marshal(map[string]string{"type": "challenge", "nonce": base64.StdEncoding.EncodeToString(nonce)})
	if err := sess.conn.Write(ctx, websocket.MessageText, challenge); err != nil {
		return h, nil, false
	}
	typ, data, err := sess.conn.Read(ctx)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			d.s.refused.add(hostOf(sess.ctx.remote), refusedLoginGrace)
			sess.closeWith(websocket.StatusPolicyViolation, "no hello from the page in time")
		}
		return h, nil, false
	}
	if typ != websocket.MessageText || json.Unmarshal(data, &h) != nil || h.Type != "hello" {
		sess.closeWith(websocket.StatusUnsupportedData, "parlor did not understand the page's hello")
		return h, nil, false
	}
	return h, nonce, true
}

// welcome tells the page who it is: a linked browser's key id (new after a link), or
// a guest; and how to reach the server over SSH.
func (d *webDoor) welcome(sess *webSession, keyID string, linked bool, ssh string) error {
	msg := map[string]any{"type": "welcome", "guest": sess.key == nil, "ssh": ssh}
	if keyID != "" {
		msg["key"], msg["linked"] = keyID, linked
	}
	b, _ := json.Marshal(msg)
	ctx, cancel := context.WithTimeout(sess.ctx, webHelloTimeout)
	defer cancel()
	return sess.conn.Write(ctx, websocket.MessageText, b)
}
