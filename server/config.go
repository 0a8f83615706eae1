package server

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"parlor/cluster"
	"parlor/lobby"
)

// Config is everything the server needs; cmd/parlor fills it from defaults, flags and
// PARLOR_* environment variables, then calls Validate.
type Config struct {
	Listen      string        // SSH address, e.g. ":2222"
	DataDir     string        // holds the host key and the database
	HTTP        string        // /metrics and /healthz address; "" disables
	MaxSessions int           // concurrent authenticated connections; 0 means no limit
	IdleTimeout time.Duration // disconnect players who send no input this long; 0 means never
	Guests      bool          // allow key-less guests (keyboard-interactive)
	Admins      []string      // SHA256 key fingerprints with admin rights
	// FilterWords is a file with the family filter's words, one a line, in place of
	// the built-in English list (lobby/filter.go); "" keeps the built-in one.
	FilterWords string

	// The front door: limits that hold before and just after authentication.
	LoginGrace           time.Duration // time to finish key exchange and authentication
	SessionGrace         time.Duration // time an authenticated connection may go without a session
	MaxUnauthenticated   int           // connections still logging in, in total
	PerIPUnauthenticated int           // connections still logging in, per address
	PerIPConnections     int           // open connections per address; 0 means no limit
	PerIPRate            float64       // new connections per minute per address (after the burst)
	PerIPBurst           int           // new connections an address may open at once
	ProxyProtocol        []string      // load balancers (CIDRs or addresses) trusted to send a PROXY header

	// The browser door (web.go): an address for its HTTP server ("" disables it), a TLS
	// certificate and key (both or neither), the origins besides the page's own host
	// whose pages may open a session, the reverse proxies trusted to name the player's
	// address (X-Forwarded-For) and scheme, and the public URL the links are given with
	// ("" shows http://HOST:PORT).
	Web        string
	WebCert    string
	WebKey     string
	WebOrigins []string
	WebProxies []string
	WebURL     string

	// HostKey is the SSH host key file; "" is host_ed25519 in DataDir. Every node of a
	// cluster uses the same key file, so a player behind a load balancer sees one host.
	HostKey string

	// Cluster joins a NATS JetStream cluster (package cluster); its URLs "" is a lone
	// server with its own database.
	Cluster cluster.Config

	LogFormat string // text or json
	LogLevel  string // debug, info, warn or error

	// FrameRate caps how often a player's screen is sent, in frames per second: a
	// change is drawn at once, unless the last frame went out less than 1/FrameRate
	// ago; then it waits for that (termrt/paint.go). A screen that does not change costs
	// nothing. 0: DefaultFrameRate. See docs/performance.md.
	FrameRate int

	// GCPercent is how far the heap may grow over what is live before Go's collector
	// runs again, as GOGC: DefaultGCPercent unless set; 0 leaves the runtime as it is. A
	// GOGC environment variable wins over it. See docs/performance.md, "The collector".
	GCPercent int

	// Clock is the time games are played by (bots, timers, reveals); nil is the wall
	// clock. Tests pass one they move on themselves, to play whole games quickly.
	Clock lobby.Clock
}

// DefaultFrameRate is Config.FrameRate unless set: with frames drawn on change, the
// cap matters only for a screen that changes faster than this (a held key, a busy
// chat), and 30 a second looks smooth.
const DefaultFrameRate = 30

// DefaultGCPercent is Config.GCPercent unless set. A collection's mark takes a quarter
// of the cores for as long as the live heap takes to scan, and an action that lands in
// it waits: at 10,000 players on two cores, 0.6 GB live and a mark of about 1.4 s. At
// Go's 100 that came every 8 s under load; at 200 every 16 s, for about 0.03 MiB more
// per player (measured with parlor-load: docs/performance.md).
const DefaultGCPercent = 200

// Defaults returns the configuration used when nothing is set.
func Defaults() Config {
	return Config{
		Listen:               ":2222",
		DataDir:              "./data",
		HTTP:                 "127.0.0.1:9222",
		Web:                  ":8080",
		MaxSessions:          500,
		IdleTimeout:          30 * time.Minute,
		Guests:               true,
		LoginGrace:           20 * time.Second,
		SessionGrace:         10 * time.Second,
		MaxUnauthenticated:   100,
		PerIPUnauthenticated: 8,
		PerIPConnections:     32,
		PerIPRate:            30,
		PerIPBurst:           20,
		LogFormat:            "text",
		LogLevel:             "info",
		GCPercent:            DefaultGCPercent,
	}
}

// Validate reports every problem in c at once, in words an operator can act on.
func (c Config) Validate() error {
	var errs []error
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		errs = append(errs, fmt.Errorf("--listen %q: want host:port such as :2222 (%v)", c.Listen, err))
	}
	if c.HTTP != "" {
		if _, _, err := net.SplitHostPort(c.HTTP); err != nil {
			errs = append(errs, fmt.Errorf("--http %q: want host:port such as 127.0.0.1:9222, or empty to disable (%v)", c.HTTP, err))
		}
	}
	errs = append(errs, c.validateWeb()...)
	if strings.TrimSpace(c.DataDir) == "" {
		errs = append(errs, errors.New("--data: must name a directory"))
	}
	if c.MaxSessions < 0 {
		errs = append(errs, fmt.Errorf("--max-sessions %d: must be 0 (no limit) or more", c.MaxSessions))
	}
	if c.FrameRate < 0 || c.FrameRate > 120 {
		errs = append(errs, fmt.Errorf("frame rate %d: want 1 to 120 frames per second, or 0 for the default", c.FrameRate))
	}
	if c.GCPercent != 0 && (c.GCPercent < 25 || c.GCPercent > 1000) {
		errs = append(errs, fmt.Errorf("--gc-percent %d: want 25 to 1000 (Go's own pace is 100), or 0 to leave Go's collector as GOGC sets it", c.GCPercent))
	}
	if c.IdleTimeout < 0 {
		errs = append(errs, fmt.Errorf("--idle-timeout %s: must be 0 (never) or a positive duration such as 30m", c.IdleTimeout))
	}
	for _, a := range c.Admins {
		if !strings.HasPrefix(a, "SHA256:") || len(a) < 20 {
			errs = append(errs, fmt.Errorf("--admins: %q is not a SHA256 key fingerprint (ssh-keygen -lf key.pub prints one, e.g. SHA256:abc…)", a))
		}
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--login-grace", c.LoginGrace}, {"--session-grace", c.SessionGrace}} {
		if d.v <= 0 {
			errs = append(errs, fmt.Errorf("%s %s: must be a positive duration such as 20s", d.flag, d.v))
		}
	}
	for _, n := range []struct {
		flag string
		v    int
	}{{"--max-unauthenticated", c.MaxUnauthenticated}, {"--per-ip-unauthenticated", c.PerIPUnauthenticated}, {"--per-ip-burst", c.PerIPBurst}} {
		if n.v < 1 {
			errs = append(errs, fmt.Errorf("%s %d: must be 1 or more", n.flag, n.v))
		}
	}
	if c.PerIPConnections < 0 {
		errs = append(errs, fmt.Errorf("--per-ip-connections %d: must be 0 (no limit) or more", c.PerIPConnections))
	}
	if c.PerIPRate <= 0 {
		errs = append(errs, fmt.Errorf("--per-ip-rate %g: must be more than 0 connections per minute", c.PerIPRate))
	}
	if _, err := trustedRanges(c.ProxyProtocol); err != nil {
		errs = append(errs, fmt.Errorf("--proxy-protocol: %v", err))
	}
	if err := c.Cluster.Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		errs = append(errs, fmt.Errorf("--log-format %q: want text or json", c.LogFormat))
	}
	if _, err := parseLevel(c.LogLevel); err != nil {
		errs = append(errs, fmt.Errorf("--log-level %q: want debug, info, warn or error", c.LogLevel))
	}
	return errors.Join(errs...)
}
