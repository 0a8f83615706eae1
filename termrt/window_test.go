package termrt

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"
)

// request is a request that wants no reply, as a client may send them.
func request(typ string, payload any) *gossh.Request {
	r := &gossh.Request{Type: typ}
	switch p := payload.(type) {
	case nil:
	case []byte:
		r.Payload = p
	default:
		r.Payload = gossh.Marshal(p)
	}
	return r
}

// A session's window sizes are clamped on the way in, both in the pty request and in
// every window change, and its pixel sizes dropped when its cells were.
func TestSessionSizesAreClamped(t *testing.T) {
	c := &channelSession{}
	c.serve(request("pty-req", ptyRequest{Term: "xterm", Columns: 100000, Rows: 100000, Width: 9, Height: 9}))
	pty, _, ok := c.Pty()
	if !ok || pty.Term != "xterm" || pty.Window.Width != maxColumns || pty.Window.Height != maxRows || pty.Window.WidthPixels != 0 {
		t.Fatalf("pty %+v (ok %v); want xterm at %d×%d without pixels", pty, ok, maxColumns, maxRows)
	}
	if win, _ := c.serve(request("window-change", windowChange{Columns: 90, Rows: 30, Width: 900, Height: 600})); win == nil || win.Width != 90 || win.WidthPixels != 900 {
		t.Fatalf("a window change within bounds gave %+v", win)
	}
	if win, _ := c.serve(request("window-change", windowChange{Columns: 90, Rows: 1 << 31})); win == nil || win.Height != maxRows || win.WidthPixels != 0 {
		t.Fatalf("a window change out of bounds gave %+v", win)
	}
	if pty, _, _ := c.Pty(); pty.Window.Width != 90 || pty.Window.Height != maxRows {
		t.Fatalf("the session's window is %+v; want the newest", pty.Window)
	}
	if win, _ := c.serve(request("window-change", []byte("short"))); win != nil {
		t.Fatalf("a malformed window change gave %+v", win)
	}
}

// What may come only before the shell is refused after it, and a client cannot grow a
// session's environment without bound.
func TestSessionRequestsBeforeAndAfterTheShell(t *testing.T) {
	c := &channelSession{}
	if win, _ := c.serve(request("window-change", windowChange{Columns: 90, Rows: 30})); win != nil {
		t.Fatal("a window change without a terminal was taken")
	}
	for i := range maxEnv + 10 {
		c.serve(request("env", struct{ Key, Value string }{fmt.Sprintf("V%d", i), "x"}))
	}
	if n := len(c.Environ()); n != maxEnv {
		t.Fatalf("%d variables kept; want at most %d", n, maxEnv)
	}
	if _, start := c.serve(request("exec", struct{ Value string }{"join ABCD"})); !start {
		t.Fatal("exec did not start the session")
	}
	if got := c.Command(); len(got) != 2 || got[0] != "join" || got[1] != "ABCD" {
		t.Fatalf("command %q", got)
	}
	if _, start := c.serve(request("shell", nil)); start {
		t.Fatal("a second shell started the session again")
	}
	c.serve(request("pty-req", ptyRequest{Term: "xterm", Columns: 80, Rows: 24}))
	if _, _, ok := c.Pty(); ok {
		t.Fatal("a terminal was taken after the command started")
	}
	for _, typ := range []string{"subsystem", "signal", "break", "auth-agent-req@openssh.com", "x11-req"} {
		if win, start := c.serve(request(typ, nil)); win != nil || start {
			t.Errorf("%s did something", typ)
		}
	}
}

// The program answers a burst of window changes and hands its model only the newest
// size, in one update.
func TestProgramTakesABurstOfResizesAsOne(t *testing.T) {
	c := &channelSession{}
	c.serve(request("pty-req", ptyRequest{Term: "xterm", Columns: 80, Rows: 24}))
	reqs := make(chan *gossh.Request, 40)
	for w := 100; w < 130; w++ {
		reqs <- request("window-change", windowChange{Columns: uint32(w), Rows: 30})
	}
	l := &logged{seen: make(chan tea.Msg, 64)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prog := newProgram(ctx)
	prog.requests = reqs
	prog.request = func(req *gossh.Request) tea.Msg {
		if w, _ := c.serve(req); w != nil {
			return tea.WindowSizeMsg{Width: w.Width, Height: w.Height}
		}
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		prog.run(l)
	}()
	if got := next(t, l); got != (tea.WindowSizeMsg{Width: 129, Height: 30}) {
		t.Fatalf("the model got %#v; want only the newest size", got)
	}
	close(reqs) // the channel closed: the loop goes on without its requests
	prog.Send(note("still here"))
	if got := next(t, l); got != note("still here") {
		t.Fatalf("after the requests ended the model got %#v", got)
	}
	prog.Send(tea.QuitMsg{})
	<-done
}

// A session's environment, terminal name and command are bounded in bytes too: a packet
// may carry 256 KB, and a client with 64 such variables held 16 MB for the session's life.
func TestSessionRequestsAreBoundedInBytes(t *testing.T) {
	c := &channelSession{}
	big := strings.Repeat("x", 250<<10)
	for i := range maxEnv {
		c.serve(request("env", struct{ Key, Value string }{fmt.Sprintf("V%d", i), big}))
	}
	c.serve(request("env", struct{ Key, Value string }{"LANG", "de_DE.UTF-8"}))
	n := 0
	for _, kv := range c.Environ() {
		n += len(kv)
	}
	if n > maxEnvBytes || !slices.Contains(c.Environ(), "LANG=de_DE.UTF-8") {
		t.Fatalf("%d bytes of environment kept (at most %d), LANG among them: %v", n, maxEnvBytes, slices.Contains(c.Environ(), "LANG=de_DE.UTF-8"))
	}
	c.serve(request("pty-req", ptyRequest{Term: big, Columns: 80, Rows: 24}))
	if c.pty == nil || len(c.pty.Term) > maxTerm {
		t.Fatalf("a terminal name of %d bytes: pty %v", len(big), c.pty != nil)
	}
	if _, start := c.serve(request("exec", struct{ Value string }{"join " + big})); start {
		t.Fatal("a command of 250 KB started the session")
	}
}

// A size from outside SSH (the browser door) is clamped as an SSH client's is, and
// neither a negative nor a huge number wraps around into something drawable.
func TestClampOutsideSSH(t *testing.T) {
	for _, c := range []struct{ cols, rows, w, h int }{
		{100, 40, 100, 40},
		{1 << 40, 1 << 40, maxColumns, maxRows},
		{-5, -1 << 40, 0, 0},
		{1<<32 + 10, 30, maxColumns, 30}, // not 10, as a cut to 32 bits would give
	} {
		if w := Clamp(c.cols, c.rows); w.Width != c.w || w.Height != c.h {
			t.Errorf("Clamp(%d, %d) = %d×%d; want %d×%d", c.cols, c.rows, w.Width, w.Height, c.w, c.h)
		}
	}
}
