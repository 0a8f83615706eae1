package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
)

// MaxNodes bounds -nodes: each node is a process of its own on this machine.
const MaxNodes = 5

// The environment a child parlor server reads to join a cluster, as `parlor --nats URL
// --node NAME --host-key PATH` would: parlor-load runs its own binary as the server, so
// it passes them this way rather than as flags.
const (
	natsEnv    = "PARLOR_LOAD_NATS"
	nodeEnv    = "PARLOR_LOAD_NODE"
	hostKeyEnv = "PARLOR_LOAD_HOST_KEY"
)

// clusterNode is what one child needs to be a node of the run's cluster.
type clusterNode struct {
	nats, name, hostKey string
}

// env is the node's part of a child's environment.
func (n *clusterNode) env() []string {
	if n == nil {
		return nil
	}
	return []string{natsEnv + "=" + n.nats, nodeEnv + "=" + n.name, hostKeyEnv + "=" + n.hostKey}
}

// nodeFromEnv reads a child's cluster settings; nil for a lone server.
func nodeFromEnv() *clusterNode {
	url := os.Getenv(natsEnv)
	if url == "" {
		return nil
	}
	return &clusterNode{nats: url, name: os.Getenv(nodeEnv), hostKey: os.Getenv(hostKeyEnv)}
}

// natsReadyWithin bounds the embedded NATS server's start.
const natsReadyWithin = 20 * time.Second

// kindNATS is the child that runs the cluster's NATS server with JetStream. It is a
// process of its own, as NATS is in production, so that neither the generator's load
// nor the nodes' share its CPU and memory, and its own are measured apart (procstat.go).
// The parlor binary never embeds nats-server; this tool does, so a cluster run needs
// nothing installed.
const kindNATS = "nats"

// serveNATS runs nats-server with JetStream on 127.0.0.1 and a free port, its data in
// dir, until ctx ends.
func serveNATS(ctx context.Context, dir string) error {
	srv, err := natsserver.NewServer(&natsserver.Options{
		ServerName: "parlor-load",
		Host:       "127.0.0.1",
		Port:       -1, // a free port
		NoLog:      true,
		NoSigs:     true,
		JetStream:  true,
		StoreDir:   filepath.Join(dir, "jetstream"),
	})
	if err != nil {
		return fmt.Errorf("nats-server: %w", err)
	}
	go srv.Start()
	defer func() {
		srv.Shutdown()
		srv.WaitForShutdown()
	}()
	if !srv.ReadyForConnections(natsReadyWithin) {
		return fmt.Errorf("nats-server not ready within %s", natsReadyWithin)
	}
	b, _ := json.Marshal(listening{NATS: fmt.Sprintf("nats://127.0.0.1:%d", srv.Addr().(*net.TCPAddr).Port)})
	fmt.Println(string(b))
	<-ctx.Done()
	return nil
}

// servers is the parlor processes of one run: one lone server, or the nodes of a
// cluster and the NATS server they share.
type servers struct {
	children []*child
	nats     *child
	keys     string // the folder of the shared host key
	data     string // the lone server's data folder (-storm restart), kept across its restart
	log      io.Writer
}

// startServers starts cfg.Nodes parlor nodes on a new embedded NATS server (one after
// the other, so the first makes the shared host key and the others read it), or one
// lone server of cfg.Server's kind when cfg.Nodes is 0.
func startServers(ctx context.Context, cfg Config, log io.Writer) (*servers, error) {
	if cfg.Nodes == 0 {
		s := &servers{log: log}
		var env []string
		if cfg.Storm == stormRestart {
			dir, err := os.MkdirTemp("", "parlor-load-data-")
			if err != nil {
				return nil, err
			}
			s.data = dir
			env = []string{dataEnv + "=" + dir}
		}
		c, err := startChild(ctx, cfg.Server, cfg.Profile, cfg.FPS, nil, append(env, traceEnvOf(cfg)...), log)
		if err != nil {
			s.stop()
			return nil, err
		}
		s.children = []*child{c}
		return s, nil
	}
	keys, err := os.MkdirTemp("", "parlor-load-key-")
	if err != nil {
		return nil, err
	}
	s := &servers{keys: keys, log: log}
	if s.nats, err = startChild(ctx, kindNATS, "", cfg.FPS, nil, nil, log); err != nil {
		s.stop()
		return nil, err
	}
	hostKey := filepath.Join(keys, "host_ed25519") // one key for every node, as docs/cluster.md asks
	for i := range cfg.Nodes {
		node := &clusterNode{nats: s.nats.nats, name: fmt.Sprintf("parlor-%d", i+1), hostKey: hostKey}
		profile := cfg.Profile
		if profile != "" {
			profile = filepath.Join(profile, node.name)
			if err := os.MkdirAll(profile, 0o755); err != nil {
				s.stop()
				return nil, err
			}
		}
		c, err := startChild(ctx, kindParlor, profile, cfg.FPS, node, traceEnvOf(cfg), log)
		if err != nil {
			s.stop()
			return nil, fmt.Errorf("node %s: %w", node.name, err)
		}
		s.children = append(s.children, c)
	}
	return s, nil
}

// addrs is every server's SSH address, in node order.
func (s *servers) addrs() []string {
	a := make([]string, len(s.children))
	for i, c := range s.children {
		a[i] = c.ssh
	}
	return a
}

// webAddrs is every server's browser door, in node order ("" where it has none).
func (s *servers) webAddrs() []string {
	a := make([]string, len(s.children))
	for i, c := range s.children {
		a[i] = c.web
	}
	return a
}

// metrics is every server's /metrics URL, in node order.
func (s *servers) metrics() []string {
	m := make([]string, len(s.children))
	for i, c := range s.children {
		m[i] = c.metrics
	}
	return m
}

// marks is every server's collector marks so far, in node order. traced tells whether
// every server's trace was read (it has had collections from its start on); it is
// false for servers parlor-load did not start (-target).
func (s *servers) marks() (marks [][]gcMark, traced bool) {
	if s == nil || len(s.children) == 0 {
		return nil, false
	}
	traced = true
	for _, c := range s.children {
		m, lines := c.gc.read()
		marks = append(marks, m)
		traced = traced && lines > 0
	}
	return marks, traced
}

// phase marks a profiling phase on every server.
func (s *servers) phase(sig syscall.Signal) {
	if s == nil {
		return
	}
	var wg sync.WaitGroup
	for _, c := range s.children {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.phase(sig)
		}()
	}
	wg.Wait()
}

// stop stops every server at once (each hands its tables to the others as it goes,
// which is wasted work here, so nobody waits on it one node at a time), then NATS.
func (s *servers) stop() {
	var wg sync.WaitGroup
	for _, c := range s.children {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.stop()
		}()
	}
	wg.Wait()
	if s.nats != nil {
		s.nats.stop()
	}
	for _, dir := range []string{s.keys, s.data} {
		if dir != "" {
			_ = os.RemoveAll(dir)
		}
	}
}

// crash kills the first server with SIGKILL and, for a lone server, starts it again as it
// was, on the same data and SSH address. It returns the server that was killed; the
// servers left are s.children.
func (s *servers) crash(ctx context.Context, restart bool, fps int) (*child, error) {
	dead := s.children[0]
	dead.kill()
	s.children = s.children[1:]
	if !restart {
		return dead, nil
	}
	env := append(dead.env[:len(dead.env):len(dead.env)], listenEnv+"="+dead.ssh)
	c, err := startChild(ctx, dead.kind, dead.profiling, fps, nil, env, s.log)
	if err != nil {
		return dead, fmt.Errorf("starting the server again: %w", err)
	}
	s.children = append([]*child{c}, s.children...)
	return dead, nil
}

// scrapeAll reads every server's /metrics and adds them up: CPU, memory and goroutines
// of the nodes together, and each node's sessions and tables.
func scrapeAll(ctx context.Context, urls []string) (sample, error) {
	var sum sample
	var errs []error
	for i, u := range urls {
		s, err := scrape(ctx, u)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !s.ok {
			return sample{}, nil // nothing to measure
		}
		if i == 0 {
			sum.ok, sum.at = true, s.at
		}
		sum.cpu += s.cpu
		sum.rss += s.rss
		sum.goroutines += s.goroutines
		sum.collections += s.collections
		sum.sessions = append(sum.sessions, s.sessions...)
		sum.tables = append(sum.tables, s.tables...)
	}
	return sum, errors.Join(errs...)
}
