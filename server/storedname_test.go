package server_test

import (
	"context"
	"io"
	"testing"
	"time"

	"parlor/internal/e2e"
	"parlor/store"
)

// TestAStoredNameIsCheckedAgainAtLogin: a name saved before today's rules (here one
// carrying an escape sequence and too long) is not taken as it is: the player is asked
// for a name again, with the cleaned name offered.
func TestAStoredNameIsCheckedAgainAtLogin(t *testing.T) {
	mem := store.NewMemory()
	defer mem.Close()
	key := e2e.NewKey(t)
	now := time.Now()
	stale := store.Player{ID: key.Fingerprint(), Name: "\x1b[31mEve the Magnificent", FirstSeen: now, LastSeen: now}
	if err := mem.SavePlayer(context.Background(), stale); err != nil {
		t.Fatal(err)
	}
	s, stop, done := startWith(t, nil, io.Discard, mem)
	defer func() { stop(); <-done }()

	eve := s.Connect(t, "eve", key, "", 80, 24)
	eve.WaitFor("Welcome to parlor", "Eve the Magnific")
	eve.Press("ctrl+u", "Eve", "enter")
	eve.WaitFor("Open tables", "you are Eve")
	p, err := mem.Player(context.Background(), key.Fingerprint())
	if err != nil || p.Name != "Eve" {
		t.Fatalf("stored player after picking a name = %+v, %v", p, err)
	}
}
