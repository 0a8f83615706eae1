package server

import (
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"charm.land/log/v2"
)

// addrConn is a connection from addr that nothing is read from or written to.
type addrConn struct {
	net.Conn
	addr net.Addr
}

func (c addrConn) RemoteAddr() net.Addr { return c.addr }
func (c addrConn) Close() error         { return nil }

// A host on IPv6 usually holds a whole /64: its addresses share one address's limits,
// or one host could take every login slot by counting through its own addresses.
func TestGateCountsAnIPv6Slash64AsOneAddress(t *testing.T) {
	g := newGate(nil, Defaults(), &refusals{log: log.New(io.Discard), count: func(string) {}, last: map[string]time.Time{}})
	from := func(ip string) bool {
		return g.admit(addrConn{addr: &net.TCPAddr{IP: net.ParseIP(ip), Port: 40000}}) != nil
	}
	admitted := 0
	for i := range 40 {
		if from(fmt.Sprintf("2001:db8:1:2::%x", i+1)) {
			admitted++
		}
	}
	if want := Defaults().PerIPUnauthenticated; admitted != want {
		t.Errorf("one /64 has %d logins in flight, want %d (one address's)", admitted, want)
	}
	if !from("2001:db8:1:3::1") || !from("192.0.2.7") {
		t.Error("another /64 or an IPv4 address was refused")
	}
}
