package session_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"

	"parlor/internal/testkit/testclock"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
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

// waitFor reads the program's output through a terminal emulator until text is on the
// screen: the renderer sends only changed cells, so the raw bytes need not hold it.
func waitFor(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	em := screens[tm]
	if em == nil {
		em = vt.NewEmulator(80, 24)
		go func() { _, _ = io.Copy(io.Discard, em) }() // answers to the program's queries
		screens[tm] = em
	}
	seen := 0 // WaitFor passes all it has read so far: feed the emulator only what is new
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		// No PTY here to turn \n into \r\n (ONLCR), so do it as one would.
		_, _ = em.Write(bytes.ReplaceAll(b[seen:], []byte("\n"), []byte("\r\n")))
		seen = len(b)
		return strings.Contains(em.String(), text)
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

// screens holds each test model's emulator; tests in this file do not run in parallel.
var screens = map[*teatest.TestModel]*vt.Emulator{}

func key(code rune, text string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code, Text: text} }

func TestNameLobbyCreateAndHelp(t *testing.T) {
	tm, l := newModel(t, lobby.Player{ID: "SHA256:zed", Name: "zed"})
	waitFor(t, tm, "Welcome to parlor!")
	tm.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	tm.Send(key(tea.KeyEnter, ""))
	waitFor(t, tm, "that name would show as blank")
	tm.Type("Z")
	tm.Send(key(tea.KeyEnter, ""))
	waitFor(t, tm, "a name has 2 to 16 characters, wide ones")
	tm.Send(key(tea.KeyBackspace, ""))
	tm.Type("Zed Zeppelin")
	tm.Send(key(tea.KeyEnter, ""))
	waitFor(t, tm, "you are Zed Zeppelin")

	tm.Send(key('?', "?"))
	waitFor(t, tm, "join by code")
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

// TestCountdownReadsTheLobbyClock: a deadline in a view is the lobby's time, so the
// countdown on screen must be measured against the lobby's clock, not the wall clock
// (the end-to-end tests run games on a clock far from the wall's).
func TestCountdownReadsTheLobbyClock(t *testing.T) {
	clock := testclock.New(time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC))
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{Clock: clock})
	ann, ben := lobby.Player{ID: "SHA256:ann", Name: "Ann"}, lobby.Player{ID: "SHA256:ben", Name: "Ben"}
	a, err := l.Create(ann, testgame.ID, rules.Options{"timer": "30s"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Join(ben, a.Code()); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	m := session.New(ctx, session.Options{Lobby: l, Player: ben, Join: a.Code()})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	t.Cleanup(func() {
		_ = tm.Quit()
		cancel()
		_ = l.Shutdown(context.Background())
	})
	waitFor(t, tm, "0:30 left")
	clock.Advance(12 * time.Second)
	waitFor(t, tm, "0:18 left")
}

func TestLobbyTellsAPlayerTheirTableIsWaiting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{})
	t.Cleanup(func() {
		cancel()
		_ = l.Shutdown(context.Background())
	})
	ann := lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	a, err := l.Create(ann, "pick", nil, true) // private: not in the list, still offered
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Join(lobby.Player{ID: "SHA256:ben", Name: "Ben"}, a.Code()); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	lobby.Run(a, lobby.Disconnect{})
	tm := teatest.NewTestModel(t, session.New(ctx, session.Options{Lobby: l, Player: ann}), teatest.WithInitialTermSize(80, 24))
	t.Cleanup(func() { _ = tm.Quit() })
	waitFor(t, tm, "Your Pick table "+a.Code()+" is in round 1 — press r to go back.")
	tm.Send(key('r', "r"))
	waitFor(t, tm, "Round 1 of 2")
}

// A name a player online goes by is refused to another, on the name screen and for a
// name remembered from an earlier visit, and the player picks another one.
func TestNameOfAPlayerOnlineIsRefused(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{})
	t.Cleanup(func() {
		cancel()
		_ = l.Shutdown(context.Background())
	})
	bob := l.Connected("SHA256:bob")
	defer bob.Done()
	if err := bob.Name("Bob"); err != nil {
		t.Fatal(err)
	}

	// Eve's key remembers the name "bob" from a day when Bob was not online.
	eve := l.Connected("SHA256:eve")
	defer eve.Done()
	m := session.New(ctx, session.Options{Lobby: l, Online: eve, Player: lobby.Player{ID: "SHA256:eve", Name: "bob"}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	t.Cleanup(func() { _ = tm.Quit() })
	waitFor(t, tm, "bob is too like the name of a player online now")
	waitFor(t, tm, "Pick the name")
	tm.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	tm.Type("BOB")
	tm.Send(key(tea.KeyEnter, ""))
	waitFor(t, tm, "BOB is too like the name of a player online now")
	tm.Send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	tm.Type("Eve")
	tm.Send(key(tea.KeyEnter, ""))
	waitFor(t, tm, "you are Eve")
	ann := l.Connected("SHA256:ann")
	defer ann.Done()
	if err := ann.Name("eve"); err == nil {
		t.Error("Eve's session does not hold her name")
	}
}
