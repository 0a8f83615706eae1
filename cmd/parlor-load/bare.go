package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	gossh "golang.org/x/crypto/ssh"
)

// The bare server is the yardstick: the least a wish v2 + Bubble Tea v2 server can do
// for the same workload. "ssh -t host join CODE" seats a player at a table of that code
// (made on first use); ←/→ move the player's token and every screen at the table shows
// it, drawn as one lipgloss screen per session, with the same renderer frame rate as
// parlor (30 fps). No lobby, no rules, no chat, no store.

// bareHub holds the tables.
type bareHub struct {
	mu     sync.Mutex
	tables map[string]*bareTable
}

type bareTable struct {
	code  string
	mu    sync.Mutex
	seats []*bareSeat
}

type bareSeat struct {
	name string
	x, y int
	wake chan struct{} // a value (coalesced) when the table changed
}

func (h *bareHub) join(code, name string) (*bareTable, *bareSeat) {
	h.mu.Lock()
	t := h.tables[code]
	if t == nil {
		t = &bareTable{code: code}
		h.tables[code] = t
	}
	h.mu.Unlock()
	t.mu.Lock()
	s := &bareSeat{name: name, y: len(t.seats) - 3, wake: make(chan struct{}, 1)}
	t.seats = append(t.seats, s)
	t.mu.Unlock()
	t.changed()
	return t, s
}

func (t *bareTable) leave(s *bareSeat) {
	t.mu.Lock()
	for i, o := range t.seats {
		if o == s {
			t.seats = append(t.seats[:i], t.seats[i+1:]...)
			break
		}
	}
	t.mu.Unlock()
	t.changed()
}

func (t *bareTable) move(s *bareSeat, dx int) {
	t.mu.Lock()
	s.x = max(-10, min(10, s.x+dx))
	t.mu.Unlock()
	t.changed()
}

// changed wakes every seat's session without ever blocking.
func (t *bareTable) changed() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.seats {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// board is the table's state as text: one token per line, as parlor's token panel.
func (t *bareTable) board() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := make([]string, 0, len(t.seats))
	for i, s := range t.seats {
		lines = append(lines, fmt.Sprintf("%c %-16s %+d, %+d ", 'A'+i, s.name, s.x, s.y))
	}
	return lines
}

type bareModel struct {
	ctx  context.Context
	t    *bareTable
	me   *bareSeat
	w, h int
}

type bareWake struct{}

func (m bareModel) wait() tea.Cmd {
	ctx, wake := m.ctx, m.me.wake
	return func() tea.Msg {
		select {
		case <-wake:
			return bareWake{}
		case <-ctx.Done():
			return nil
		}
	}
}

func (m bareModel) Init() tea.Cmd { return m.wait() }

func (m bareModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case bareWake:
		return m, m.wait()
	case tea.KeyPressMsg:
		switch msg.String() {
		case "right":
			m.t.move(m.me, 1)
		case "left":
			m.t.move(m.me, -1)
		case "q", "ctrl+c":
			return m, tea.Quit
		}
	}
	return m, nil
}

var (
	bareTitle = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("212"))
	bareBox   = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
)

func (m bareModel) View() tea.View {
	w := max(m.w, 40)
	body := strings.Join(append([]string{bareTitle.Render("bare · table " + m.t.code), ""}, m.t.board()...), "\n")
	v := tea.NewView(bareBox.Width(w - 2).Height(max(m.h-2, 10)).Render(body + "\n\n← → move your token · q leave"))
	v.AltScreen = true
	return v
}

// serveBare runs the bare server until ctx ends.
func serveBare(ctx context.Context, dir string, logger *log.Logger) error {
	// wish's Bubble Tea middleware logs every hang-up as an error on the default logger.
	log.SetOutput(io.Discard)
	hub := &bareHub{tables: map[string]*bareTable{}}
	handler := func(s ssh.Session) (tea.Model, []tea.ProgramOption) {
		code, ok := strings.CutPrefix(strings.Join(s.Command(), " "), "join ")
		if !ok {
			wish.Fatalln(s, "use: ssh -t host join CODE")
			return nil, nil
		}
		t, me := hub.join(code, s.User())
		go func() {
			<-s.Context().Done()
			t.leave(me)
		}()
		return bareModel{ctx: s.Context(), t: t, me: me, w: 80, h: 24}, []tea.ProgramOption{
			tea.WithContext(s.Context()), tea.WithoutSignalHandler(), tea.WithFPS(frameRate()),
		}
	}
	srv, err := wish.NewServer(
		wish.WithAddress("127.0.0.1:0"),
		wish.WithHostKeyPath(filepath.Join(dir, "host_ed25519")),
		wish.WithPublicKeyAuth(func(ssh.Context, ssh.PublicKey) bool { return true }),
		wish.WithKeyboardInteractiveAuth(func(ssh.Context, gossh.KeyboardInteractiveChallenge) bool { return true }),
		wish.WithMiddleware(bubbletea.Middleware(handler)),
	)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	httpLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ln.Close()
		return err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(httpLn) }()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	announce(ln.Addr().String(), httpLn.Addr().String(), "")
	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, ssh.ErrServerClosed) {
			logger.Error("bare server", "err", err)
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	return nil
}
