package natstest

import (
	"net"
	"testing"
	"time"
)

// A route port picked as free can be taken by another process before its server binds
// it (the tests of many packages start NATS servers and connections at once): CI saw a
// cluster member wait out readyWithin on such a port and fail its test. StartCluster
// picks other ports then, at once.
func TestAClusterWhoseRoutePortWasTakenStartsOnOthers(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	calls := 0
	pickPort = func(t testing.TB) int {
		if calls++; calls == 1 {
			return taken.Addr().(*net.TCPAddr).Port
		}
		return freePort(t)
	}
	defer func() { pickPort = freePort }()
	start := time.Now()
	c := StartCluster(t, 3)
	if !c.Servers[0].Running() {
		t.Fatal("the cluster's first member does not run")
	}
	if d := time.Since(start); d >= readyWithin {
		t.Errorf("the cluster took %v to start: it waited out the taken port", d)
	}
}
