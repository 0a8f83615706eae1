package session_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	_ "parlor/internal/testgame"
	"parlor/lobby"
	"parlor/session"
)

func newModel(t *testing.T, p lobby.Player) (*teatest.TestModel, *lobby.Lobby) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{})
	m := session.New(ctx, session.Options{Lobby: l, Player: p, AskName: true})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	t.Cleanup(func() {
		_ = tm.Quit()
		cancel()
		_ = l.Shutdown(context.Background())
	})
	return tm, l
}

func waitFor(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
		teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func key(code rune, text string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code, Text: text} }

func TestNameLobbyCreateAndHelp(t *testing.T) {
	tm, l := newModel(t, lobby.Player{ID: "SHA256:zed", Name: "zed"})
	waitFor(t, tm, "Welcome to parlor!")
	tm.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	tm.Send(key(tea.KeyEnter, ""))
	waitFor(t, tm, "a name has 2 to 16 characters")
	tm.Type("Zed Zeppelin")
	tm.Send(key(tea.KeyEnter, ""))
	waitFor(t, tm, "you are Zed Zeppelin")

	tm.Send(key('?', "?"))
	waitFor(t, tm, "join a table by its four-letter code")
	tm.Send(key(tea.KeyEscape, ""))

	tm.Send(key('c', "c"))
	waitFor(t, tm, "Choose a game and its options")
	for i := 0; i < 10; i++ {
		tm.Send(key(tea.KeyRight, ""))
	}
	// Whatever game the cycle stops at, enter creates a table for it.
	tm.Send(key(tea.KeyEnter, ""))
	waitFor(t, tm, "Seats 1/")
	if len(l.Tables(lobby.Player{})) != 1 {
		t.Fatalf("tables: %v", l.Tables(lobby.Player{}))
	}
}

func TestTooSmallAndBack(t *testing.T) {
	tm, _ := newModel(t, lobby.Player{ID: "g", Name: "gg", Guest: true})
	waitFor(t, tm, "You are a guest")
	tm.Send(tea.WindowSizeMsg{Width: 50, Height: 12})
	waitFor(t, tm, "Please enlarge your terminal to 80×24.")
	tm.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	waitFor(t, tm, "Pick the name")
}
