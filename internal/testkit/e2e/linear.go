package e2e

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// Reader is a client of the linear mode (ssh host plain) that reads only appended
// lines, as a screen reader does: it keeps every byte it received, and the lines.
type Reader struct {
	t    testing.TB
	s    *Server
	ex   *exchange
	c    *gossh.Client
	sess *gossh.Session
	in   io.WriteCloser
	pty  bool // a terminal was asked for: Enter is "\r", as a terminal sends it

	mu    sync.Mutex
	raw   []byte
	read  int  // lines taken by Next
	ended bool // the session ended
}

// LinearReader connects user to the linear mode with command (e.g. "plain"). With term
// set, the client asks for a terminal of that type (TERM=dumb) and the server echoes
// what is typed; without, there is no terminal, as for plain `ssh host plain`.
func (s *Server) LinearReader(t testing.TB, user string, key Key, command, term string) *Reader {
	t.Helper()
	c := s.dial(t, user, key)
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if term != "" {
		if err := sess.RequestPty(term, 24, 80, nil); err != nil {
			t.Fatal(err)
		}
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	r := &Reader{t: t, s: s, ex: s.newExchange(), c: c, sess: sess, in: in, pty: term != ""}
	if command == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(command)
	}
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := out.Read(buf)
			if n > 0 {
				r.mu.Lock()
				r.raw = append(r.raw, buf[:n]...)
				r.mu.Unlock()
				r.ex.hear()
			}
			if err != nil {
				r.mu.Lock()
				r.ended = true
				r.mu.Unlock()
				return
			}
		}
	}()
	t.Cleanup(r.Close)
	return r
}

// Close hangs up.
func (r *Reader) Close() {
	_ = r.sess.Close()
	_ = r.c.Close()
}

// Type sends one line, then Enter.
func (r *Reader) Type(line string) {
	r.t.Helper()
	r.ex.send()
	enter := "\n"
	if r.pty {
		enter = "\r"
	}
	if _, err := io.WriteString(r.in, line+enter); err != nil {
		r.t.Fatal(err)
	}
}

// Raw is every byte received so far.
func (r *Reader) Raw() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.raw)
}

// lines are the whole lines received so far (a line still being written is left out),
// without their "\r".
func (r *Reader) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	end := bytes.LastIndexByte(r.raw, '\n')
	if end < 0 {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(r.raw[:end]), "\n") {
		out = append(out, strings.TrimRight(l, "\r"))
	}
	return out
}

// Next waits for lines not read yet, until one makes done true (or the session ends,
// or Wait passes), and returns them all; game time passes while it waits. The lines
// are read then: the next call returns only what came after.
func (r *Reader) Next(what string, done func(line string) bool) []string {
	r.t.Helper()
	deadline := time.Now().Add(Wait)
	for {
		lines := r.lines()
		for i := r.read; i < len(lines); i++ {
			if done(lines[i]) {
				out := lines[r.read : i+1]
				r.read = i + 1
				return out
			}
		}
		r.mu.Lock()
		ended := r.ended
		r.mu.Unlock()
		if ended || time.Now().After(deadline) {
			r.t.Fatalf("waiting for %s: %s; the last lines:\n%s", what, map[bool]string{true: "the session ended", false: fmt.Sprintf("nothing within %s", Wait)}[ended],
				strings.Join(lines[max(0, len(lines)-30):], "\n"))
		}
		r.s.Pause()
	}
}
