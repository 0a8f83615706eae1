package server

import (
	"context"
	"encoding/hex"
	"errors"
	"net"
	"runtime/debug"
	"sync"
	"time"

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
// still loads the host key and chains the middleware (Listen); what this replaces is
// the library's loop around x/crypto/ssh, with the same behaviour for parlor: every
// public key is let in (it is the player's identity), key-less clients are let in as
// guests when guests are on, only "session" channels are opened, global requests are
// refused, the session's context ends when the connection does, and a shutdown waits
// for connections to end before closing them.

// conns is every connection being served, for Shutdown and Close.
type conns struct {
	mu     sync.Mutex
	m      map[net.Conn]struct{}
	closed bool // no more connections are served
}

// add registers c; false once the server has closed.
func (cs *conns) add(c net.Conn) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.closed {
		return false
	}
	if cs.m == nil {
		cs.m = map[net.Conn]struct{}{}
	}
	cs.m[c] = struct{}{}
	return true
}

func (cs *conns) remove(c net.Conn) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.m, c)
}

func (cs *conns) count() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return len(cs.m)
}

// serveSSH accepts connections from ln until it is closed, each served on a goroutine
// of its own. It returns ssh.ErrServerClosed after shutdownSSH or closeSSH.
func (s *Server) serveSSH(ln net.Listener) error {
	var delay time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			s.conns.mu.Lock()
			closed := s.conns.closed
			s.conns.mu.Unlock()
			if closed {
				return ssh.ErrServerClosed
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			// Anything else (out of file descriptors, say) may pass: wait a little
			// longer each time, as net/http does, rather than stop serving.
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			s.log.Warn("accepting a connection failed; trying again", "err", err, "in", delay)
			time.Sleep(delay)
			continue
		}
		delay = 0
		go s.serveConn(c)
	}
}

// shutdownSSH stops accepting connections and waits until every one has ended, or ctx
// has; then it returns ctx's error.
func (s *Server) shutdownSSH(ctx context.Context) error {
	s.conns.mu.Lock()
	s.conns.closed = true
	s.conns.mu.Unlock()
	_ = s.gate.Close()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for s.conns.count() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

// closeSSH stops accepting connections and closes every one.
func (s *Server) closeSSH() {
	s.conns.mu.Lock()
	s.conns.closed = true
	open := make([]net.Conn, 0, len(s.conns.m))
	for c := range s.conns.m {
		open = append(open, c)
	}
	s.conns.mu.Unlock()
	_ = s.gate.Close()
	for _, c := range open {
		_ = c.Close()
	}
}

// serveConn logs the client in and serves its channels and global requests until the
// connection ends.
func (s *Server) serveConn(c net.Conn) {
	ctx := newConnContext()
	defer ctx.cancel()
	defer s.recoverConn("serving a connection", c)
	if c = s.admitLate(ctx, c); c == nil {
		return
	}
	c = &cancelOnClose{c, ctx.cancel}
	if !s.conns.add(c) {
		_ = c.Close()
		return
	}
	defer s.conns.remove(c)
	defer c.Close()
	if s.cfg.LoginGrace > 0 {
		_ = c.SetDeadline(time.Now().Add(s.cfg.LoginGrace))
	}
	conn, chans, reqs, err := gossh.NewServerConn(c, s.serverConfig(ctx))
	if err != nil {
		s.gate.loginFailed(c, err)
		s.log.Debug("connection ended before login", "remote", c.RemoteAddr().String(), "err", err)
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
// connection's goroutines outside a session's handler (which has its own,
// recoverPanics).
func (s *Server) recoverConn(what string, c net.Conn) {
	if r := recover(); r != nil {
		s.log.Error("panic "+what, "remote", c.RemoteAddr().String(), "panic", r, "stack", string(debug.Stack()))
		_ = c.Close()
	}
}

// noGuests is what a client without a key is told when guests are off.
const noGuests = "This parlor server lets in players with an SSH key only. Make one with\n" +
	"  ssh-keygen -t ed25519\n" +
	"and connect again: ssh offers it by itself, and it keeps your name and your seat."

// publicKeyExt carries the key a client logged in with from x/crypto/ssh's callback,
// which may be asked about keys the client then does not use, to the connection.
const publicKeyExt = "parlor-public-key"

// serverConfig is the connection's x/crypto/ssh configuration: the algorithms, the
// host key and the login methods.
func (s *Server) serverConfig(ctx ssh.Context) *gossh.ServerConfig {
	cfg := sshConfig(ctx)
	for _, k := range s.hostSigners {
		cfg.AddHostKey(k)
	}
	cfg.PublicKeyCallback = func(_ gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
		return &gossh.Permissions{Extensions: map[string]string{publicKeyExt: string(key.Marshal())}}, nil
	}
	// Key-less clients get in as guests without being asked anything. With guests off
	// they are refused, but told why and what to do: "Permission denied (publickey)"
	// alone left a newcomer without a key guessing. (The advice is the challenge's
	// instruction, with no question: ssh prints it, and a client with a key, which logs
	// in by its key first, never sees it.)
	told := false // once per connection: ssh tries the method three times
	cfg.KeyboardInteractiveCallback = func(_ gossh.ConnMetadata, ask gossh.KeyboardInteractiveChallenge) (*gossh.Permissions, error) {
		if s.cfg.Guests {
			return &gossh.Permissions{}, nil
		}
		if !told {
			told = true
			_, _ = ask("", noGuests, nil, nil)
		}
		return nil, errors.New("guests are not let in")
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
