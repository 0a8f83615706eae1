package lobby_test

import (
	"testing"
	"time"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
)

// Every player in the lobby reads one shared list: the same snapshot until a table
// changes, then a new one; an admin's list (with private tables) is a snapshot apart.
func TestLobbyListIsOneSharedSnapshot(t *testing.T) {
	l := newLobby(t)
	admin := lobby.Player{ID: "SHA256:root", Name: "Root", Admin: true}
	before := l.Tables(ann)
	if !lobby.SameTables(before, l.Tables(ben)) {
		t.Fatal("two players got two copies of an unchanged list")
	}
	m, err := l.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	secret, err := l.Create(cat, testgame.ID, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "the first update", func(lobby.Update) bool { return true })
	waitFor(t, secret, "the first update", func(lobby.Update) bool { return true })
	after := l.Tables(ann)
	if lobby.SameTables(before, after) || len(after) != 1 || after[0].Code != m.Code() {
		t.Fatalf("after a table opened: %d tables, same snapshot %v", len(after), lobby.SameTables(before, after))
	}
	if !lobby.SameTables(after, l.Tables(ben)) {
		t.Fatal("the new list is not shared")
	}
	if all := l.Tables(admin); len(all) != 2 || lobby.SameTables(all, after) {
		t.Fatalf("the admin's list has %d tables; want both, in a snapshot of its own", len(all))
	}
	if err := lobby.Run(m, lobby.Chat{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "the chat", func(u lobby.Update) bool { return len(u.Chat) > 1 })
	if lobby.SameTables(after, l.Tables(ann)) {
		t.Fatal("a table changed and the list stayed the same snapshot")
	}
}

// A member that waits with Notify hears of each update once, takes the newest with
// Take, and hears of its close too.
func TestNotifyAndTakeDeliverTheNewestUpdateAndTheClose(t *testing.T) {
	l := newLobby(t)
	m, err := l.Create(ann, testgame.ID, rules.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	news := make(chan struct{}, 100)
	m.Notify(func() { news <- struct{}{} })
	next := func(what string) (lobby.Update, bool, string) {
		t.Helper()
		select {
		case <-news:
		case <-time.After(5 * time.Second):
			t.Fatalf("no news of %s", what)
		}
		u, has, c := m.Take()
		return u, has, c.Text
	}
	u, has, closed := next("the first update") // it was waiting when Notify was set
	if !has || closed != "" || u.Seat != 0 {
		t.Fatalf("first take: has %v, closed %q, seat %d", has, closed, u.Seat)
	}
	for _, text := range []string{"one", "two", "three"} {
		if err := lobby.Run(m, lobby.Chat{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	for {
		u, has, _ = next("the chat")
		if has && u.Chat[len(u.Chat)-1].Text == "three" {
			break
		}
	}
	if _, has, _ := m.Take(); has {
		t.Fatal("Take gave an update twice")
	}
	if err := lobby.Run(m, lobby.CloseTable{}); err != nil {
		t.Fatal(err)
	}
	for {
		_, _, closed = next("the close")
		if closed != "" {
			break
		}
	}
	if _, has, again := m.Take(); has || again.Text != closed {
		t.Fatalf("after the close: has %v, closed %q", has, again)
	}
}
