package server

import (
	"fmt"
	"net"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"

	"parlor/lobby"
	"parlor/session"
)

// middleware is the whole chain, in the order a session runs through it. (wish applies
// its list the other way round, so it is reversed at the end.)
func middleware(s *Server) []wish.Middleware {
	runOrder := []wish.Middleware{
		s.recoverPanics, // outermost: a panic anywhere below ends only that session
		s.logSessions,   // one line when a session starts and ends; no secrets
		s.admit,         // per-IP rate limit, --max-sessions, guests policy
		s.route,         // the command: the TUI, join/watch CODE, api, help
	}
	out := make([]wish.Middleware, len(runOrder))
	for i, mw := range runOrder {
		out[len(runOrder)-1-i] = mw
	}
	return out
}

func (s *Server) recoverPanics(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("session panic", "user", sess.User(), "panic", r, "stack", string(debug.Stack()))
				fmt.Fprintln(sess.Stderr(), "Sorry: parlor hit an internal error. Please connect again.")
				_ = sess.Exit(1)
			}
		}()
		next(sess)
	}
}

func (s *Server) logSessions(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		start := time.Now()
		cmd := "tui"
		if c := sess.Command(); len(c) > 0 {
			cmd = lobby.CleanText(c[0], 16) // only the verb: codes and payloads stay out of the logs
		}
		_, _, pty := sess.Pty()
		s.log.Info("session start", "user", lobby.CleanText(sess.User(), 32), "remote", sess.RemoteAddr().String(), "key", sess.PublicKey() != nil, "cmd", cmd, "pty", pty)
		next(sess)
		s.log.Info("session end", "user", lobby.CleanText(sess.User(), 32), "remote", sess.RemoteAddr().String(), "duration", time.Since(start).Round(time.Second))
	}
}

func (s *Server) admit(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		host, _, _ := net.SplitHostPort(sess.RemoteAddr().String())
		switch {
		case !s.limiter.allow(host, time.Now()):
			fail(sess, "Too many connections from your address: please wait a minute and try again.")
		case s.cfg.MaxSessions > 0 && s.sessionCount() >= s.cfg.MaxSessions:
			fail(sess, fmt.Sprintf("parlor is full right now (%d players): please try again in a few minutes.", s.cfg.MaxSessions))
		case sess.PublicKey() == nil && !s.cfg.Guests:
			fail(sess, "This server does not take guests: connect with an SSH key (make one with: ssh-keygen -t ed25519).")
		default:
			next(sess)
		}
	}
}

// fail prints one line to the client and ends the session with a non-zero status.
func fail(sess ssh.Session, msg string) {
	fmt.Fprintln(sess.Stderr(), msg)
	_ = sess.Exit(1)
}

const usage = `parlor: party games over SSH.

  ssh -p PORT HOST                  the lobby: pick a name, create or join a table
  ssh -t -p PORT HOST join ABCD     go straight to table ABCD
  ssh -t -p PORT HOST watch ABCD    watch table ABCD
  ssh -p PORT HOST api              JSON Lines interface for bots and scripts
  ssh -p PORT HOST help             this text
`

func (s *Server) usage() string {
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	return strings.ReplaceAll(usage, "PORT", port)
}

// route decides what the session's command means.
func (s *Server) route(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		cmd := sess.Command()
		_, _, hasPty := sess.Pty()
		var join, watch string
		switch {
		case len(cmd) == 1 && cmd[0] == "api":
			s.serveAPI(sess)
			return
		case len(cmd) == 1 && (cmd[0] == "help" || cmd[0] == "--help"):
			fmt.Fprint(sess, s.usage())
			_ = sess.Exit(0)
			return
		case len(cmd) == 0:
		case len(cmd) == 2 && cmd[0] == "join":
			join = cmd[1]
		case len(cmd) == 2 && cmd[0] == "watch":
			watch = cmd[1]
		default:
			fail(sess, fmt.Sprintf("unknown command %q.\n\n%s", lobby.CleanText(strings.Join(cmd, " "), 40), s.usage()))
			return
		}
		if !hasPty {
			_, port, _ := net.SplitHostPort(s.ln.Addr().String())
			what := "HOST"
			if len(cmd) > 0 {
				what += " " + lobby.CleanText(strings.Join(cmd, " "), 20)
			}
			fail(sess, fmt.Sprintf("parlor needs a terminal: use ssh -t -p %s %s (or ssh -p %s HOST api for the JSON interface).", port, what, port))
			return
		}
		s.serveTUI(sess, join, watch)
		next(sess)
	}
}

// suggestName turns an SSH user name into a display-name suggestion.
func suggestName(user string) string {
	name, err := session.CheckName(user)
	if err != nil {
		return ""
	}
	return name
}

// ipLimiter allows a burst of connections per address, then one every few seconds.
type ipLimiter struct {
	mu   sync.Mutex
	seen map[string]*ipBucket
}

type ipBucket struct {
	tokens float64
	at     time.Time
}

const (
	ipBurst     = 20
	ipPerSecond = 0.5
)

func newIPLimiter() *ipLimiter { return &ipLimiter{seen: map[string]*ipBucket{}} }

func (l *ipLimiter) allow(host string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.seen) > 10000 { // forget full buckets, so the map stays small
		for h, b := range l.seen {
			if b.tokens+now.Sub(b.at).Seconds()*ipPerSecond >= ipBurst {
				delete(l.seen, h)
			}
		}
	}
	b := l.seen[host]
	if b == nil {
		b = &ipBucket{tokens: ipBurst, at: now}
		l.seen[host] = b
	}
	b.tokens = min(ipBurst, b.tokens+now.Sub(b.at).Seconds()*ipPerSecond)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
