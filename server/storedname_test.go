package server_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/e2e"
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

// TestANameOnlineIsOnePlayers: while Bob is online, nobody else goes by his name: not a
// player who types it, not a key that remembers it from a day he was away, not a script
// on the API; once he leaves, it is free.
func TestANameOnlineIsOnePlayers(t *testing.T) {
	mem := store.NewMemory()
	defer mem.Close()
	eveKey, robotKey := e2e.NewKey(t), e2e.NewKey(t)
	now := time.Now()
	for _, p := range []store.Player{
		{ID: eveKey.Fingerprint(), Name: "bob", FirstSeen: now, LastSeen: now},
		{ID: robotKey.Fingerprint(), Name: "BOB", FirstSeen: now, LastSeen: now},
	} {
		if err := mem.SavePlayer(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	s, stop, done := startWith(t, nil, io.Discard, mem)
	defer func() { stop(); <-done }()

	bob := s.Connect(t, "bob", e2e.NewKey(t), "", 80, 24)
	bob.WaitFor("Welcome to parlor")
	bob.Press("enter")
	bob.WaitFor("Open tables", "you are bob")

	eve := s.Connect(t, "eve", eveKey, "", 80, 24)
	eve.WaitFor("bob is too like the name of a player online now: please pick another name.", "Pick the name")
	eve.Press("ctrl+u", "Eve", "enter")
	eve.WaitFor("Open tables", "you are Eve")

	robot := s.API(t, "robot", robotKey)
	if fmt.Sprint(robot.Welcome["notice"]) != "BOB is too like the name of a player online now: please pick another name." ||
		!strings.Contains(fmt.Sprint(robot.Welcome["player"]), "name:Player") {
		t.Fatalf("welcome to a key whose name is in use: %v", robot.Welcome)
	}
	robot.Send(map[string]any{"op": "hello", "name": "Eve"})
	if m := robot.Expect("error"); !strings.Contains(fmt.Sprint(m["error"]), "Eve is too like the name of a player online now") {
		t.Fatalf("hello with Eve's name: %v", m)
	}

	bob.Close()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		robot.Send(map[string]any{"op": "hello", "name": "Bob"})
		m, err := robot.Next()
		if err != nil {
			t.Fatal(err)
		}
		if m["type"] == "hello" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Bob left, his name is still refused: %v", m)
		}
	}
}
