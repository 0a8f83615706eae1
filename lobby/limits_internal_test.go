package lobby

import (
	"fmt"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

func TestAddrLimitsStayBounded(t *testing.T) {
	a := newAddrLimits(time.Second, 2)
	for i := range 3 * maxAddrs {
		a.allow(fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&0xff, i&0xff), t0)
		if len(a.addr) > maxAddrs {
			t.Fatalf("%d addresses kept after %d", len(a.addr), i+1)
		}
	}
}

func TestAddrLimitsForgetIdleAddressesFirst(t *testing.T) {
	a := newAddrLimits(time.Hour, 1)
	for i := range maxAddrs - 1 {
		a.allow(fmt.Sprint("idle", i), t0.Add(-2*time.Hour)) // full again by t0
	}
	a.allow("busy", t0)
	a.allow("new", t0) // the map is full: the idle addresses go, the busy one stays
	if len(a.addr) != 2 {
		t.Fatalf("%d addresses kept, want busy and new", len(a.addr))
	}
	if a.allow("busy", t0.Add(time.Minute)) {
		t.Fatal("the busy address got a fresh allowance")
	}
}

func TestIPv6AddressesCountBySlash64(t *testing.T) {
	a := newAddrLimits(time.Hour, 1)
	if !a.allow("2001:db8:1:2::1", t0) || a.allow("2001:db8:1:2:ffff::9", t0) {
		t.Fatal("two addresses of one /64 should share an allowance")
	}
	if !a.allow("2001:db8:1:3::1", t0) || !a.allow("192.0.2.1", t0) || a.allow("192.0.2.1", t0) {
		t.Fatal("other networks have their own allowance")
	}
}
