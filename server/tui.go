package server

import (
	"context"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2/bubbletea"

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
	model := session.New(ctx, opts)
	sized := &firstSize{Model: model, seen: make(chan struct{})}
	p := tea.NewProgram(sized, append(bubbletea.MakeOptions(sess),
		tea.WithContext(ctx),
		tea.WithoutSignalHandler(), // signals are handled once, in cmd/parlor
		tea.WithFPS(30),
	)...)

	var once sync.Once
	ls := &liveSession{bye: func() {
		once.Do(func() { go p.Send(session.ShutdownMsg{Goodbye: s.lobby.ShutdownNotice()}) })
	}}
	if !s.track(ls) {
		fail(sess, "The server is shutting down. Please try again in a moment.")
		return
	}
	defer s.untrack(ls)

	if feed := s.windows.of(sess); feed != nil {
		go func() {
			select { // a size sent before Bubble Tea's own first one would be overtaken by it
			case <-ctx.Done():
				return
			case <-sized.seen:
			}
			for {
				select {
				case <-ctx.Done():
					return
				case <-feed.Changed():
					w := feed.Window()
					p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
				}
			}
		}()
	}
	if _, err := p.Run(); err != nil && ctx.Err() == nil {
		s.log.Warn("program ended with an error", "err", err)
	}
	p.Kill()
	if bye := model.Goodbye(); bye != "" {
		fmt.Fprintln(sess, bye)
	} else {
		model.Disconnected()
	}
	_ = sess.Exit(0)
}

// firstSize tells when the program has taken its first window size. Bubble Tea sends that
// one from a goroutine of its own when it starts (tea.go, Program.Run: `go
// p.Send(resizeMsg)`), so a client's window-change forwarded earlier could arrive first
// and be overwritten by the stale starting size: the forwarder waits for this instead.
type firstSize struct {
	tea.Model
	seen chan struct{}
	once sync.Once
}

func (f *firstSize) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		f.once.Do(func() { close(f.seen) })
	}
	var cmd tea.Cmd
	f.Model, cmd = f.Model.Update(msg)
	return f, cmd
}
