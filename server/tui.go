package server

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"

	"parlor/rules"
	"parlor/session"
	"parlor/termrt"
)

// serveTUI runs a player's Bubble Tea program for the life of the session.
func (s *Server) serveTUI(sess ssh.Session, join, watch string) {
	player, known := s.identify(sess)
	online := s.lobby.Connected(player.ID)
	defer online.Done()
	opts := session.Options{
		Lobby: s.lobby, Player: player, Online: online, AskName: !known, Join: join, Watch: watch,
		IdleTimeout: s.cfg.IdleTimeout, SSH: s.sshCommand,
	}
	if base := s.webBase(sess); base != "" {
		opts.Web = func(path string) string { return base + path }
	}
	if player.Admin {
		opts.Console = console{s, player}
	}
	if !player.Guest {
		id := player.ID
		opts.SaveName = func(name string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			now := time.Now()
			return s.wrote(s.store.SavePlayer(ctx, storePlayer(id, name, now)))
		}
		opts.Linear = func() error {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			return s.wrote(s.store.SetLinear(ctx, id, true))
		}
		opts.Profile = func() string {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			st, err := s.store.PlayerStats(ctx, id)
			if err != nil || st.Played == 0 {
				return ""
			}
			return fmt.Sprintf("You have played %s and won %d.", rules.Count(st.Played, "game"), st.Won)
		}
	}
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	// The table, the clock, the keys and resizes reach the model through prog.Send, from
	// goroutines that live only while they carry something, and the key reader.
	prog := termrt.NewProgram(ctx, sess, cmp.Or(s.cfg.FrameRate, DefaultFrameRate))
	opts.Send, opts.TrySend = prog.Send, prog.TrySend
	model := session.New(ctx, opts)

	var once sync.Once
	var refused atomic.Bool // ended by a ban: the session's status says so
	end := func(msg string) { once.Do(func() { go prog.Send(session.ShutdownMsg{Goodbye: msg}) }) }
	kind := "tui"
	if _, web := sess.(*webSession); web {
		kind = "web"
	}
	ls := s.liveOf(sess, player, kind)
	ls.bye = func() { end(s.lobby.ShutdownNotice().Text) }
	ls.end = func(msg string) { refused.Store(true); end(msg) }
	ls.broadcast = func(msg string) { go prog.Send(session.BroadcastMsg{Text: msg}) }
	if !s.track(ls) {
		fail(sess, "The server is shutting down. Please try again in a moment.")
		return
	}
	defer s.untrack(ls)

	// Deferred, so that a panic in the model (which ends only this session, through
	// recoverPanics) still frees the seat; Run has given the terminal back by then.
	ended := false
	defer func() {
		cancel()
		if bye := model.Goodbye(); bye != "" {
			fmt.Fprintln(sess, bye)
		} else {
			model.Disconnected()
		}
		if ended {
			status := 0
			if refused.Load() {
				status = 1
			}
			_ = sess.Exit(status)
		}
	}()
	prog.Run(model)
	ended = true
}
