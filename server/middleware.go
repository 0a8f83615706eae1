package server

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"

	"parlor/playertext"
	"parlor/session"
	"parlor/termrt"
)

// middleware is the whole chain, in the order a session runs through it. (wish applies
// its list the other way round, so it is reversed at the end.) What happens before a
// session exists is the gate's business (gate.go): limits per address and in total,
// --login-grace, --session-grace; window sizes are clamped before any of this runs
// (termrt).
func middleware(s *Server) []wish.Middleware {
	runOrder := []wish.Middleware{
		s.recoverPanics, // outermost: a panic anywhere below ends only that session
		s.holdConn,      // the connection holds a session while this runs (--session-grace)
		s.logSessions,   // one line per session, when it ends; no secrets
		s.refuseBanned,  // a banned key or address: told why and until when
		s.admit,         // --max-sessions
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

func (s *Server) holdConn(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if c := connOf(sess.Context()); c != nil {
			c.sessionStarted()
			defer c.sessionEnded()
		}
		next(sess)
	}
}

func (s *Server) logSessions(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		start := time.Now()
		cmd := "tui"
		if c := commandOf(sess); len(c) > 0 {
			cmd = playertext.Short(c[0], 16) // only the verb: codes and payloads stay out of the logs
		}
		key := "guest"
		if k := sess.PublicKey(); k != nil {
			key = gossh.FingerprintSHA256(k)
		}
		term, window := "", ""
		if pty, _, ok := sess.Pty(); ok {
			term, window = playertext.Short(pty.Term, 32), fmt.Sprintf("%d×%d", pty.Window.Width, pty.Window.Height)
		}
		fields := []any{"user", playertext.Short(sess.User(), 32), "remote", sess.RemoteAddr().String(), "key", key,
			"client", playertext.Short(sess.Context().ClientVersion(), 64), "cmd", cmd, "term", term, "window", window}
		s.log.Debug("session start", fields...)
		next(sess)
		if pty, _, ok := sess.Pty(); ok { // the newest size
			fields[len(fields)-1] = fmt.Sprintf("%d×%d", pty.Window.Width, pty.Window.Height)
		}
		s.log.Info("session", append(fields, "duration", time.Since(start).Round(time.Second))...)
	}
}

func (s *Server) admit(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		// Every logged-in connection counts, with a session or without one yet.
		if s.cfg.MaxSessions > 0 && s.gate.Authenticated() > s.cfg.MaxSessions {
			s.refused.add(hostOf(sess.RemoteAddr()), refusedFull)
			fail(sess, fmt.Sprintf("parlor is full right now (%d players): please try again in a few minutes.", s.cfg.MaxSessions))
			return
		}
		next(sess)
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
  ssh -p PORT HOST plain            the linear mode, for screen readers and braille (plain join/watch ABCD)
  ssh -p PORT HOST api              JSON Lines interface for bots and scripts
  ssh -p PORT HOST pack             your own content packs (pack help)
  ssh -p PORT HOST admin            the operators' console (admins; admin help)
  ssh -p PORT HOST link             play from a browser as yourself (link list, link revoke ID)
  ssh -p PORT HOST help             this text
`

func (s *Server) usage() string {
	return strings.NewReplacer("ssh -t -p PORT HOST", s.sshCommand("-t"), "ssh -p PORT HOST", s.sshCommand()).Replace(usage)
}

// commandKey holds a session's command, split into words, in its context.
type commandKey struct{}

// commandOf is sess.Command(), split once per session: each call splits the raw command
// again with a lexer of its own (a 4 KB buffer), and a session asks more than once.
func commandOf(sess ssh.Session) []string {
	if c, ok := sess.Context().Value(commandKey{}).([]string); ok {
		return c
	}
	var c []string
	if sess.RawCommand() != "" {
		c = sess.Command()
	}
	sess.Context().SetValue(commandKey{}, c)
	return c
}

// route decides what the session's command means.
func (s *Server) route(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		cmd := commandOf(sess)
		pty, _, hasPty := sess.Pty()
		var join, watch string
		switch {
		case len(cmd) == 1 && cmd[0] == "api":
			defer termrt.ServeAside(sess)()
			s.serveAPI(sess)
			return
		case len(cmd) >= 1 && cmd[0] == "admin":
			defer termrt.ServeAside(sess)()
			s.serveAdmin(sess, cmd[1:])
			return
		case len(cmd) >= 1 && cmd[0] == "pack":
			defer termrt.ServeAside(sess)()
			s.servePack(sess, cmd[1:])
			return
		case len(cmd) >= 1 && cmd[0] == linearWord:
			s.linearRoute(sess, cmd[1:])
			return
		case len(cmd) >= 1 && cmd[0] == "link":
			s.serveLink(sess, cmd[1:])
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
		case len(cmd) == 1 && (cmd[0] == "join" || cmd[0] == "watch"):
			fail(sess, fmt.Sprintf("%s needs a table's code: %s %s ABCD", cmd[0], s.sshCommand("-t"), cmd[0]))
			return
		default:
			fail(sess, fmt.Sprintf("unknown command %q.\n\n%s", playertext.Short(strings.Join(cmd, " "), 40), s.usage()))
			return
		}
		if !hasPty {
			what := s.sshCommand("-t")
			if len(cmd) > 0 {
				what += " " + playertext.Short(strings.Join(cmd, " "), 20)
			}
			fail(sess, fmt.Sprintf("parlor needs a terminal: use %s (or %s api for the JSON interface).", what, s.sshCommand()))
			return
		}
		if s.wantsLinear(sess, pty.Term) {
			// TERM=dumb (Emacs' shell, some IDE consoles) cannot take a screen; a
			// player who chose the linear mode gets it by default.
			s.serveLinear(sess, join, watch)
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
