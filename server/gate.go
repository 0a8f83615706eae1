package server

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
	"github.com/pires/go-proxyproto"
	"golang.org/x/time/rate"

	"parlor/lobby"
)

// Why a connection was turned away: the reason label of parlor_refused_total.
const (
	refusedRate            = "per_ip_rate"            // the address opened too many connections too fast
	refusedPerIPLogin      = "per_ip_unauthenticated" // the address has too many connections still logging in
	refusedLogin           = "unauthenticated"        // too many connections are logging in overall
	refusedPerIPConns      = "per_ip_connections"     // the address holds too many connections
	refusedConns           = "connections"            // the server holds as many connections as it takes
	refusedLoginGrace      = "login_grace"            // key exchange and login took longer than --login-grace
	refusedNoSession       = "no_session"             // logged in, but opened no session within --session-grace
	refusedFull            = "full"                   // --max-sessions players are on
	refusedProxyHeader     = "proxy_header"           // a trusted load balancer sent no valid PROXY header
	refusedTooManyChannels = "channels"               // one connection asked for too many sessions
	refusedBanned          = "banned"                 // the address or the key is banned (admin ban)
)

// maxChannelsPerConn bounds the sessions one connection may hold at once (OpenSSH's
// ControlMaster multiplexes several terminals over one connection).
const maxChannelsPerConn = 4

// gate is the server's listener: it turns connections away before any cryptography when
// their address opens them too fast or holds too many, and counts every connection from
// accept to close so that the limits before and after login can hold.
type gate struct {
	net.Listener
	cfg     Config
	refused *refusals
	// banned says whether an address is banned: its connections are closed before the
	// key exchange. Nil: nobody is.
	banned func(host string) bool

	mu     sync.Mutex
	addrs  map[string]*addrState
	login  int // connections still logging in
	authed int // connections logged in
	total  int
}

// addrState is what the gate knows about one address.
type addrState struct {
	limiter      *rate.Limiter
	login, conns int
}

// newGate wraps ln; with trusted load balancers configured, connections from them must
// start with a PROXY header, which names the player's address. Connections from anyone
// else are taken as they are: their PROXY header, if any, is never read as one.
func newGate(ln net.Listener, cfg Config, refused *refusals) *gate {
	if nets, _ := trustedRanges(cfg.ProxyProtocol); len(nets) > 0 {
		ln = &proxyproto.Listener{
			Listener:          ln,
			ReadHeaderTimeout: 5 * time.Second,
			ConnPolicy: func(o proxyproto.ConnPolicyOptions) (proxyproto.Policy, error) {
				if ip := addrIP(o.Upstream); ip != nil {
					for _, n := range nets {
						if n.Contains(ip) {
							return proxyproto.REQUIRE, nil
						}
					}
				}
				return proxyproto.SKIP, nil
			},
		}
	}
	return &gate{Listener: ln, cfg: cfg, refused: refused, addrs: map[string]*addrState{}}
}

// Accept returns the next connection the limits let in. A connection from a trusted load
// balancer is admitted later, by admitLate, once its PROXY header names the player:
// reading it here would let one slow header hold up every other connection.
func (g *gate) Accept() (net.Conn, error) {
	for {
		c, err := g.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if _, proxied := c.(*proxyproto.Conn); proxied {
			return &gatedConn{Conn: c, g: g}, nil
		}
		if gc := g.admit(c); gc != nil {
			return gc, nil
		}
	}
}

// admitLate admits a connection from a load balancer; it runs on the connection's own
// goroutine, before the key exchange. It returns nil when the connection was refused.
func (g *gate) admitLate(c net.Conn) net.Conn {
	gc, ok := c.(*gatedConn)
	if !ok || gc.host != "" {
		return c // admitted in Accept
	}
	if pc := gc.Conn.(*proxyproto.Conn); pc.ProxyHeader() == nil {
		g.refused.add(hostOf(pc.Raw().RemoteAddr()), refusedProxyHeader)
		_ = pc.Close()
		return nil
	}
	if admitted := g.admit(gc.Conn); admitted != nil {
		return admitted
	}
	return nil // not a nil *gatedConn: the caller compares the interface with nil
}

// admit applies the limits that hold before login to a new connection from its
// address; it closes and returns nil the connection it refuses.
func (g *gate) admit(c net.Conn) *gatedConn {
	if g.banned != nil && g.banned(hostOf(c.RemoteAddr())) {
		g.refused.add(hostOf(c.RemoteAddr()), refusedBanned)
		_ = c.Close()
		return nil
	}
	host := lobby.AddrKey(hostOf(c.RemoteAddr()))
	reason := g.take(host)
	if reason != "" {
		g.refused.add(host, reason)
		_ = c.Close()
		return nil
	}
	return &gatedConn{Conn: c, g: g, host: host}
}

// take counts a new connection from host, or says why it may not come in.
func (g *gate) take(host string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.addrs) > 10000 {
		g.forget()
	}
	a := g.addrs[host]
	if a == nil {
		a = &addrState{limiter: rate.NewLimiter(rate.Limit(g.cfg.PerIPRate/60), g.cfg.PerIPBurst)}
		g.addrs[host] = a
	}
	switch {
	case !a.limiter.Allow():
		return refusedRate
	case a.login >= g.cfg.PerIPUnauthenticated:
		return refusedPerIPLogin
	case g.login >= g.cfg.MaxUnauthenticated:
		return refusedLogin
	case g.cfg.PerIPConnections > 0 && a.conns >= g.cfg.PerIPConnections:
		return refusedPerIPConns
	case g.cfg.MaxSessions > 0 && g.total >= g.cfg.MaxSessions+g.cfg.MaxUnauthenticated:
		// Logged-in connections are held to --max-sessions after login (with a message);
		// this bounds what may be on its way there.
		return refusedConns
	}
	a.login++
	a.conns++
	g.login++
	g.total++
	return ""
}

// forget drops addresses with no connection and a full bucket, so the map stays small.
func (g *gate) forget() {
	now := time.Now()
	for h, a := range g.addrs {
		if a.conns == 0 && a.limiter.TokensAt(now) >= float64(a.limiter.Burst()) {
			delete(g.addrs, h)
		}
	}
}

// Authenticated is how many connections have logged in and are still open.
func (g *gate) Authenticated() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.authed
}

// LoggingIn is how many connections are still in key exchange or login.
func (g *gate) LoggingIn() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.login
}

// gatedConn is one admitted connection. After login it must hold a session: one that
// holds none for --session-grace is closed.
type gatedConn struct {
	net.Conn
	g    *gate
	host string // "" until admitted

	mu       sync.Mutex
	authed   bool
	closed   bool
	sessions int // handlers running
	channels int // session channels open
	idle     *time.Timer
}

// authenticated moves the connection from logging in to logged in.
func (c *gatedConn) authenticated() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.authed || c.closed || c.host == "" {
		return
	}
	c.authed = true
	c.g.mu.Lock()
	c.g.addrs[c.host].login--
	c.g.login--
	c.g.authed++
	c.g.mu.Unlock()
	c.idle = time.AfterFunc(c.g.cfg.SessionGrace, c.noSession)
}

func (c *gatedConn) noSession() {
	c.mu.Lock()
	idle := c.sessions == 0 && !c.closed
	c.mu.Unlock()
	if idle {
		c.g.refused.add(c.host, refusedNoSession)
		_ = c.Close()
	}
}

// sessionStarted and sessionEnded bracket a session's handler; the grace starts again
// when the last one ends.
func (c *gatedConn) sessionStarted() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sessions++
	if c.idle != nil {
		c.idle.Stop()
	}
}

func (c *gatedConn) sessionEnded() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sessions--; c.sessions == 0 && c.idle != nil && !c.closed {
		c.idle.Reset(c.g.cfg.SessionGrace)
	}
}

// openChannel counts a session channel; it returns false when the connection holds
// as many as it may.
func (c *gatedConn) openChannel() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.channels >= maxChannelsPerConn {
		return false
	}
	c.channels++
	return true
}

func (c *gatedConn) closeChannel() {
	c.mu.Lock()
	c.channels--
	c.mu.Unlock()
}

// Close releases the connection's place in the gate's counts (once).
func (c *gatedConn) Close() error {
	err := c.Conn.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.host == "" {
		c.closed = true
		return err
	}
	c.closed = true
	if c.idle != nil {
		c.idle.Stop()
	}
	g := c.g
	g.mu.Lock()
	a := g.addrs[c.host]
	if c.authed {
		g.authed--
	} else {
		a.login--
		g.login--
	}
	a.conns--
	g.total--
	g.mu.Unlock()
	return err
}

// connOf finds the gate's record of the connection a context belongs to.
func connOf(ctx ssh.Context) *gatedConn {
	c, _ := ctx.Value(gatedConnKey{}).(*gatedConn)
	return c
}

type gatedConnKey struct{}

// loginFailed is told why a connection ended before login: only running out of time
// is a refusal; a client giving up or a failed key exchange is its own business.
func (g *gate) loginFailed(c net.Conn, err error) {
	var ne net.Error
	if errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		g.refused.add(hostOf(c.RemoteAddr()), refusedLoginGrace)
	}
}

// refusals counts every refused connection by reason, and logs at most one line per
// address per minute, so that a flood cannot fill the log.
type refusals struct {
	log   *log.Logger
	count func(reason string)

	mu   sync.Mutex
	last map[string]time.Time
}

func (r *refusals) add(host, reason string) {
	r.count(reason)
	now := time.Now()
	r.mu.Lock()
	if len(r.last) > 10000 {
		for h, t := range r.last {
			if now.Sub(t) >= time.Minute {
				delete(r.last, h)
			}
		}
	}
	quiet := now.Sub(r.last[host]) < time.Minute
	if !quiet {
		r.last[host] = now
	}
	r.mu.Unlock()
	if !quiet {
		r.log.Warn("refused a connection (more from this address in the next minute are only counted)", "remote", host, "reason", reason)
	}
}

// hostOf is the address without its port.
func hostOf(a net.Addr) string {
	if ip := addrIP(a); ip != nil {
		return ip.String()
	}
	return a.String()
}

func addrIP(a net.Addr) net.IP {
	switch a := a.(type) {
	case *net.TCPAddr:
		return a.IP
	case nil:
		return nil
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return nil
	}
	return net.ParseIP(host)
}

// trustedRanges parses the --proxy-protocol list: CIDRs or single addresses.
func trustedRanges(list []string) ([]*net.IPNet, error) {
	var out []*net.IPNet
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if !strings.Contains(s, "/") {
			ip := net.ParseIP(s)
			if ip == nil {
				return nil, fmt.Errorf("%q is neither an address nor a CIDR such as 10.0.0.0/8", s)
			}
			bits := 128
			if ip.To4() != nil {
				bits = 32
			}
			s = fmt.Sprintf("%s/%d", s, bits)
		}
		_, n, err := net.ParseCIDR(s)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR such as 10.0.0.0/8", s)
		}
		out = append(out, n)
	}
	return out, nil
}
