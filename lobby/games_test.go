package lobby_test

import (
	"context"
	"testing"
	"time"

	"parlor/assets"
	"parlor/lobby"
	"parlor/rules"
	tt "parlor/rules/talltale"
)

// clockLobby is a lobby with the real games' content on a test clock whose table
// tickers never fire on their own: time moves only when the test says so, and only an
// action (or the test) makes the table look at the clock.
func clockLobby(t *testing.T) (*lobby.Lobby, *handClock) {
	t.Helper()
	c := newHandClock(time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{Content: assets.Load, Clock: c, Tick: time.Hour})
	t.Cleanup(func() {
		cancel()
		if err := l.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return l, c
}

// humans opens a table of game with n human players and starts it; members[i] holds
// seat i.
func humans(t *testing.T, l *lobby.Lobby, game string, n int, opts rules.Options) []lobby.Place {
	t.Helper()
	players := []lobby.Player{ann, ben, cat, {ID: "SHA256:dan", Name: "Dan"}, {ID: "SHA256:eve", Name: "Eve"}}
	host, err := l.Create(players[0], game, opts, false)
	if err != nil {
		t.Fatal(err)
	}
	members := []lobby.Place{host}
	for _, p := range players[1:n] {
		m, err := l.Join(p, host.Code())
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, m)
	}
	if err := lobby.Run(host, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	return members
}

// viewOf waits for m's view in the given phase.
func viewOf[V rules.View](t *testing.T, m lobby.Place, phase string) V {
	t.Helper()
	u := waitFor(t, m, "phase "+phase, func(u lobby.Update) bool {
		v, ok := u.View.(V)
		return ok && v.Head().Phase == phase
	})
	return u.View.(V)
}

// findNarrator finds the Tall Tale narrator of the first round and their view, which holds
// the drawn illustrations.
func findNarrator(t *testing.T, ms []lobby.Place) (lobby.Place, tt.View) {
	t.Helper()
	for _, m := range ms {
		if v := viewOf[tt.View](t, m, tt.PhaseDiscard); v.Hand != nil {
			return m, v
		}
	}
	t.Fatal("nobody holds the narrator's hand")
	return nil, tt.View{}
}
