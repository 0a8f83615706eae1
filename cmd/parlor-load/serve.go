package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"charm.land/log/v2"

	"parlor/cluster"
	"parlor/server"
	"parlor/store"
	"parlor/store/jetstream"
)

// serveEnv names the server a child process of parlor-load runs (kindParlor or
// kindBare). The server runs in a process of its own so that its CPU time and memory,
// read from its /metrics, are the server's alone and not the clients'.
const serveEnv = "PARLOR_LOAD_SERVE"

// fpsEnv carries -fps to a child server: the frame rate both servers cap their
// renderers at.
const fpsEnv = "PARLOR_LOAD_FPS"

// frameRate is the child's -fps; the server's default if unset.
func frameRate() int {
	if n, err := strconv.Atoi(os.Getenv(fpsEnv)); err == nil && n > 0 {
		return n
	}
	return server.DefaultFrameRate
}

// dataEnv names a data directory a lone child keeps its store in (SQLite) and leaves in
// place when it exits, so that a child started again on it restores the tables, as
// `parlor --data DIR` does after a crash (-storm restart). Without it a lone child keeps
// its data in memory, in a folder of its own that it removes.
const dataEnv = "PARLOR_LOAD_DATA"

// listenEnv is the SSH address a child listens on, "127.0.0.1:0" (a free port) if unset:
// a server started again takes its old address, where its players redial.
const listenEnv = "PARLOR_LOAD_LISTEN"

// childLifetime bounds a child server even if its parent vanishes without closing its
// stdin: a load run never leaves a server behind.
const childLifetime = 2 * time.Hour

// listening is the line a child prints when it is ready.
type listening struct {
	SSH     string `json:"ssh,omitempty"`
	Metrics string `json:"metrics,omitempty"`
	NATS    string `json:"nats,omitempty"` // the NATS child's client URL
	Web     string `json:"web,omitempty"`  // parlor's browser door (host:port), for -web
}

// child is a server parlor-load started.
type child struct {
	cmd     *exec.Cmd
	started time.Time // just before its process started: its GODEBUG=gctrace times count from here
	gc      *gcTrace  // its standard error, with the marks of its collector's trace (gctrace.go)
	// listened is when it said it listens: with started, how long its start took
	// (restoring the tables of a store it found).
	listened time.Time
	// env is what it was started with beyond parlor-load's own environment, to start it
	// again the same way.
	env     []string
	stdin   io.Closer
	exited  chan struct{}
	ssh     string
	metrics string
	nats    string
	web     string // the browser door's host:port; "" for a server without one
	// profiling is the directory the child writes profiles of the login, idle and busy phases
	// to, "" for none (profile.go); phases counts the phases ended.
	kind      string
	profiling string
	phases    int
}

// startChild runs this binary again as a server of kind, a node of a cluster if node is
// not nil, and waits until it listens.
func startChild(ctx context.Context, kind, profileDir string, fps int, node *clusterNode, env []string, logw io.Writer) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), serveEnv+"="+kind)
	if profileDir != "" {
		cmd.Env = append(cmd.Env, profileEnv+"="+profileDir)
	}
	cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", fpsEnv, fps))
	cmd.Env = append(cmd.Env, node.env()...)
	cmd.Env = append(cmd.Env, env...)
	godebug, show := withGCTrace(os.Getenv("GODEBUG"))
	cmd.Env = append(cmd.Env, godebug) // the last of a name is the one a process gets
	gc := &gcTrace{out: logw, show: show}
	cmd.Stderr = gc
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	started := time.Now()
	gc.started = started // before the process writes anything
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the %s server: %w", kind, err)
	}
	c := &child{cmd: cmd, started: started, gc: gc, stdin: stdin, exited: make(chan struct{}), kind: kind, profiling: profileDir, env: env}
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		var l listening
		if !sc.Scan() || json.Unmarshal(sc.Bytes(), &l) != nil {
			ready <- fmt.Errorf("the %s server did not start", kind)
		} else {
			c.ssh, c.metrics, c.nats, c.web = l.SSH, l.Metrics, l.NATS, l.Web
			c.listened = time.Now()
			ready <- nil
		}
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait() // and the copying of its standard error
		gc.flush()
		close(c.exited)
	}()
	select {
	case err = <-ready:
	case <-time.After(30 * time.Second):
		err = fmt.Errorf("the %s server did not start within 30 s", kind)
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		c.stop()
		return nil, err
	}
	return c, nil
}

// stop asks the child to shut down (by closing its stdin) and kills it if it has not
// within 15 s.
func (c *child) stop() {
	_ = c.stdin.Close()
	select {
	case <-c.exited:
	case <-time.After(15 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
}

// kill ends the child with SIGKILL, as a crash would: it writes nothing more, closes
// nothing and hands nothing over.
func (c *child) kill() {
	_ = c.cmd.Process.Kill()
	<-c.exited
	_ = c.stdin.Close()
}

// serveChild is the child's main: it serves until its stdin closes, and returns the exit code.
func serveChild(kind string) int {
	ctx, cancel := context.WithTimeout(context.Background(), childLifetime)
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	serveProfiles(kind)
	node := nodeFromEnv()
	prefix := kind
	if node != nil {
		prefix = node.name
	}
	logger := log.NewWithOptions(os.Stderr, log.Options{Level: log.WarnLevel, Prefix: prefix})
	dir := os.Getenv(dataEnv)
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "parlor-load-"); err != nil {
			logger.Error("data directory", "err", err)
			return 1
		}
		defer os.RemoveAll(dir)
	}
	var err error
	switch kind {
	case kindParlor:
		err = serveParlor(ctx, dir, node, logger)
	case kindBare:
		err = serveBare(ctx, dir, logger)
	case kindNATS:
		err = serveNATS(ctx, dir)
	default:
		err = fmt.Errorf("%s=%q: want %s or %s", serveEnv, kind, kindParlor, kindBare)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		logger.Error("server", "err", err)
		return 1
	}
	return 0
}

// announce prints the line startChild waits for; webAddr is "" for a server without a
// browser door.
func announce(sshAddr, httpAddr, webAddr string) {
	b, _ := json.Marshal(listening{SSH: sshAddr, Metrics: "http://" + httpAddr + "/metrics", Web: webAddr})
	fmt.Println(string(b))
}

// serveParlor runs the real server, as an operator would, on loopback: no session
// limit and no idle timeout (the load decides both), and its browser door on a free
// port (for -web; a door no one opens costs nothing). A lone server keeps its data in
// memory; a node of a cluster in JetStream, with the cluster settings and store that
// `parlor --nats URL --node NAME --host-key PATH` has (server.Run, openStore).
func serveParlor(ctx context.Context, dir string, node *clusterNode, logger *log.Logger) error {
	cfg := server.Defaults()
	cfg.Listen, cfg.HTTP, cfg.Web, cfg.DataDir = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0", dir
	if addr := os.Getenv(listenEnv); addr != "" {
		cfg.Listen = addr
	}
	cfg.MaxSessions, cfg.IdleTimeout = 0, 0
	cfg.FrameRate = frameRate()
	var st store.Store = store.NewMemory()
	if node == nil && os.Getenv(dataEnv) != "" {
		db, err := store.OpenSQLite(filepath.Join(dir, "parlor.db"))
		if err != nil {
			return err
		}
		st = db
	} else if node != nil {
		cfg.Cluster = cluster.Config{URLs: node.nats, Node: node.name}
		cfg.HostKey = node.hostKey
		nc, err := cluster.Connect(cfg.Cluster)
		if err != nil {
			return err
		}
		// Drained after the store closed: what it published is delivered first.
		defer func() { _ = nc.Drain() }()
		if st, err = jetstream.Open(ctx, jetstream.Config{Conn: nc}); err != nil {
			return err
		}
	}
	defer st.Close()
	s, err := server.Listen(cfg, st, logger)
	if err != nil {
		return err
	}
	announce(s.Addr().String(), s.HTTPAddr(), s.WebAddr())
	return s.Serve(ctx)
}
