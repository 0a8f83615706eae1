package server_test

import (
	"strings"
	"testing"

	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
)

// The server tells the lobby where each player connects from: tables created from one
// address are limited, whoever creates them.
func TestTablesCreatedFromOneAddressAreLimited(t *testing.T) {
	s := e2e.Start(t, nil)
	for i := range lobby.CreateBurst {
		c := s.API(t, "guest", e2e.Guest)
		c.Send(map[string]any{"op": "create", "game": testgame.ID})
		if m := c.Expect("joined"); m["code"] == "" {
			t.Fatalf("table %d: %v", i+1, m)
		}
	}
	c := s.API(t, "guest", e2e.Guest)
	c.Send(map[string]any{"op": "create", "game": testgame.ID})
	if m := c.Expect("error"); !strings.Contains(errorText(m), "too many new tables from your address") {
		t.Fatalf("one table too many: %v", m)
	}
}
