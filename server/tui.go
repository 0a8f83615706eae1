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
	// The table, the clock and resizes reach the program through Send, from goroutines
	// that live only while they carry something: no goroutine of parlor's waits per
	// session. (p is set before the program runs, so before anything can call this.)
	var p *tea.Program
	opts.Send = func(msg tea.Msg) { p.Send(msg) }
	model := session.New(ctx, opts)
	sized := &firstSize{Model: model}
	feed := s.windows.of(sess)
	var screen io.Writer = sess
	if feed != nil {
		screen = feed.screen // the channel, past charm.land/ssh's newline translation
	}
	painter := newPainter(ctx, sized, screen, cmp.Or(s.cfg.FrameRate, DefaultFrameRate), opts.Send)
	p = tea.NewProgram(painter, append(bubbletea.MakeOptions(sess),
		tea.WithContext(ctx),
		tea.WithoutSignalHandler(), // signals are handled once, in cmd/parlor
		// The painter draws the frames (paint.go); Bubble Tea's ticker is left only
		// what little it still flushes, once a second.
		tea.WithoutRenderer(),
		tea.WithFPS(1),
		// keys.go reads the input (readKeys, started below).
		tea.WithInput(nil),
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

	if feed != nil {
		// A size sent before Bubble Tea's own first one would be overtaken by it: the
		// client's sizes are forwarded from the first one on.
		sized.first = func() {
			feed.Watch(func(w ssh.Window) { p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height}) })
		}
	}
	go readKeys(sess, p.Send)
	if _, err := p.Run(); err != nil && ctx.Err() == nil {
		s.log.Warn("program ended with an error", "err", err)
	}
	p.Kill()
	painter.close()
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
// and be overwritten by the stale starting size: forwarding starts here instead.
type firstSize struct {
	tea.Model
	first func() // called once, on the first size; nil: nothing to start
	once  sync.Once
}

// Frame is the model's frame as rows, for the painter.
func (f *firstSize) Frame() []string { return rowsOf(f.Model) }

func (f *firstSize) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); ok && f.first != nil {
		f.once.Do(f.first)
	}
	var cmd tea.Cmd
	f.Model, cmd = f.Model.Update(msg)
	return f, cmd
}
