package natstest

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"
)

// clusterOpts makes a Server one member of a JetStream cluster.
type clusterOpts struct {
	name   string
	port   int        // this member's route port
	routes []*url.URL // every member's route URL
}

// Cluster is a JetStream cluster of embedded servers on 127.0.0.1.
type Cluster struct {
	// Servers are the members; each may be stopped and restarted alone.
	Servers []*Server
}

// StartCluster starts n servers (3 is the smallest cluster that keeps working when one
// is gone) that form one JetStream cluster, and waits until it has a meta leader, so
// streams and buckets can be created at once. The test's cleanup stops them.
func StartCluster(t testing.TB, n int) *Cluster {
	t.Helper()
	for try := 1; ; try++ {
		c, err := startCluster(t, n)
		if err == nil {
			c.WaitReady()
			return c
		}
		if try == 3 {
			t.Fatalf("natstest: %v", err)
		}
	}
}

// pickPort picks a free port for a member's routes (tests change it).
var pickPort = freePort

// startCluster starts the members on new route ports. A port picked as free may be
// taken before its member binds it (other tests' servers and connections): it stops the
// members it started and says so, and StartCluster tries new ports.
func startCluster(t testing.TB, n int) (*Cluster, error) {
	t.Helper()
	ports := make([]int, n)
	routes := make([]*url.URL, n)
	for i := range ports {
		ports[i] = pickPort(t)
		routes[i] = &url.URL{Scheme: "nats-route", Host: fmt.Sprintf("127.0.0.1:%d", ports[i])}
	}
	c := &Cluster{}
	for i := range n {
		s := &Server{t: t, dir: t.TempDir(), name: fmt.Sprintf("parlor-test-%d", i+1),
			cluster: &clusterOpts{name: "parlor-test", port: ports[i], routes: routes}}
		if err := s.tryStart(); err != nil {
			for _, started := range c.Servers {
				started.Stop()
			}
			return nil, err
		}
		t.Cleanup(s.Stop)
		c.Servers = append(c.Servers, s)
	}
	return c, nil
}

// URL lists every member's client URL, comma-separated, as nats.Connect takes them, so
// a client moves to another member when its own goes away.
func (c *Cluster) URL() string {
	urls := make([]string, len(c.Servers))
	for i, s := range c.Servers {
		urls[i] = s.URL()
	}
	return strings.Join(urls, ",")
}

// WaitReady waits until the running members agree on a JetStream meta leader and it has
// heard from each of them, as after a start or after a member stopped or came back.
func (c *Cluster) WaitReady() {
	t := c.Servers[0].t
	t.Helper()
	for deadline := time.Now().Add(readyWithin); time.Now().Before(deadline); time.Sleep(25 * time.Millisecond) {
		leaders, current, running, online := 0, 0, 0, 0
		for _, s := range c.Servers {
			s.mu.Lock()
			srv := s.srv
			s.mu.Unlock()
			if srv == nil {
				continue
			}
			running++
			if srv.JetStreamIsLeader() {
				leaders++
				// The peers the leader has heard from: a replicated stream is placed only
				// on those, and one made before all report in fails ("no suitable peers
				// for placement").
				online = len(srv.JetStreamClusterPeers())
			}
			if srv.JetStreamIsCurrent() {
				current++
			}
		}
		if leaders == 1 && current == running && online >= running {
			return
		}
	}
	t.Fatalf("natstest: cluster has no JetStream meta leader within %v", readyWithin)
}

// freePort finds a port nobody listens on, for a route port that every member must
// know before any starts.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("natstest: free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
