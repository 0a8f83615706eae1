package server

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"github.com/charmbracelet/colorprofile"

	"parlor/session"
)

// serveTUI runs a player's Bubble Tea program for the life of the session.
func (s *Server) serveTUI(sess ssh.Session, join, watch string) {
	player, known := s.identify(sess)
	done := s.lobby.Connected()
	defer done()
	opts := session.Options{
		Lobby: s.lobby, Player: player, AskName: !known, Join: join, Watch: watch,
		IdleTimeout: s.cfg.IdleTimeout,
	}
	if !player.Guest {
		id := player.ID
		opts.SaveName = func(name string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			now := time.Now()
			return s.wrote(s.store.SavePlayer(ctx, storePlayer(id, name, now)))
		}
		opts.Profile = func() string {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			st, err := s.store.PlayerStats(ctx, id)
			if err != nil || st.Played == 0 {
				return ""
			}
			return fmt.Sprintf("You have played %d games and won %d.", st.Played, st.Won)
		}
	}
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	// The table, the clock, the keys and resizes reach the model through prog.Send, from
	// goroutines that live only while they carry something, and the key reader.
	prog := newProgram(ctx)
	opts.Send = prog.Send
	model := session.New(ctx, opts)
	feed := s.windows.of(sess)
	var screen io.Writer = sess
	if feed != nil {
		screen = feed.screen // the channel, past charm.land/ssh's newline translation
	}
	painter := newPainter(ctx, model, screen, cmp.Or(s.cfg.FrameRate, DefaultFrameRate), prog.Send)

	var once sync.Once
	ls := &liveSession{bye: func() {
		once.Do(func() { go prog.Send(session.ShutdownMsg{Goodbye: s.lobby.ShutdownNotice()}) })
	}}
	if !s.track(ls) {
		fail(sess, "The server is shutting down. Please try again in a moment.")
		return
	}
	defer s.untrack(ls)

	// The first size is the newest the client sent; later ones are forwarded as they
	// come, after it, since the loop takes the first one before any message.
	pty, _, _ := sess.Pty()
	size := tea.WindowSizeMsg{Width: pty.Window.Width, Height: pty.Window.Height}
	if feed != nil {
		w := feed.Window()
		size = tea.WindowSizeMsg{Width: w.Width, Height: w.Height}
		feed.Watch(func(w ssh.Window) { prog.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height}) })
	}
	go readKeys(sess, prog.Send)
	// Deferred, so that a panic in the model (which ends only this session, through
	// recoverPanics) still gives the terminal back and frees the seat.
	ended := false
	defer func() {
		cancel()
		painter.close()
		if bye := model.Goodbye(); bye != "" {
			fmt.Fprintln(sess, bye)
		} else {
			model.Disconnected()
		}
		if ended {
			_ = sess.Exit(0)
		}
	}()
	prog.run(painter, tea.ColorProfileMsg{Profile: colorprofile.Env(append(sess.Environ(), "TERM="+pty.Term))}, size)
	ended = true
}
