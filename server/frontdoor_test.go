package server_test

import (
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"parlor/internal/testkit/e2e"
	"parlor/server"
	"parlor/store"
)

// windowChange is the payload of an SSH window-change request (RFC 4254 6.7).
type windowChange struct{ Columns, Rows, Width, Height uint32 }

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestHugeWindowIsClamped: a client asking for an absurd terminal gets the normal
// screen at the largest size parlor draws, and the server's memory stays flat.
func TestHugeWindowIsClamped(t *testing.T) {
	s := e2e.Start(t, nil)
	before := liveHeap()
	p := s.ConnectAsking(t, "big", e2e.NewKey(t), "", 5000, 5000, 500, 200)
	p.WaitFor("Welcome to parlor")
	for _, step := range []struct {
		w, h int
		see  string
	}{
		{5000, 10, "It is 500×10 now."},
		{70, 5000, "It is 70×200 now."},
		{0, 0, ""},
		{40, 3, "It is 40×3 now."},
		{5000, 5000, "Welcome to parlor"},
	} {
		if err := p.AskWindow(step.w, step.h); err != nil {
			t.Fatalf("window-change %d×%d: %v", step.w, step.h, err)
		}
		if step.see != "" {
			p.WaitFor(step.see)
		}
	}
	// A client that says 0×0 (its size unknown) gets the normal screen once it tells.
	zero := s.ConnectAsking(t, "zero", e2e.NewKey(t), "", 0, 0, 80, 24)
	if err := zero.AskWindow(80, 24); err != nil {
		t.Fatal(err)
	}
	zero.WaitFor("Welcome to parlor")

	const bound = 64 << 20
	if grew := int64(liveHeap()) - int64(before); grew > bound {
		t.Fatalf("one session with a huge window grew the heap by %d MB (bound %d MB)", grew>>20, bound>>20)
	}
}

// TestResizeAndDropLeavesNothing: sessions that resize and vanish leave no goroutine
// behind (charm.land/ssh's session, which parlor no longer uses, blocked its request loop
// forever on a window channel nobody read).
func TestResizeAndDropLeavesNothing(t *testing.T) {
	s := e2e.Start(t, nil)
	s.FromManyAddresses()
	warm := s.Connect(t, "warm", e2e.NewKey(t), "", 80, 24)
	warm.WaitFor("Welcome to parlor")
	warm.Close()
	base := settledGoroutines(t, -1)
	for i := 0; i < 100; i++ {
		c := s.Dial(t, "drop", e2e.Guest)
		sess, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
			t.Fatal(err)
		}
		out, _ := sess.StdoutPipe()
		if err := sess.Shell(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1)
		if _, err := out.Read(buf); err != nil { // the program is running
			t.Fatal(err)
		}
		for j := 0; j < 30; j++ { // a window being dragged, without waiting for replies
			_, _ = sess.SendRequest("window-change", false, gossh.Marshal(windowChange{Columns: uint32(80 + j), Rows: uint32(24 + j)}))
		}
		_ = c.Close()
	}
	if got := settledGoroutines(t, base+10); got > base+10 {
		t.Fatalf("goroutines: %d before, %d after 100 resize-and-drop sessions", base, got)
	}
}

// settledGoroutines waits (boundedly) until the goroutine count is at most want, or stops
// changing, and returns it. want < 0 just waits for it to settle.
func settledGoroutines(t *testing.T, want int) int {
	t.Helper()
	last, same := runtime.NumGoroutine(), 0
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		n := runtime.NumGoroutine()
		if want >= 0 && n <= want {
			return n
		}
		if n == last {
			if same++; same >= 10 && want < 0 {
				return n
			}
		} else {
			last, same = n, 0
		}
	}
	return runtime.NumGoroutine()
}

// startServer runs a server the test stops itself; it returns the stop function and the
// channel that gets Serve's result.
func startServer(t *testing.T, edit func(*server.Config)) (*e2e.Server, context.CancelFunc, <-chan error) {
	t.Helper()
	return startLogging(t, edit, io.Discard)
}

// startLogging is startServer with the server's log written to w.
func startLogging(t *testing.T, edit func(*server.Config), w io.Writer) (*e2e.Server, context.CancelFunc, <-chan error) {
	t.Helper()
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	return startWith(t, edit, w, st)
}

// startWith is startLogging on the store st.
func startWith(t *testing.T, edit func(*server.Config), w io.Writer, st store.Store) (*e2e.Server, context.CancelFunc, <-chan error) {
	t.Helper()
	cfg := server.Defaults()
	cfg.Listen, cfg.HTTP, cfg.Web, cfg.DataDir = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0", t.TempDir()
	if edit != nil {
		edit(&cfg)
	}
	logger, err := server.NewLogger(cfg, w)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.Listen(cfg, st, logger)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	return &e2e.Server{Server: srv}, stop, done
}

// TestShutdownWithClientsThatNeverRead: an API client and a TUI client that stopped
// reading cannot hold the shutdown past its grace period.
func TestShutdownWithClientsThatNeverRead(t *testing.T) {
	t.Parallel() // its own server, waiting out a shutdown's grace for most of its time
	s, stop, done := startServer(t, nil)

	// The API client sends garbage, each line answered by an error, and never reads the
	// answers. Once its writes stall beyond the server's receive window (2 MB), the
	// server has stopped reading: it is stuck writing to this client.
	api := s.Dial(t, "stuck", e2e.NewKey(t))
	defer api.Close()
	as, err := api.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	in, _ := as.StdinPipe()
	_, _ = as.StdoutPipe() // never read
	if err := as.Start("api"); err != nil {
		t.Fatal(err)
	}
	var written atomic.Int64
	go func() {
		chunk := []byte(strings.Repeat("x\n", 2<<10))
		for written.Load() < 16<<20 {
			n, err := in.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}()
	for last, deadline := int64(-1), time.Now().Add(e2e.Wait); ; {
		time.Sleep(time.Second)
		n := written.Load()
		if n == last && n >= 2<<20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the API client's writes never stalled (%d bytes)", n)
		}
		last = n
	}

	// The TUI client asks for big redraws and never reads them.
	tui := s.Dial(t, "frozen", e2e.NewKey(t))
	defer tui.Close()
	ts, err := tui.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := ts.RequestPty("xterm-256color", 200, 500, nil); err != nil {
		t.Fatal(err)
	}
	_, _ = ts.StdoutPipe() // never read
	if err := ts.Shell(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		_ = ts.WindowChange(200-i%2, 500-i%2)
	}

	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(12 * time.Second):
		t.Fatal("Serve did not return within 12 s (the grace period is 10 s)")
	}
}

// A logged-in client gets sessions only: other channel types (port forwarding) are
// refused, as are global requests, and the connection goes on serving after both.
func TestOnlySessionsAreServed(t *testing.T) {
	s := e2e.Start(t, nil)
	key := e2e.NewKey(t)
	c := s.Dial(t, "forwarder", key)
	defer c.Close()
	_, _, err := c.OpenChannel("direct-tcpip", gossh.Marshal(struct {
		Host       string
		Port       uint32
		OriginHost string
		OriginPort uint32
	}{"127.0.0.1", 22, "127.0.0.1", 5000}))
	var open *gossh.OpenChannelError
	if !errors.As(err, &open) || open.Reason != gossh.UnknownChannelType {
		t.Fatalf("opening a forwarding channel: %v; want it refused as an unknown type", err)
	}
	for _, req := range []string{"tcpip-forward", "keepalive@openssh.com"} {
		ok, _, err := c.SendRequest(req, true, nil)
		if err != nil || ok {
			t.Fatalf("global request %s: ok %v, err %v; want a refusal", req, ok, err)
		}
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.Output("help")
	if err != nil || !strings.Contains(string(out), "party games over SSH") {
		t.Fatalf("help after the refusals: %v, %q", err, out)
	}
}

// A session that has no player's program (here the JSON interface) still has its
// channel's requests answered while it runs: x/crypto/ssh holds 16 unread requests, then
// stops reading the whole connection, which would leave the client's next line
// unanswered.
func TestRequestsAreAnsweredOutsideThePlayersProgram(t *testing.T) {
	s := e2e.Start(t, nil)
	api := s.API(t, "script", e2e.NewKey(t))
	for i := range 100 {
		api.Request("window-change", gossh.Marshal(struct{ Columns, Rows, Width, Height uint32 }{uint32(80 + i), 24, 0, 0}))
		api.Request("signal", gossh.Marshal(struct{ Signal string }{"INT"}))
	}
	api.Send(map[string]any{"op": "games"})
	api.Expect("games")
}
