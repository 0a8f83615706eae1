package termrt

import (
	"errors"
	"io"
	"net"
	"sync"

	"charm.land/ssh"
	"github.com/anmitsu/go-shlex"
	gossh "golang.org/x/crypto/ssh"
)

// The largest terminal parlor draws for. A session's frame is drawn for the window's
// size, so a client's word on its size is clamped before anything sees it: 5000×5000
// would be gigabytes. 0×0 passes through and shows the "please enlarge" screen.
const (
	maxColumns = 500
	maxRows    = 200
)

// maxEnv and maxEnvBytes bound the environment a client may send before its shell, in
// variables and in bytes: each is kept for the life of the session, and one packet may
// carry 256 KB. maxTerm bounds the terminal's name (longer is cut) and maxCommand an
// exec request's command (longer is refused): ours are a few words.
const (
	maxEnv      = 64
	maxEnvBytes = 16 << 10
	maxTerm     = 64
	maxCommand  = 4 << 10
)

// ptyRequest and windowChange are the SSH payloads that carry a window size
// (RFC 4254 6.2 and 6.7).
type ptyRequest struct {
	Term                         string
	Columns, Rows, Width, Height uint32
	Modes                        string
}

type windowChange struct{ Columns, Rows, Width, Height uint32 }

// clamp keeps a client's window within what parlor draws for. The pixel sizes are
// dropped when the cell sizes change, as they would no longer match.
func clamp(cols, rows, wpx, hpx uint32) ssh.Window {
	c, r := min(cols, maxColumns), min(rows, maxRows)
	if c != cols || r != rows {
		wpx, hpx = 0, 0
	}
	return ssh.Window{Width: int(c), Height: int(r), WidthPixels: int(wpx), HeightPixels: int(hpx)}
}

// Clamp keeps a window size that came other than by SSH (parlor's browser door) within
// what parlor draws for, as an SSH client's is: 0 and below pass as 0.
func Clamp(cols, rows int) ssh.Window {
	return ssh.Window{Width: min(max(cols, 0), maxColumns), Height: min(max(rows, 0), maxRows)}
}

// A Resizer is a session that is not an SSH channel, whose window changes come with
// its input (parlor's browser door): Run gives it, before reading its input, the
// function that takes each new size to the program (blocking, as a key does). The
// sizes are to be clamped (Clamp) by the session.
type Resizer interface {
	OnResize(resized func(ssh.Window))
}

// channelSession is a "session" channel: charm.land/ssh's Session, whose requests
// (RFC 4254 6) are answered on the channel's own goroutine, which then runs the
// session's handler, and whose player's program takes them in its loop.
//
// Why not charm.land/ssh's session (DefaultSessionHandler): it answers the requests on
// one goroutine and runs the handler on another, and hands each window size over on a
// channel with room for one, from its request loop. A player's session thus held two
// goroutines for it, plus one of parlor's in front of it, because once nobody read
// that channel (the program ended, the connection dropped, or no handler ever started)
// the send blocked forever, and with it the request loop and everything the session
// held: ~1 MB per connection that resized and dropped. Here the requests are read by
// whoever has the channel's goroutine at the time: this loop before the shell starts,
// the player's program while it runs (a window change is a message to it like a key),
// or, for the long sessions that have no program (api, pack), a goroutine of their own
// (ServeAside). Sizes are clamped on the way in, and a flood of them ends in the newest.
type channelSession struct {
	gossh.Channel
	conn *gossh.ServerConn
	ctx  ssh.Context
	reqs <-chan *gossh.Request

	mu       sync.Mutex
	env      []string
	envBytes int      // of env
	pty      *ssh.Pty // with the newest window; nil without a terminal
	started  bool     // a shell or command was asked for
	rawCmd   string
	exited   bool
}

// openSession is the "session" channel handler. It asks OpenSession whether the
// connection may hold one more, answers the channel's requests, runs the handler when
// the client asks for a shell or a command, and answers what comes after until the
// channel closes: requests nobody read would stop the whole connection (x/crypto/ssh's
// channel holds 16 before its reader waits).
func (s *Server) openSession(conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	if s.OpenSession != nil {
		release, err := s.OpenSession(ctx)
		if err != nil {
			_ = nc.Reject(gossh.ResourceShortage, err.Error())
			return
		}
		if release != nil {
			defer release()
		}
	}
	ch, reqs, err := nc.Accept()
	if err != nil {
		return
	}
	sess := &channelSession{Channel: ch, conn: conn, ctx: ctx, reqs: reqs}
	for req := range reqs {
		if _, start := sess.serve(req); start {
			s.Handler(sess)
			_ = sess.Exit(0) // if the handler did not
			break
		}
	}
	for req := range reqs {
		sess.serve(req)
	}
}

// serve answers one request. It tells the new window when the request changed the
// size, and start when it asked for the shell or a command.
func (c *channelSession) serve(req *gossh.Request) (win *ssh.Window, start bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ok := false
	switch req.Type {
	case "pty-req":
		var p ptyRequest
		if c.pty == nil && !c.started && gossh.Unmarshal(req.Payload, &p) == nil {
			if len(p.Term) > maxTerm {
				p.Term = p.Term[:maxTerm]
			}
			c.pty = &ssh.Pty{Term: p.Term, Window: clamp(p.Columns, p.Rows, p.Width, p.Height)}
			ok = true
		}
	case "window-change":
		var w windowChange
		if c.pty != nil && gossh.Unmarshal(req.Payload, &w) == nil {
			size := clamp(w.Columns, w.Rows, w.Width, w.Height)
			c.pty.Window, win, ok = size, &size, true // a copy: the caller reads it unlocked
		}
	case "env":
		var kv struct{ Key, Value string }
		if !c.started && len(c.env) < maxEnv && gossh.Unmarshal(req.Payload, &kv) == nil &&
			c.envBytes+len(kv.Key)+1+len(kv.Value) <= maxEnvBytes {
			c.env = append(c.env, kv.Key+"="+kv.Value)
			c.envBytes += len(kv.Key) + 1 + len(kv.Value)
			ok = true
		}
	case "shell", "exec":
		var cmd struct{ Value string }
		if !c.started && (req.Type == "shell" || gossh.Unmarshal(req.Payload, &cmd) == nil && len(cmd.Value) <= maxCommand) {
			c.started, c.rawCmd = true, cmd.Value
			ok, start = true, true
		}
	}
	// Everything else (subsystems, signals, breaks, agent forwarding) is refused.
	_ = req.Reply(ok, nil)
	return win, start
}

// ServeAside answers sess's requests on a goroutine of their own until the returned
// function is called. A handler that runs for long without a player's program (whose
// loop takes them) calls it: parlor's API and packs. Those that only print and end
// (help, errors) need not, as the channel's goroutine answers what came meanwhile after
// them.
func ServeAside(sess ssh.Session) (stop func()) {
	if c, ok := sess.(*channelSession); ok {
		return c.serveAside()
	}
	return func() {}
}

func (c *channelSession) serveAside() (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case <-done:
				return
			case req, ok := <-c.reqs:
				if !ok {
					return
				}
				c.serve(req)
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// The rest is charm.land/ssh's Session, as its own session does it.

func (c *channelSession) Write(p []byte) (int, error) {
	if c.terminal() {
		return ssh.NewPtyWriter(c.Channel).Write(p) // "\n" as "\r\n"
	}
	return c.Channel.Write(p)
}

func (c *channelSession) Stderr() io.ReadWriter {
	if c.terminal() {
		return ssh.NewPtyReadWriter(c.Channel.Stderr())
	}
	return c.Channel.Stderr()
}

func (c *channelSession) terminal() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pty != nil
}

func (c *channelSession) Exit(code int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.exited {
		return errors.New("session already exited")
	}
	c.exited = true
	status := struct{ Status uint32 }{uint32(code)}
	if _, err := c.SendRequest("exit-status", false, gossh.Marshal(&status)); err != nil {
		return err
	}
	return c.Close()
}

func (c *channelSession) User() string { return c.conn.User() }
func (c *channelSession) Context() ssh.Context {
	return c.ctx
}
func (c *channelSession) RemoteAddr() net.Addr { return c.conn.RemoteAddr() }
func (c *channelSession) LocalAddr() net.Addr  { return c.conn.LocalAddr() }
func (c *channelSession) RawCommand() string   { return c.rawCmd }
func (c *channelSession) Subsystem() string    { return "" }
func (c *channelSession) EmulatedPty() bool    { return c.terminal() }

func (c *channelSession) Command() []string {
	cmd, _ := shlex.Split(c.rawCmd, true)
	return cmd
}

func (c *channelSession) Environ() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.env...)
}

func (c *channelSession) PublicKey() ssh.PublicKey {
	k, _ := c.ctx.Value(ssh.ContextKeyPublicKey).(ssh.PublicKey)
	return k
}

func (c *channelSession) Permissions() ssh.Permissions { return *c.ctx.Permissions() }

// Pty is the terminal the client asked for, with its newest window. No channel of
// sizes comes with it: the player's program takes them from the requests.
func (c *channelSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pty == nil {
		return ssh.Pty{}, nil, false
	}
	return *c.pty, nil, true
}

// Signals and Break: parlor takes neither; the requests are refused.
func (c *channelSession) Signals(chan<- ssh.Signal) {}
func (c *channelSession) Break(chan<- bool)         {}
