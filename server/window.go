package server

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"sync"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// The largest terminal parlor draws for. Bubble Tea allocates a width×height cell buffer
// for every session, so a client's word on its size is clamped before anything sees it:
// 5000×5000 would be gigabytes. 0×0 passes through and shows the "please enlarge" screen.
const (
	maxColumns = 500
	maxRows    = 200
)

// windowEnv is the environment variable that carries a session's window feed id from the
// request filter to the handler (an SSH connection may hold several sessions, and
// charm.land/ssh gives a handler no other way to tell which channel it serves).
const windowEnv = "PARLOR_WINDOW"

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
func clamp(cols, rows, wpx, hpx uint32) (uint32, uint32, uint32, uint32) {
	c, r := min(cols, maxColumns), min(rows, maxRows)
	if c != cols || r != rows {
		wpx, hpx = 0, 0
	}
	return c, r, wpx, hpx
}

// windowFeed holds a session's newest window size; reading it never blocks the SSH
// request loop, however slowly the session takes it.
type windowFeed struct {
	mu      sync.Mutex
	win     ssh.Window
	changed chan struct{} // has a value (coalesced) after each change, until Watch

	// screen is the session's channel itself, for the painter's frames. A session's
	// Write goes through charm.land/ssh's ptyWriter, which replaces every "\n" with
	// "\r\n" and copies each write twice to do it, newline or not (7 % of the server's
	// allocations under load); the painter moves the cursor and writes no newline.
	screen io.Writer

	// watch, once set, is handed each new size instead, by a goroutine that lives only
	// while a size is on its way (sending): a session holds no goroutine waiting for
	// resizes, and a flood of them coalesces into the newest.
	watch   func(ssh.Window)
	sending bool
	fresh   bool // a size the sending goroutine has not handed over yet
}

func (f *windowFeed) set(w ssh.Window) {
	f.mu.Lock()
	f.win = w
	watching := f.watch != nil
	start := watching && !f.sending
	if watching {
		f.fresh, f.sending = true, true
	}
	f.mu.Unlock()
	if start {
		go f.deliver()
	}
	if !watching {
		select {
		case f.changed <- struct{}{}:
		default:
		}
	}
}

// deliver hands the newest size to watch until no newer one came meanwhile.
func (f *windowFeed) deliver() {
	for {
		f.mu.Lock()
		if !f.fresh {
			f.sending = false
			f.mu.Unlock()
			return
		}
		f.fresh = false
		w, watch := f.win, f.watch
		f.mu.Unlock()
		watch(w)
	}
}

// Watch hands every later size to watch (which may block: one call at a time), and
// the newest one at once if the size changed before.
func (f *windowFeed) Watch(watch func(ssh.Window)) {
	f.mu.Lock()
	f.watch = watch
	start := false
	select {
	case <-f.changed:
		start = !f.sending
		f.fresh, f.sending = true, true
	default:
	}
	f.mu.Unlock()
	if start {
		go f.deliver()
	}
}

// Window is the newest size the client asked for, clamped.
func (f *windowFeed) Window() ssh.Window {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.win
}

// windowFeeds finds a session's feed by the id the filter put in its environment.
type windowFeeds struct{ m sync.Map }

// of returns the session's feed, or nil for a session without a PTY.
func (w *windowFeeds) of(sess ssh.Session) *windowFeed {
	for _, kv := range sess.Environ() {
		if id, ok := strings.CutPrefix(kv, windowEnv+"="); ok {
			if f, ok := w.m.Load(id); ok {
				return f.(*windowFeed)
			}
		}
	}
	return nil
}

// openSession is the "session" channel handler: charm.land/ssh's own, behind a filter of
// the channel's requests (windowFilter).
// It also bounds the sessions one connection may hold at once.
func (s *Server) openSession(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	if c := connOf(ctx); c != nil {
		if !c.openChannel() {
			s.refused.add(c.host, refusedTooManyChannels)
			_ = nc.Reject(gossh.ResourceShortage, fmt.Sprintf("parlor takes at most %d sessions per connection", maxChannelsPerConn))
			return
		}
		defer c.closeChannel()
	}
	ssh.DefaultSessionHandler(srv, conn, filteredChannel{nc, s.windows.filter}, ctx)
}

// filteredChannel hands the library a filtered copy of the channel's requests.
type filteredChannel struct {
	gossh.NewChannel
	filter func(ch gossh.Channel, in <-chan *gossh.Request) <-chan *gossh.Request
}

func (c filteredChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	return ch, c.filter(ch, reqs), nil
}

// filter clamps the size in a pty-req and answers window-change requests itself, into the
// session's windowFeed, so that the library never sees them.
//
// Why parlor answers window-change: charm.land/ssh v0.4.3 (session.go, handleRequests,
// case "window-change") sends each size on sess.winch, a channel with room for one, from
// the session's request loop. Once nobody reads it (the program ended, the connection
// dropped, or no handler ever started), that send blocks forever, and with it the
// request loop, its goroutine and everything the session holds: ~1 MB per connection
// that resized and dropped. Here every size lands in a coalescing feed instead.
func (w *windowFeeds) filter(ch gossh.Channel, in <-chan *gossh.Request) <-chan *gossh.Request {
	out := make(chan *gossh.Request)
	go func() {
		defer close(out)
		var feed *windowFeed
		id := ""
		defer func() {
			if id != "" {
				w.m.Delete(id)
			}
		}()
		started := false
		for req := range in {
			switch req.Type {
			case "pty-req":
				var p ptyRequest
				if feed != nil || started || gossh.Unmarshal(req.Payload, &p) != nil {
					break // the library refuses it
				}
				p.Columns, p.Rows, p.Width, p.Height = clamp(p.Columns, p.Rows, p.Width, p.Height)
				req.Payload = gossh.Marshal(p)
				feed = &windowFeed{changed: make(chan struct{}, 1), screen: ch,
					win: ssh.Window{Width: int(p.Columns), Height: int(p.Rows), WidthPixels: int(p.Width), HeightPixels: int(p.Height)}}
				b := make([]byte, 8)
				_, _ = rand.Read(b)
				id = hex.EncodeToString(b)
				w.m.Store(id, feed)
			case "window-change":
				var c windowChange
				ok := feed != nil && gossh.Unmarshal(req.Payload, &c) == nil
				if ok {
					c.Columns, c.Rows, c.Width, c.Height = clamp(c.Columns, c.Rows, c.Width, c.Height)
					feed.set(ssh.Window{Width: int(c.Columns), Height: int(c.Rows), WidthPixels: int(c.Width), HeightPixels: int(c.Height)})
				}
				_ = req.Reply(ok, nil)
				continue
			case "env":
				var kv struct{ Key, Value string }
				if gossh.Unmarshal(req.Payload, &kv) == nil && kv.Key == windowEnv {
					_ = req.Reply(false, nil) // only the filter names feeds
					continue
				}
			case "shell", "exec":
				if id != "" && !started {
					started = true
					out <- &gossh.Request{Type: "env", Payload: gossh.Marshal(struct{ Key, Value string }{windowEnv, id})}
				}
			}
			out <- req
		}
	}()
	return out
}
