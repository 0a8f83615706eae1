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
	gossh "golang.org/x/crypto/ssh"

	"parlor/rules"
	"parlor/session"
)

// serveTUI runs a player's Bubble Tea program for the life of the session.
func (s *Server) serveTUI(sess ssh.Session, join, watch string) {
	player, known := s.identify(sess)
	online := s.lobby.Connected(player.ID)
	defer online.Done()
	opts := session.Options{
		Lobby: s.lobby, Player: player, Online: online, AskName: !known, Join: join, Watch: watch,
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
			return fmt.Sprintf("You have played %s and won %d.", rules.Count(st.Played, "game"), st.Won)
		}
	}
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	// The table, the clock, the keys and resizes reach the model through prog.Send, from
	// goroutines that live only while they carry something, and the key reader.
	prog := newProgram(ctx)
	opts.Send, opts.TrySend = prog.Send, prog.TrySend
	model := session.New(ctx, opts)
	var screen io.Writer = sess
	cs, _ := sess.(*channelSession)
	if cs != nil {
		// The channel itself: a session's Write puts a "\r" before every "\n", copying
		// each write twice to do it (7 % of the server's allocations under load), and the
		// painter moves the cursor and writes no newline.
		screen = cs.Channel
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

	// The window sizes come as the channel's requests, which the program answers in
	// its loop; the first is the newest the client sent before the shell.
	pty, _, _ := sess.Pty()
	if cs != nil {
		prog.requests = cs.reqs
		prog.request = func(req *gossh.Request) tea.Msg {
			if w, _ := cs.serve(req); w != nil {
				return tea.WindowSizeMsg{Width: w.Width, Height: w.Height}
			}
			return nil
		}
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
	prog.run(painter, tea.ColorProfileMsg{Profile: colorprofile.Env(append(sess.Environ(), "TERM="+pty.Term))},
		tea.WindowSizeMsg{Width: pty.Window.Width, Height: pty.Window.Height})
	ended = true
}
