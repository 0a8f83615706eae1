package termrt

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"runtime/debug"
	"sync"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// The SSH connections: the accept loop, each connection's login and its one goroutine.
//
// Why not charm.land/ssh's Server.Serve: for each connection it keeps two goroutines
// besides x/crypto/ssh's three, one waiting for the client's new channels and one for
// its global requests (server.go, handleConn and handleRequests). Here one goroutine
// waits for both, and each session channel gets one more (openSession), so that a
// player's session holds six: x/crypto/ssh's reader, key exchange and multiplexer, the
// connection's, the session's (which runs the player's program) and the key reader.
// charm.land/ssh's Session and Context are still what the handlers see, and wish
// still loads the host key and chains the middleware (parlor's server.Listen); what
// this replaces is the library's loop around x/crypto/ssh, with the same behaviour for
// parlor: who logs in is Config's to decide (parlor's server lets in every public key,
// the player's identity, and key-less guests when guests are on), only "session"
// channels are opened, global requests are refused, the session's context ends when the
// connection does, and a shutdown waits for connections to end before closing them.

// Server serves SSH connections with the loop described above. Handler and Config must
// be set; the other fields are optional.
type Server struct {
	// Handler runs a session once its client asks for a shell or a command: the
	// middleware chain wish made.
	Handler ssh.Handler
	// Config makes one connection's x/crypto/ssh configuration: its algorithms, host
	// keys and login callbacks, which decide who gets in. Whatever key its
	// PublicKeyCallback lets in is the one the sessions' PublicKey gives.
	Config func(ctx ssh.Context) *gossh.ServerConfig
	// LoginGrace bounds the key exchange and login of a connection; 0: no bound.
	LoginGrace time.Duration
	// Admit is called on a new connection's own goroutine, before the key exchange,
	// with the connection's context: it returns the connection to serve (the same, or
	// one wrapping it), or nil for one it has refused and closed. Nil admits everyone.
	Admit func(ctx ssh.Context, c net.Conn) net.Conn
	// LoginFailed hears why a connection ended before its login; may be nil.
	LoginFailed func(c net.Conn, err error)
	// OpenSession is asked before a session channel is opened: an error refuses the
	// channel, with its text for the client; release is called once the channel has
	// closed. Nil opens every one.
	OpenSession func(ctx ssh.Context) (release func(), err error)
	// Log takes the loop's few lines: an accept that failed, a connection that ended
	// before login, a panic outside a session's handler. Nil: none are written.
	Log *log.Logger

	mu        sync.Mutex
	conns     map[net.Conn]struct{} // every connection being served
	listeners map[net.Listener]struct{}
	closed    bool // no more connections are served
}

// discard is the logger of a Server without one.
var discard = log.New(io.Discard)

func (s *Server) logger() *log.Logger {
	if s.Log == nil {
		return discard
	}
	return s.Log
}

// add registers c; false once the server has closed.
func (s *Server) add(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if s.conns == nil {
		s.conns = map[net.Conn]struct{}{}
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *Server) remove(c net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, c)
}

func (s *Server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Serve accepts connections from ln until it is closed, each served on a goroutine of
// its own. It returns ssh.ErrServerClosed after Shutdown or Close, which close ln.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = ln.Close()
		return ssh.ErrServerClosed
	}
	if s.listeners == nil {
		s.listeners = map[net.Listener]struct{}{}
	}
	s.listeners[ln] = struct{}{}
	s.mu.Unlock()
	var delay time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return ssh.ErrServerClosed
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			// Anything else (out of file descriptors, say) may pass: wait a little
			// longer each time, as net/http does, rather than stop serving.
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			s.logger().Warn("accepting a connection failed; trying again", "err", err, "in", delay)
			time.Sleep(delay)
			continue
		}
		delay = 0
		go s.serveConn(c)
	}
}

// stop marks the server closed and closes its listeners; it returns the connections
// being served.
func (s *Server) stop() []net.Conn {
	s.mu.Lock()
	s.closed = true
	open := make([]net.Conn, 0, len(s.conns))
	for c := range s.conns {
		open = append(open, c)
	}
	lns := s.listeners
	s.listeners = nil
	s.mu.Unlock()
	for ln := range lns {
		_ = ln.Close()
	}
	return open
}

// Shutdown stops accepting connections and waits until every one has ended, or ctx
// has; then it returns ctx's error.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for s.count() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

// Close stops accepting connections and closes every one.
func (s *Server) Close() {
	for _, c := range s.stop() {
		_ = c.Close()
	}
}

// serveConn logs the client in and serves its channels and global requests until the
// connection ends.
func (s *Server) serveConn(c net.Conn) {
	ctx := newConnContext()
	defer ctx.cancel()
	defer s.recoverConn("serving a connection", c)
	if s.Admit != nil {
		if c = s.Admit(ctx, c); c == nil {
			return
		}
	}
	c = &cancelOnClose{c, ctx.cancel}
	if !s.add(c) {
		_ = c.Close()
		return
	}
	defer s.remove(c)
	defer c.Close()
	if s.LoginGrace > 0 {
		_ = c.SetDeadline(time.Now().Add(s.LoginGrace))
	}
	conn, chans, reqs, err := gossh.NewServerConn(c, s.config(ctx))
	if err != nil {
		if s.LoginFailed != nil {
			s.LoginFailed(c, err)
		}
		s.logger().Debug("connection ended before login", "remote", c.RemoteAddr().String(), "err", err)
		return
	}
	_ = c.SetDeadline(time.Time{})
	ctx.loggedIn(conn)
	for {
		select {
		case nc, ok := <-chans:
			if !ok {
				return // the connection ended
			}
			if nc.ChannelType() != "session" { // no port forwarding, no other channel types
				_ = nc.Reject(gossh.UnknownChannelType, "parlor opens only sessions")
				continue
			}
			go func() {
				defer s.recoverConn("serving a session", c)
				s.openSession(conn, nc, ctx)
			}()
		case req, ok := <-reqs:
			if !ok {
				reqs = nil // never ready again; the channels' end is the connection's
				continue
			}
			_ = req.Reply(false, nil) // no forwarding; an OpenSSH keepalive takes a refusal as an answer
		}
	}
}

// recoverConn ends with a log line, instead of the whole server, a panic on one of a
// connection's goroutines outside a session's handler (which has its own recovery in
// the middleware).
func (s *Server) recoverConn(what string, c net.Conn) {
	if r := recover(); r != nil {
		s.logger().Error("panic "+what, "remote", c.RemoteAddr().String(), "panic", r, "stack", string(debug.Stack()))
		_ = c.Close()
	}
}

// publicKeyExt carries the key a client logged in with from x/crypto/ssh's callback,
// which may be asked about keys the client then does not use, to the connection.
const publicKeyExt = "parlor-public-key"

// config is Config's configuration, with the key a PublicKeyCallback lets in recorded
// for the connection's context (loggedIn).
func (s *Server) config(ctx ssh.Context) *gossh.ServerConfig {
	cfg := s.Config(ctx)
	if check := cfg.PublicKeyCallback; check != nil {
		cfg.PublicKeyCallback = func(m gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
			perms, err := check(m, key)
			if err != nil {
				return perms, err
			}
			out := &gossh.Permissions{Extensions: map[string]string{publicKeyExt: string(key.Marshal())}}
			if perms != nil {
				out.CriticalOptions = perms.CriticalOptions
				for k, v := range perms.Extensions {
					out.Extensions[k] = v
				}
			}
			return out, nil
		}
	}
	return cfg
}

// cancelOnClose ends the connection's context when the connection is closed, by
// parlor or by x/crypto/ssh when the client goes: the session's program ends with it.
type cancelOnClose struct {
	net.Conn
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	c.cancel()
	return c.Conn.Close()
}

// connContext is a connection's ssh.Context, what charm.land/ssh's handlers and
// sessions read the login from (the library's own has no exported constructor).
type connContext struct {
	context.Context
	cancel     context.CancelFunc
	sync.Mutex // ssh.Context is a Locker, for the handlers' own use

	mu     sync.Mutex
	values map[any]any
	conn   *gossh.ServerConn // once logged in
	perms  ssh.Permissions
}

func newConnContext() *connContext {
	ctx, cancel := context.WithCancel(context.Background())
	c := &connContext{Context: ctx, cancel: cancel, values: map[any]any{}}
	c.perms.Permissions = &gossh.Permissions{}
	return c
}

// loggedIn records the login: the connection, and the public key if one was used.
func (c *connContext) loggedIn(conn *gossh.ServerConn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conn = conn
	if conn.Permissions != nil {
		c.perms.Permissions = conn.Permissions
		if k, err := gossh.ParsePublicKey([]byte(conn.Permissions.Extensions[publicKeyExt])); err == nil {
			c.values[ssh.ContextKeyPublicKey] = k
		}
	}
}

func (c *connContext) Value(key any) any {
	c.mu.Lock()
	v, ok := c.values[key]
	c.mu.Unlock()
	if ok {
		return v
	}
	return c.Context.Value(key)
}

func (c *connContext) SetValue(key, value any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.values[key] = value
}

// metadata is the logged-in connection, or nil before.
func (c *connContext) metadata() *gossh.ServerConn {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conn
}

func (c *connContext) User() string {
	if m := c.metadata(); m != nil {
		return m.User()
	}
	return ""
}

func (c *connContext) SessionID() string {
	if m := c.metadata(); m != nil {
		return hex.EncodeToString(m.SessionID())
	}
	return ""
}

func (c *connContext) ClientVersion() string {
	if m := c.metadata(); m != nil {
		return string(m.ClientVersion())
	}
	return ""
}

func (c *connContext) ServerVersion() string {
	if m := c.metadata(); m != nil {
		return string(m.ServerVersion())
	}
	return ""
}

func (c *connContext) RemoteAddr() net.Addr {
	if m := c.metadata(); m != nil {
		return m.RemoteAddr()
	}
	return nil
}

func (c *connContext) LocalAddr() net.Addr {
	if m := c.metadata(); m != nil {
		return m.LocalAddr()
	}
	return nil
}

func (c *connContext) Permissions() *ssh.Permissions {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &c.perms
}
