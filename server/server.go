// Package server is the SSH front door: host key, authentication and identity, what
// "ssh host <command>" means, the middleware chain, /metrics and /healthz, and a graceful
// shutdown that tells every player before closing.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"

	"parlor/assets"
	"parlor/cluster"
	_ "parlor/games" // links every game in
	"parlor/lobby"
	"parlor/packs"
	"parlor/playertext"
	"parlor/session"
	"parlor/store"
	"parlor/termrt"
)

// Server is a running parlor server.
type Server struct {
	cfg     Config
	log     *log.Logger
	store   store.Store
	lobby   *lobby.Lobby
	stopAll context.CancelFunc // ends the lobby's tables
	// The SSH side: the host keys, and the connection loop (termrt) that serves every
	// connection and runs the middleware chain for each session.
	hostSigners []ssh.Signer
	sshd        *termrt.Server
	ln          net.Listener
	sshPort     string // the port players reach the server on, for the commands it tells them
	http        *http.Server
	httpLn      net.Listener
	web         *webDoor // the browser door; nil when --web is off
	metrics     *metrics
	gate        *gate
	refused     *refusals
	packs       *packs.Library
	node        *cluster.Node // nil unless the server is a node of a cluster
	mod         *moderator    // the bans and mutes in force (moderation.go)

	// Fingerprint is the host key's SHA256 fingerprint, as ssh prints it.
	Fingerprint string

	mu       sync.Mutex
	sessions map[*liveSession]struct{}
	closing  bool
	writeErr error // the last write to the store, if it failed
}

// liveSession is one open SSH session, so that shutdown can say goodbye to it, the
// operators can list it, and a ban can end it.
type liveSession struct {
	bye func() // tells the session the server is going down; safe to call once

	id, name, addr, client string // the player's key fingerprint (or guest id), name, address, SSH client
	kind                   string // "tui" or "api"
	// end ends the session, telling the player msg; broadcast shows them a line. Either
	// may be nil; both are safe to call from any goroutine, more than once.
	end       func(msg string)
	broadcast func(msg string)
}

// liveOf describes a session for the operators' list.
func (s *Server) liveOf(sess ssh.Session, p lobby.Player, kind string) *liveSession {
	return &liveSession{id: p.ID, name: p.Name, addr: hostOf(sess.RemoteAddr()), kind: kind,
		client: playertext.Short(sess.Context().ClientVersion(), 40)}
}

// live lists the open sessions.
func (s *Server) live() []*liveSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*liveSession, 0, len(s.sessions))
	for ls := range s.sessions {
		out = append(out, ls)
	}
	return out
}

// endCovered ends the open sessions ban b covers, with its message; it returns how many.
func (s *Server) endCovered(b store.Ban) int {
	n := 0
	for _, ls := range s.live() {
		if ls.end != nil && covers(b, ls.id, ls.addr) {
			ls.end(banMessage(b))
			n++
		}
	}
	return n
}

// Run starts the server with its data directory (host key and SQLite database) and
// serves until ctx ends, then shuts down gracefully.
func Run(ctx context.Context, cfg Config, logger *log.Logger) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := prepareDataDir(cfg.DataDir); err != nil {
		return err
	}
	st, closeStore, err := openStore(cfg)
	if err != nil {
		return err
	}
	defer closeStore()
	s, err := Listen(cfg, st, logger)
	if err != nil {
		return err
	}
	logger.Info("parlor is listening", "ssh", s.Addr().String(), "http", s.HTTPAddr(), "web", s.WebAddr())
	logger.Info("host key fingerprint " + s.Fingerprint)
	return s.Serve(ctx)
}

// Listen opens the SSH (and HTTP) listeners. Serve must be called next.
func Listen(cfg Config, st store.Store, logger *log.Logger) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := prepareDataDir(cfg.DataDir); err != nil {
		return nil, err
	}
	setCollector(cfg)
	words, err := loadFilterWords(cfg.FilterWords)
	if err != nil {
		return nil, err
	}
	// Listening comes first: the lobby's advice names the port players reach it on.
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", cfg.Listen, err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	s := &Server{cfg: cfg, log: logger, store: st, metrics: newMetrics(), sessions: map[*liveSession]struct{}{},
		packs: &packs.Library{Store: st}, ln: ln, sshPort: port}
	s.refused = &refusals{log: logger, count: s.metrics.refuse, last: map[string]time.Time{}}
	lctx, stopLobby := context.WithCancel(context.Background())
	s.stopAll = stopLobby
	cancel := func() {
		stopLobby()
		ln.Close()
	}
	clock := cfg.Clock
	if clock == nil {
		clock = lobby.WallClock{}
	}
	s.mod = newModerator(st, func() time.Time { return lobby.Shown(clock, clock.Now()) }, logger.WithPrefix("moderation"))
	s.mod.enforce = func(b store.Ban) { s.endCovered(b) }
	mctx, mcancel := context.WithTimeout(context.Background(), 10*time.Second)
	err = s.mod.refresh(mctx)
	mcancel()
	if err != nil {
		cancel()
		return nil, fmt.Errorf("read the bans and mutes: %w", err)
	}
	lcfg := lobby.Config{
		Logger:   logger.WithPrefix("lobby"),
		Hooks:    s.metrics.hooks(),
		Content:  assets.Load,
		Packs:    s.packs,
		OnFinish: s.recordGame,
		Clock:    cfg.Clock,
		Log:      st,
		Muted:    s.mod.muted,
		Report:   s.fileReport,
		Ignores:  st, // an ignore is remembered for the player's key

		FilterWords: words,
	}
	lcfg.SSHCommand = s.sshCommand()
	if cfg.Cluster.URLs != "" {
		node, err := joinCluster(cfg.Cluster, logger)
		if err != nil {
			cancel()
			return nil, err
		}
		s.node, lcfg.Cluster = node, node
		go s.mod.watch(lctx) // a ban made on another node holds here too
		if err := node.OnBroadcast(func(msg string) { s.broadcastHere(playertext.Short(msg, 200)) }); err != nil {
			cancel()
			node.Kill()
			return nil, fmt.Errorf("cluster: broadcasts: %w", err)
		}
		if err := node.OnRoster(func() []cluster.Session {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			return s.localSessions(ctx)
		}); err != nil {
			cancel()
			node.Kill()
			return nil, fmt.Errorf("cluster: the players list: %w", err)
		}
	}
	s.lobby = lobby.New(lctx, lcfg)
	// Stopping the lobby also stops its table-log writer.
	cancel = func() {
		s.stopAll()
		ln.Close()
		_ = s.lobby.Shutdown(context.Background())
		if s.node != nil {
			s.node.Kill()
		}
	}
	hostKey := cfg.HostKey
	if hostKey == "" {
		hostKey = filepath.Join(cfg.DataDir, hostKeyFile)
	}
	// wish loads (or makes) the host key and chains the middleware; the connections
	// are served by parlor's own loop around x/crypto/ssh (termrt.Server).
	srv, err := wish.NewServer(wish.WithHostKeyPath(hostKey), wish.WithMiddleware(middleware(s)...))
	if err != nil {
		cancel()
		return nil, fmt.Errorf("ssh server: %w", err)
	}
	s.hostSigners = srv.HostSigners
	if len(s.hostSigners) > 0 {
		s.Fingerprint = gossh.FingerprintSHA256(s.hostSigners[0].PublicKey())
	}
	s.gate = newGate(s.ln, cfg, s.refused)
	s.gate.banned = func(host string) bool { _, ok := s.mod.addrBan(host); return ok }
	s.metrics.watchGate(s.gate)
	s.sshd = &termrt.Server{
		Handler:     srv.Handler,
		Config:      s.serverConfig,
		LoginGrace:  cfg.LoginGrace,
		Admit:       s.admitLate,
		LoginFailed: s.gate.loginFailed,
		OpenSession: s.openSession,
		Log:         logger,
	}
	if cfg.HTTP != "" {
		if s.httpLn, err = net.Listen("tcp", cfg.HTTP); err != nil {
			cancel()
			return nil, fmt.Errorf("listen %s (--http): %w", cfg.HTTP, err)
		}
		s.http = &http.Server{Handler: s.metrics.handler(s.health), ReadHeaderTimeout: 5 * time.Second}
	}
	if err := s.listenWeb(); err != nil {
		cancel()
		if s.httpLn != nil {
			s.httpLn.Close()
		}
		return nil, err
	}
	// Every table that was open when the server last stopped comes back before anyone
	// can connect, so a returning player finds their seat.
	// In a cluster the tables come back through their leases instead (cluster.Node).
	rctx, rcancel := context.WithTimeout(context.Background(), time.Minute)
	restored, err := 0, error(nil)
	if s.node == nil {
		restored, err = s.lobby.Restore(rctx)
	} else {
		err = s.node.Start(s.lobby)
	}
	rcancel()
	if err != nil {
		cancel()
		if s.httpLn != nil {
			s.httpLn.Close()
		}
		if s.web != nil {
			s.web.ln.Close()
		}
		return nil, err
	}
	if restored > 0 {
		logger.Info("tables restored", "tables", restored)
	}
	return s, nil
}

// sshCommand is how a player reaches this server, for the commands its help and
// messages give, with flags before the port ("-t" for a command that needs a
// terminal): "ssh -p 2222 HOST". The host is the one the player typed. The lobby and the
// session are given it (lobby.Config.SSHCommand, session.Options.SSH).
func (s *Server) sshCommand(flags ...string) string {
	words := append([]string{"ssh"}, flags...)
	if s.sshPort != "" {
		words = append(words, "-p", s.sshPort)
	}
	return strings.Join(append(words, "HOST"), " ")
}

// Addr is the SSH listener's address.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// HTTPAddr is the metrics listener's address, or "" when disabled.
func (s *Server) HTTPAddr() string {
	if s.httpLn == nil {
		return ""
	}
	return s.httpLn.Addr().String()
}

// Lobby is the server's lobby (for tests and tools).
func (s *Server) Lobby() *lobby.Lobby { return s.lobby }

// Node is the server's part of its cluster; nil for a lone server.
func (s *Server) Node() *cluster.Node { return s.node }

// Serve accepts connections until ctx ends, then shuts down: every player is told the
// server is going down, their sessions end, and Serve returns within about 10 seconds.
func (s *Server) Serve(ctx context.Context) error {
	errc := make(chan error, 3)
	go func() { errc <- s.sshd.Serve(s.gate) }()
	if s.http != nil {
		go func() { errc <- s.http.Serve(s.httpLn) }()
	}
	if s.web != nil {
		go func() { errc <- s.web.serve() }()
	}
	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, ssh.ErrServerClosed) && !errors.Is(err, http.ErrServerClosed) {
			s.shutdown()
			return err
		}
	}
	s.shutdown()
	return nil
}

// How the 10 s a shutdown may take are spent: players get goodbyeGrace to see their
// goodbye and leave; then every connection is closed, which also ends any write stuck
// on a client that stopped reading; then tables, finished-game records and HTTP get
// stopGrace to wind down before the store closes.
const (
	goodbyeGrace = 5 * time.Second
	stopGrace    = 3 * time.Second
)

func (s *Server) shutdown() {
	s.log.Info("shutting down: saying goodbye to players")
	s.mu.Lock()
	s.closing = true
	live := make([]*liveSession, 0, len(s.sessions))
	for ls := range s.sessions {
		live = append(live, ls)
	}
	s.mu.Unlock()
	// Every goodbye on its own goroutine: a write to a client that stopped reading
	// blocks until its connection is closed below.
	// A cluster node first hands its tables to the other nodes, so that no game waits
	// for a lease to run out; its own players are told to connect again.
	if s.node != nil {
		s.node.Handoff(s.lobby.ShutdownNotice())
	}
	for _, ls := range live {
		go ls.bye()
	}
	s.stopAll()
	ctx, cancel := context.WithTimeout(context.Background(), goodbyeGrace)
	defer cancel()
	webDone := make(chan struct{})
	go func() {
		defer close(webDone)
		if s.web != nil {
			s.web.shutdown(ctx) // the browsers' sessions, in the same grace
		}
	}()
	if err := s.sshd.Shutdown(ctx); err != nil {
		s.log.Warn("some players did not leave in time; closing their connections", "err", err)
	}
	s.sshd.Close() // connections still logging in, or past the grace
	<-webDone
	// The loop closes the listener it serves; a shutdown that came before it started
	// serving (a signal right after start) closes it here, as the loop will on starting.
	_ = s.gate.Close()
	ctx, cancel = context.WithTimeout(context.Background(), stopGrace)
	defer cancel()
	if s.http != nil {
		_ = s.http.Shutdown(ctx)
	}
	if err := s.lobby.Shutdown(ctx); err != nil {
		s.log.Warn("tables did not stop in time", "err", err)
	}
	if s.node != nil {
		s.node.Kill() // its tables are handed over by now: this closes the connection
	}
	s.log.Info("stopped")
}

// admitLate finishes admitting a connection that came through a load balancer, and
// ties the gate's record of every connection to its SSH context.
func (s *Server) admitLate(ctx ssh.Context, c net.Conn) net.Conn {
	c = s.gate.admitLate(c)
	if gc, ok := c.(*gatedConn); ok {
		ctx.SetValue(gatedConnKey{}, gc)
	}
	return c
}

// track registers a live session; it returns false while the server is closing.
func (s *Server) track(ls *liveSession) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.sessions[ls] = struct{}{}
	s.metrics.sessions.Set(float64(len(s.sessions)))
	return true
}

func (s *Server) untrack(ls *liveSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, ls)
	s.metrics.sessions.Set(float64(len(s.sessions)))
}

// recordGame stores a finished game; it runs on its own goroutine.
func (s *Server) recordGame(g lobby.FinishedGame) {
	rec := store.FinishedGame{GameID: g.Game, Table: g.Table, FinishedAt: g.At}
	won := map[int]bool{}
	for _, w := range g.Result.Winners {
		won[w] = true
	}
	for i := range g.Names {
		seat := store.Seat{PlayerID: g.Players[i], Name: g.Names[i], Winner: won[i]}
		if i < len(g.Result.Scores) {
			seat.Score = g.Result.Scores[i]
		}
		rec.Seats = append(rec.Seats, seat)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.wrote(s.store.RecordGame(ctx, rec)); err != nil {
		s.log.Warn("could not record a finished game", "table", g.Table, "err", err)
	}
}

// wrote remembers how a write to the store went, for /healthz, and returns err. A write
// given up because its player left says nothing about the store.
func (s *Server) wrote(err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	s.mu.Lock()
	s.writeErr = err
	s.mu.Unlock()
	return err
}

// health is what /healthz reports: nil while parlor can take players and keep their
// games.
func (s *Server) health() error {
	s.mu.Lock()
	closing, werr := s.closing, s.writeErr
	s.mu.Unlock()
	switch {
	case closing:
		return errors.New("shutting down")
	case werr != nil:
		return fmt.Errorf("the last write to the store failed: %v", werr)
	}
	if err := writable(s.cfg.DataDir); err != nil {
		return fmt.Errorf("the data directory is not writable: %v", err)
	}
	return nil
}

// identify turns the SSH connection into a player: a key's fingerprint, or a guest.
func (s *Server) identify(sess ssh.Session) (p lobby.Player, known bool) {
	p.Addr, _, _ = net.SplitHostPort(sess.RemoteAddr().String())
	if key := sess.PublicKey(); key != nil {
		p.ID = gossh.FingerprintSHA256(key)
		p.Admin = slices.Contains(s.cfg.Admins, p.ID)
		ctx, cancel := context.WithTimeout(sess.Context(), 3*time.Second)
		defer cancel()
		if rec, err := s.store.Player(ctx, p.ID); err == nil {
			_ = s.wrote(s.store.SavePlayer(ctx, store.Player{ID: p.ID, Name: rec.Name, FirstSeen: rec.FirstSeen, LastSeen: time.Now()}))
			// A name stored before today's rules (the sanitiser, the column limit) is
			// checked again: if it no longer passes as it is, the player picks a name,
			// with the cleaned one offered.
			name, err := session.CheckName(rec.Name)
			if err == nil && name == rec.Name {
				p.Name = name
				return p, true
			}
			p.Name = playertext.Truncate(name, session.NameMax)
			return p, false
		}
	} else {
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		p.ID, p.Guest = "guest:"+hex.EncodeToString(b), true
	}
	p.Name = suggestName(sess.User())
	return p, false
}

func storePlayer(id, name string, now time.Time) store.Player {
	return store.Player{ID: id, Name: name, FirstSeen: now, LastSeen: now}
}
