package server

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"parlor/session/linear"
	"parlor/termrt"
)

// linearWord is the command that starts the linear mode (docs/accessibility.md):
// `ssh host plain`. Short to type, and it says what comes: plain lines of text.
const linearWord = "plain"

// wantsLinear tells whether a session with no other command goes to the linear mode:
// a terminal that says it cannot draw a screen (TERM=dumb: Emacs' shell, some IDE
// consoles), or a key whose player chose the mode (plain on).
func (s *Server) wantsLinear(sess ssh.Session, term string) bool {
	if term == "dumb" {
		return true
	}
	k := sess.PublicKey()
	if k == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(sess.Context(), 3*time.Second)
	defer cancel()
	rec, err := s.store.Player(ctx, gossh.FingerprintSHA256(k))
	return err == nil && rec.Linear
}

// serveLinear runs the linear mode for the life of the session: lines in, lines out,
// over the same lobby and table operations as the TUI (session/linear).
func (s *Server) serveLinear(sess ssh.Session, join, watch string) {
	defer termrt.ServeAside(sess)()
	player, known := s.identify(sess)
	online := s.lobby.Connected(player.ID)
	defer online.Done()
	_, _, pty := sess.Pty()
	// A name another player online holds now is asked again, as the TUI does.
	askName := !known || online.Name(player.Name) != nil
	opts := linear.Options{
		Lobby: s.lobby, Player: player, Online: online, AskName: askName, Join: join, Watch: watch, Echo: pty,
		IdleTimeout: s.cfg.IdleTimeout,
		SSH:         func(args ...string) string { return strings.Join(append([]string{s.sshCommand()}, args...), " ") },
	}
	if !player.Guest {
		id := player.ID
		opts.SaveName = func(name string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			return s.wrote(s.store.SavePlayer(ctx, storePlayer(id, name, time.Now())))
		}
		opts.Remember = func(on bool) error {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			return s.wrote(s.store.SetLinear(ctx, id, on))
		}
	}
	door := linear.New(opts)
	ls := s.liveOf(sess, player, "linear")
	ls.bye = func() { door.End(s.lobby.ShutdownNotice().Text) }
	ls.end = door.End
	ls.broadcast = door.Notice
	if !s.track(ls) {
		fail(sess, "The server is shutting down. Please try again in a moment.")
		return
	}
	defer s.untrack(ls)
	door.Run(sess.Context(), sess, sess)
	_ = sess.Exit(0)
}

// linearRoute is `ssh host plain [join CODE]`. It needs no terminal: without one the
// player's own terminal edits and echoes the line typed, which suits a screen reader.
func (s *Server) linearRoute(sess ssh.Session, args []string) {
	switch {
	case len(args) == 0:
		s.serveLinear(sess, "", "")
	case len(args) == 2 && args[0] == "join":
		s.serveLinear(sess, args[1], "")
	case len(args) == 2 && args[0] == "watch":
		s.serveLinear(sess, "", args[1])
	default:
		fail(sess, fmt.Sprintf("%s takes nothing, or join or watch and a table's code: %s %s join ABCD", linearWord, s.sshCommand(), linearWord))
	}
}
