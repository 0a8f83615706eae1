package e2e

import (
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// RunInput runs a command without a PTY, sending stdin as its standard input (then end
// of file), and returns its output and exit error: ssh HOST pack add KIND NAME < file.
func (s *Server) RunInput(t testing.TB, key Key, command, stdin string) (stdout, stderr string, err error) {
	t.Helper()
	return s.run(t, key, command, func(sess *gossh.Session) error {
		sess.Stdin = strings.NewReader(stdin)
		return nil
	})
}

// RunTerm runs a command (or the lobby, for "") on a PTY whose terminal type is term,
// and returns what it printed by the time it ended, for a session the server ends at
// once (a refusal).
func (s *Server) RunTerm(t testing.TB, key Key, term, command string) (stdout, stderr string, err error) {
	t.Helper()
	return s.run(t, key, command, func(sess *gossh.Session) error {
		return sess.RequestPty(term, 24, 80, nil)
	})
}

// run runs command ("" for a shell) on a new session that setup prepared, waits until
// it ends, and returns its output and exit error.
func (s *Server) run(t testing.TB, key Key, command string, setup func(*gossh.Session) error) (stdout, stderr string, err error) {
	t.Helper()
	c := s.dial(t, "runner", key)
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := setup(sess); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	sess.Stdout, sess.Stderr = &out, &errb
	done := make(chan error, 1)
	go func() {
		if command != "" {
			done <- sess.Run(command)
		} else if err := sess.Shell(); err != nil {
			done <- err
		} else {
			done <- sess.Wait()
		}
	}()
	select {
	case err = <-done:
	case <-time.After(Wait):
		t.Fatalf("%q hung", command)
	}
	return out.String(), errb.String(), err
}
