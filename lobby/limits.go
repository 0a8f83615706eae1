package lobby

import (
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// What one player or one address may hold, so that nobody can fill the server with
// tables or find a private table by trying codes. Players behind one NAT share an
// address, so the per-address numbers leave room for a party.
const (
	// MaxHostedTables is how many open tables one player may host at once.
	MaxHostedTables = 3
	// CreateBurst tables may be created from one address at once; then one more every
	// CreateEvery.
	CreateBurst = 10
	CreateEvery = 30 * time.Second
	// MissBurst unknown codes may be tried (join or watch) from one address at once; then
	// one more every MissEvery. With 8-letter private codes (24⁸ ≈ 1.1×10¹¹) that puts
	// finding one out of reach.
	MissBurst = 10
	MissEvery = 2 * time.Second

	// maxAddrs bounds each per-address map; past it, addresses whose allowance is full
	// again (they have done nothing for a while) are forgotten first.
	maxAddrs = 10000
)

// addrLimits is one allowance per address, refilled over time.
type addrLimits struct {
	every time.Duration
	burst int

	mu   sync.Mutex
	addr map[string]*rate.Limiter
}

func newAddrLimits(every time.Duration, burst int) *addrLimits {
	return &addrLimits{every: every, burst: burst, addr: map[string]*rate.Limiter{}}
}

// allow takes one from addr's allowance at now; an empty address (a test, a local tool)
// is not limited.
func (a *addrLimits) allow(addr string, now time.Time) bool {
	if addr == "" {
		return true
	}
	addr = AddrKey(addr)
	a.mu.Lock()
	defer a.mu.Unlock()
	lim := a.addr[addr]
	if lim == nil {
		a.makeRoom(now)
		lim = rate.NewLimiter(rate.Every(a.every), a.burst)
		a.addr[addr] = lim
	}
	return lim.AllowN(now, 1)
}

// makeRoom keeps the map within maxAddrs. A full allowance carries no memory, so its
// address can go; if most addresses are still busy, arbitrary ones go until a tenth of
// the room is free (so the scan is not repeated for every new address), which at worst
// hands an address a fresh allowance.
func (a *addrLimits) makeRoom(now time.Time) {
	if len(a.addr) < maxAddrs {
		return
	}
	for k, lim := range a.addr {
		if lim.TokensAt(now) >= float64(a.burst) {
			delete(a.addr, k)
		}
	}
	for k := range a.addr {
		if len(a.addr) < maxAddrs*9/10 {
			break
		}
		delete(a.addr, k)
	}
}

// AddrKey is what an address (without its port) is limited by: an IPv6 host usually
// holds a whole /64, so its addresses count as one. The SSH gate counts connections by
// it too.
func AddrKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil || ip.Unmap().Is4() {
		return addr
	}
	p, err := ip.Prefix(64)
	if err != nil {
		return addr
	}
	return p.String()
}

// ready reports whether addr has anything left of its allowance at now, without taking
// from it.
func (a *addrLimits) ready(addr string, now time.Time) bool {
	if addr == "" {
		return true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	lim := a.addr[AddrKey(addr)]
	return lim == nil || lim.TokensAt(now) >= 1
}
