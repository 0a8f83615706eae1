// Package natstest runs an embedded NATS server with JetStream for tests: on 127.0.0.1,
// on a random port, with its data in the test's temp folder, stopped when the test ends.
// A test can stop and restart the server on the same port and folder, as an operator's
// restart or a crash-and-recover would, to check what survives. StartCluster runs a
// small JetStream cluster of such servers, for replicated streams and a NATS node that
// goes away.
//
// Only tests import this package, so the nats-server code never reaches the parlor binary.
package natstest

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"go.uber.org/goleak"
)

// readyWithin is how long a starting server may take to accept connections; JetStream
// recovering its streams from disk is the slow part.
const readyWithin = 20 * time.Second

// Server is one embedded nats-server with JetStream. Its methods are safe for concurrent
// use, but Start, Restart and Stop report failures with t.Fatal, so call them from the
// test's goroutine.
type Server struct {
	t       testing.TB
	dir     string
	name    string
	cluster *clusterOpts // nil for a lone server

	mu   sync.Mutex
	port int // 0 until the first start picked one
	srv  *server.Server
}

// Start starts a server with JetStream on 127.0.0.1 and a random port, its data in a
// new temp folder; the test's cleanup stops it.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t, dir: t.TempDir(), name: "parlor-test"}
	s.start()
	t.Cleanup(s.Stop)
	return s
}

// Run is Start for a test that needs only the client URL and a way to stop the server
// early (stopping twice is harmless).
func Run(t testing.TB) (url string, shutdown func()) {
	t.Helper()
	s := Start(t)
	return s.URL(), s.Stop
}

// URL is the client URL, nats://127.0.0.1:PORT; it stays the same across restarts.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("nats://127.0.0.1:%d", s.port)
}

// Name is the server's name, as JetStream names a stream's leader.
func (s *Server) Name() string { return s.name }

// Dir is the folder that holds the server's JetStream data.
func (s *Server) Dir() string { return s.dir }

// Running reports whether the server is up.
func (s *Server) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.srv != nil
}

// Stop shuts the server down and waits until it is gone. The JetStream data stays in
// Dir, so Restart brings back everything the server acknowledged. Stopping a stopped
// server does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	s.mu.Unlock()
	if srv == nil {
		return
	}
	srv.Shutdown()
	srv.WaitForShutdown()
}

// Restart stops the server if it runs and starts it again on the same port with the
// same data, so clients that reconnect (see Connect) find it where it was.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	s.start()
}

// start starts the server on s.port (a random one the first time).
func (s *Server) start() {
	s.t.Helper()
	if err := s.tryStart(); err != nil {
		s.t.Fatalf("natstest: %v", err)
	}
}

// tryStart is start, saying what went wrong. A cluster member's route port is checked
// first: a server that cannot bind a port only says so after readyWithin. On a restart
// the ports are its own, which it may hold for a moment after it stopped.
func (s *Server) tryStart() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		return errors.New("server already running")
	}
	port := -1 // nats-server's "pick a free port"
	if s.port != 0 {
		port = s.port
		if err := waitFree(port); err != nil {
			return fmt.Errorf("restart: %w", err)
		}
	}
	if c := s.cluster; c != nil {
		check := isFree
		if s.port != 0 {
			check = waitFree
		}
		if err := check(c.port); err != nil {
			return fmt.Errorf("route port: %w", err)
		}
	}
	opts := &server.Options{
		ServerName: s.name,
		Host:       "127.0.0.1",
		Port:       port,
		NoLog:      true,
		NoSigs:     true,
		JetStream:  true,
		StoreDir:   s.dir,
	}
	if c := s.cluster; c != nil {
		opts.Cluster = server.ClusterOpts{Name: c.name, Host: "127.0.0.1", Port: c.port}
		opts.Routes = c.routes
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return fmt.Errorf("new server: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(readyWithin) {
		srv.Shutdown()
		srv.WaitForShutdown()
		return fmt.Errorf("server on port %d not ready within %v", port, readyWithin)
	}
	s.srv = srv
	s.port = srv.Addr().(*net.TCPAddr).Port
	return nil
}

// isFree tells whether port can be bound now.
func isFree(port int) error {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return fmt.Errorf("port %d is taken: %w", port, err)
	}
	return l.Close()
}

// waitFree waits until port can be bound again: a server that has just stopped may hold
// it for a moment, and a server that cannot bind only says so after readyWithin.
func waitFree(port int) error {
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	var err error
	for deadline := time.Now().Add(readyWithin); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var l net.Listener
		if l, err = net.Listen("tcp", addr); err == nil {
			return l.Close()
		}
	}
	return fmt.Errorf("port %d stays busy: %w", port, err)
}

// Connect opens a client connection to url for the test and closes it at cleanup. It
// reconnects without giving up and buffers what it publishes meanwhile, so a test can
// restart the server under it.
func Connect(t testing.TB, url string, opts ...nats.Option) *nats.Conn {
	t.Helper()
	all := append([]nats.Option{
		nats.Name(t.Name()),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(20 * time.Millisecond),
	}, opts...)
	nc, err := nats.Connect(url, all...)
	if err != nil {
		t.Fatalf("natstest: connect to %s: %v", url, err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// IgnoreAsyncPublishRace is the goleak option for a goroutine nats.go can leave behind
// (nats.go v1.55.0, jetstream/publish.go): the first asynchronous publish starts
// resetPendingAcksOnReconnect, which reads the publisher's status channel only once it
// runs; a store closed just before that (CleanupPublisher sets the channel to nil) leaves
// it waiting on a nil channel for good. One goroutine per store closed in that instant,
// nothing parlor can order from outside the library; the tests' quick open-publish-close
// cycles meet it now and then.
var IgnoreAsyncPublishRace = goleak.IgnoreTopFunction("github.com/nats-io/nats.go/jetstream.(*jetStream).resetPendingAcksOnReconnect")
