package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"
)

// What a run can start.
const (
	kindParlor = "parlor"
	kindBare   = "bare"
)

// MaxPlayers bounds a run: more clients than this would only measure the generator.
const MaxPlayers = 10000

// Config is one run's workload.
type Config struct {
	Players  int
	Seats    int
	Game     string
	Every    time.Duration
	Duration time.Duration
	Idle     time.Duration
	// Warmup is how long the tables act, unmeasured, between the idle phase and the busy
	// one. With one long enough (40 s or more at thousands of players) a 30 s busy phase
	// measures a server whose heap has grown to its working size, not the first minute
	// after its start (docs/performance.md).
	Warmup   time.Duration
	Parallel int
	// LoginRate, when positive, starts logins at this many per second whatever
	// the server's pace (an open loop), instead of keeping Parallel in flight.
	LoginRate float64
	Server    string // kindParlor or kindBare
	Compare   bool
	Target    string // host:port of a running server; "" starts one
	Metrics   string // its /metrics URL
	Limit     time.Duration
	JSON      bool
	Watchers  int    // spectators per table (parlor only), on top of the players
	FPS       int    // the frame rate both servers cap their renderers at
	Profile   string // a directory for the server's CPU profiles and goroutines of the login, idle and busy phases, and the busy phase's latencies
	// Trace, with Profile, has the server also write an execution trace of the busy
	// phase (KIND-busy.trace.out): which goroutines waited, for what and how long, and
	// when the collector marked and who it made help.
	Trace bool
	// Nodes is how many parlor nodes of a cluster to start, on an embedded NATS server
	// with JetStream, with each table's screens spread over them; 0 starts one lone
	// server. With Compare, a run on one node comes first.
	Nodes int
	// Storm, when set, kills a server with SIGKILL once every player is seated at a
	// started game, and measures how soon every player who lost their connection is back
	// at their seat: stormRestart starts the lone server again on the same data, as a
	// crash and a supervisor's restart would; stormNode kills the first node of a
	// cluster, whose players redial the others. The idle and busy phases follow, on the
	// players' new connections.
	Storm string
	// Web is the fraction (0 to 1) of the players that come through parlor's browser
	// door (a WebSocket, as the page speaks it) instead of SSH, spread evenly over the
	// tables; spectators stay SSH clients.
	Web float64
}

// The storms -storm can make.
const (
	stormRestart = "restart"
	stormNode    = "node"
)

// Defaults is a small run that proves a machine works: 70 players for 20 seconds.
func Defaults() Config {
	return Config{
		Players: 70, Seats: 7, Game: "quadrant", Every: 2 * time.Second, Duration: 20 * time.Second,
		Idle: 5 * time.Second, Parallel: 32, Server: kindParlor, Limit: 10 * time.Minute, FPS: 30,
	}
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	var errs []error
	if c.Seats < 1 || c.Seats > 14 {
		errs = append(errs, fmt.Errorf("-seats %d: want 1 to 14", c.Seats))
	} else if c.Players < c.Seats || c.Players > MaxPlayers {
		errs = append(errs, fmt.Errorf("-players %d: want %d (one table) to %d", c.Players, c.Seats, MaxPlayers))
	}
	if c.Every <= 0 || c.Duration <= 0 || c.Idle < 0 || c.Warmup < 0 || c.Limit <= 0 {
		errs = append(errs, errors.New("-every, -duration and -limit must be positive, -idle and -warmup zero or more"))
	}
	if c.Watchers < 0 || c.Watchers > 50 {
		errs = append(errs, fmt.Errorf("-spectators %d: want 0 to 50 per table", c.Watchers))
	} else if c.Watchers > 0 && (c.Server == kindBare || c.Compare && c.Nodes == 0) {
		errs = append(errs, errors.New("-spectators: the bare server has no spectators; use it without -compare or -server bare"))
	} else if c.Watchers > 0 && (c.Players/max(c.Seats, 1))*(c.Seats+c.Watchers) > MaxPlayers {
		errs = append(errs, fmt.Errorf("-spectators %d: more than %d sessions in all", c.Watchers, MaxPlayers))
	}
	if c.FPS < 1 || c.FPS > 120 {
		errs = append(errs, fmt.Errorf("-fps %d: want 1 to 120", c.FPS))
	}
	if c.Parallel < 1 {
		errs = append(errs, fmt.Errorf("-parallel %d: want 1 or more", c.Parallel))
	}
	if c.LoginRate < 0 || c.LoginRate > maxLoginRate {
		errs = append(errs, fmt.Errorf("-login-rate %g: want 0 (as fast as -parallel allows) to %d per second", c.LoginRate, maxLoginRate))
	}
	if c.Server != kindParlor && c.Server != kindBare {
		errs = append(errs, fmt.Errorf("-server %q: want parlor or bare", c.Server))
	}
	if c.Target != "" {
		if c.Compare {
			errs = append(errs, errors.New("-compare starts both servers itself: it cannot be used with -target"))
		}
		if err := loopbackAddr(c.Target); err != nil {
			errs = append(errs, fmt.Errorf("-target: %w", err))
		}
		if c.Metrics != "" {
			u, err := url.Parse(c.Metrics)
			if err != nil || u.Scheme != "http" {
				errs = append(errs, fmt.Errorf("-metrics %q: want an http:// URL such as http://127.0.0.1:9222/metrics", c.Metrics))
			} else if err := loopbackAddr(u.Host); err != nil {
				errs = append(errs, fmt.Errorf("-metrics: %w", err))
			}
		}
	} else if c.Metrics != "" {
		errs = append(errs, errors.New("-metrics goes with -target; a server parlor-load starts reports its own"))
	}
	if c.Nodes < 0 || c.Nodes > MaxNodes {
		errs = append(errs, fmt.Errorf("-nodes %d: want 0 (a lone server) to %d", c.Nodes, MaxNodes))
	} else if c.Nodes > 0 {
		if c.Target != "" {
			errs = append(errs, errors.New("-nodes starts a cluster itself: it cannot be used with -target"))
		}
		if c.Server == kindBare {
			errs = append(errs, errors.New("-nodes: the bare server has no cluster"))
		}
		if c.Compare && c.Nodes < 2 {
			errs = append(errs, errors.New("-compare with -nodes compares a cluster with one node: want -nodes 2 or more"))
		}
	}
	switch c.Storm {
	case "":
	case stormRestart:
		if c.Nodes > 0 || c.Target != "" || c.Server != kindParlor || c.Compare {
			errs = append(errs, errors.New("-storm restart restarts a lone parlor server it starts: not with -nodes, -target, -server bare or -compare"))
		}
	case stormNode:
		if c.Nodes < 2 || c.Compare {
			errs = append(errs, errors.New("-storm node kills one node of a cluster: it needs -nodes 2 or more, without -compare"))
		}
	default:
		errs = append(errs, fmt.Errorf("-storm %q: want restart or node", c.Storm))
	}
	if c.Web < 0 || c.Web > 1 {
		errs = append(errs, fmt.Errorf("-web %g: want a fraction from 0 (every player over SSH) to 1 (every player in a browser)", c.Web))
	} else if c.Web > 0 && (c.Server != kindParlor || c.Target != "" || c.Storm != "" || c.Compare && c.Nodes == 0) {
		errs = append(errs, errors.New("-web needs a parlor server it starts (its browser door): not with -server bare, -compare against it, -target or -storm"))
	}
	if c.Trace && c.Profile == "" {
		errs = append(errs, errors.New("-trace writes into the -profile directory: give -profile too"))
	}
	if c.Profile != "" && c.Target != "" {
		errs = append(errs, errors.New("-profile profiles a server parlor-load starts: it cannot be used with -target"))
	}
	return errors.Join(errs...)
}

// loopbackAddr accepts host:port only if every address the host names is a loopback
// one: load goes nowhere but this machine.
func loopbackAddr(hostport string) error {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return fmt.Errorf("%q: want host:port (%v)", hostport, err)
	}
	ips := []net.IP{net.ParseIP(host)}
	if ips[0] == nil {
		if ips, err = net.LookupIP(host); err != nil {
			return fmt.Errorf("%q: %v", host, err)
		}
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return fmt.Errorf("%s is not a loopback address: parlor-load only loads this machine (127.0.0.0/8, ::1)", ip)
		}
	}
	return nil
}
