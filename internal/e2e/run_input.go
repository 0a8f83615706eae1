package e2e

import (
	"strings"
	"testing"
	"time"
)

// RunInput runs a command without a PTY, sending stdin as its standard input (then end
// of file), and returns its output and exit error: ssh HOST pack add KIND NAME < file.
func (s *Server) RunInput(t testing.TB, key Key, command, stdin string) (stdout, stderr string, err error) {
	t.Helper()
	c := s.dial(t, "runner", key)
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	sess.Stdout, sess.Stderr, sess.Stdin = &out, &errb, strings.NewReader(stdin)
	done := make(chan error, 1)
	go func() { done <- sess.Run(command) }()
	select {
	case err = <-done:
	case <-time.After(Wait):
		t.Fatalf("%q hung", command)
	}
	return out.String(), errb.String(), err
}

// RunTerm runs a command (or the lobby, for "") on a PTY whose terminal type is term,
// and returns what it printed by the time it ended, for a session the server ends at
// once (a refusal).
func (s *Server) RunTerm(t testing.TB, key Key, term, command string) (stdout, stderr string, err error) {
	t.Helper()
	c := s.dial(t, "runner", key)
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty(term, 24, 80, nil); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	sess.Stdout, sess.Stderr = &out, &errb
	done := make(chan error, 1)
	go func() {
		if command == "" {
			if err := sess.Shell(); err != nil {
				done <- err
				return
			}
			done <- sess.Wait()
			return
		}
		done <- sess.Run(command)
	}()
	select {
	case err = <-done:
	case <-time.After(Wait):
		t.Fatalf("%q on TERM=%s hung", command, term)
	}
	return out.String(), errb.String(), err
}
