package session

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
)

// The table's news is taken on the session's goroutine (Prepare), and what Update is
// then given is quick, to be updated on a renderer, when it is an update: and not when
// the table closed, which leads back to the lobby and the player's record in the store.
func TestTableNewsIsQuickUnlessTheTableClosed(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{})
	t.Cleanup(func() {
		cancel()
		_ = l.Shutdown(context.Background())
	})
	host, err := l.Create(lobby.Player{ID: "SHA256:ann", Name: "Ann"}, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	sent := make(chan tea.Msg, 64)
	m := New(ctx, Options{Lobby: l, Player: lobby.Player{ID: "SHA256:bob", Name: "Bob"},
		Join: host.Code(), Send: func(msg tea.Msg) { sent <- msg },
		TrySend: func(msg tea.Msg) bool {
			select {
			case sent <- msg:
				return true
			default:
				return false
			}
		}})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Init() // joins the table

	// news takes the next news the table sends (passing over the timers' ticks) and gives
	// it to Prepare and Update.
	news := func() (quick bool) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case msg := <-sent:
				next, quick := m.Prepare(msg)
				m.Update(next)
				if _, ok := msg.(newsMsg); ok {
					return quick
				}
			case <-deadline:
				t.Fatal("no news from the table")
				return false
			}
		}
	}
	screen := func() string { return strings.Join(m.Frame(), "\n") }

	for !strings.Contains(screen(), "Bob") {
		if !news() {
			t.Fatalf("a table update was not quick:\n%s", screen())
		}
	}
	if err := lobby.Run(host, lobby.Chat{Text: "hello from Ann"}); err != nil {
		t.Fatal(err)
	}
	for !strings.Contains(screen(), "hello from Ann") {
		if !news() {
			t.Fatalf("a chat line's update was not quick:\n%s", screen())
		}
	}
	if next, quick := m.Prepare(tea.KeyPressMsg{Code: 'x', Text: "x"}); quick || next == nil {
		t.Fatalf("a key press is quick (%v) or lost (%v)", quick, next)
	}
	if err := lobby.Run(host, lobby.CloseTable{}); err != nil {
		t.Fatal(err)
	}
	for news() { // the updates before the close
	}
	if m.screen != screenLobby {
		t.Fatalf("the news that was not quick left the player on screen %d", m.screen)
	}
	if got := screen(); !strings.Contains(got, "closed") {
		t.Fatalf("the closed table's message is not on the lobby screen:\n%s", got)
	}
}
