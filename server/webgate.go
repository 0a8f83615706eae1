package server

// The browser door's part of the gate (gate.go): a WebSocket session counts as one
// connection of its address, logged in from the start (the page has no login to wait
// for; a linked browser's signature comes with its hello), under the same limits and
// with the same parlor_refused_total reasons as an SSH connection.

// Why the browser door turned a session away, besides the gate's own reasons.
const (
	refusedOrigin   = "origin"    // a page of another site tried to open a session
	refusedNoGuests = "no_guests" // a browser not linked to a key, with guests off
)

// enterWeb counts a browser session of host, or says why it may not come in: the
// per-address rate and connections, and the total the gate takes.
func (g *gate) enterWeb(host string) string {
	if reason := g.take(host); reason != "" {
		return reason
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.addrs[host].login--
	g.login--
	g.authed++
	return ""
}

// leaveWeb gives back a session enterWeb let in.
func (g *gate) leaveWeb(host string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.addrs[host].conns--
	g.authed--
	g.total--
}
