package server_test

import (
	"fmt"
	"strings"
	"testing"

	"parlor/internal/testkit/e2e"
)

// setOption sets a table option from the room screen, as the host does: tab to the
// options, ↑↓ to the option, ←→ until it shows value.
func setOption(t *testing.T, host *e2e.Player, name, value string) {
	t.Helper()
	if !strings.Contains(host.Screen(), "‹ ") {
		host.Press("tab")
		host.WaitFor("‹ ")
	}
	sel := "‹ " + name
	for _, dir := range []string{"down", "up"} {
		for i := 0; i < 8 && !strings.Contains(host.Screen(), sel); i++ {
			host.PressSeen(dir)
		}
	}
	host.WaitFor(sel)
	host.PressUntil("right", "‹ "+fmt.Sprintf("%-20s %s", name, value)+" ›", 12)
}

// addBots adds n bots from the room screen and waits until the seats show them.
func addBots(t *testing.T, host *e2e.Player, seated, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		host.Press("b")
		host.WaitFor(fmt.Sprintf("Seats %d/", seated+i+1))
	}
}

// joinTable types a table code into the lobby's join box.
func joinTable(t *testing.T, p *e2e.Player, code string) {
	t.Helper()
	p.Press("tab", strings.ToLower(code), "enter")
	p.WaitFor("table " + code)
}

// watchAsGuest connects a guest (no key) with the watch command and waits until they
// watch the table with code.
func watchAsGuest(t *testing.T, s *e2e.Server, user, code string) *e2e.Player {
	t.Helper()
	p := s.Connect(t, user, e2e.Guest, "watch "+code, 80, 24)
	p.WaitFor("Welcome to parlor", "guest")
	p.Press("enter")
	p.WaitFor("table "+code, "watching")
	return p
}
