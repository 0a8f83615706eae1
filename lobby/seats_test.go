package lobby_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
)

// A second player under a name already seated is shown with a visible mark, so the
// table can tell them apart; chat uses the same name.
func TestNamesAreUniqueAtATable(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, false)
	other := lobby.Player{ID: "SHA256:ann2", Name: "ann"}
	third := lobby.Player{ID: "SHA256:ann3", Name: "Ann"}
	b, err := l.Join(other, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Join(third, a.Code()); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(b, lobby.Chat{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a, "three seats", func(u lobby.Update) bool { return len(u.Table.Seats) == 3 && chatSays(u, "hi") })
	names := []string{u.Table.Seats[0].Name, u.Table.Seats[1].Name, u.Table.Seats[2].Name}
	if names[0] != "Ann" || names[1] != "ann²" || names[2] != "Ann³" {
		t.Fatalf("names %q, want Ann, ann², Ann³", names)
	}
	if c := u.Chat[len(u.Chat)-1]; c.From != "ann²" {
		t.Errorf("chat from %q, want ann²", c.From)
	}
	// Taking one's own seat back keeps its name.
	lobby.Run(b, lobby.Disconnect{})
	b2, err := l.Join(other, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, b2, "seat", func(u lobby.Update) bool { return u.Seat == 1 })
	if u.Table.Seats[1].Name != "ann²" {
		t.Errorf("back under %q", u.Table.Seats[1].Name)
	}
}

// The table's host gets the role back on return, unless they handed it over.
func TestHostRoleComesBack(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, false)
	b, _ := l.Join(ben, a.Code())
	c, _ := l.Join(cat, a.Code())
	lobby.Run(a, lobby.Disconnect{})
	waitFor(t, b, "Ben hosts", func(u lobby.Update) bool { return u.Host })
	a2, err := l.Join(ann, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, a2, "Ann hosts again", func(u lobby.Update) bool { return u.Host })
	if err := lobby.Run(b, lobby.AddBot{}); !errors.Is(err, lobby.ErrNotHost) {
		t.Errorf("Ben still hosts: %v", err)
	}
	// Handed over, it stays with the new host.
	if err := lobby.Run(a2, lobby.MakeHost{Seat: 2}); err != nil {
		t.Fatal(err)
	}
	lobby.Run(a2, lobby.Disconnect{})
	a3, err := l.Join(ann, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a3, lobby.AddBot{}); !errors.Is(err, lobby.ErrNotHost) {
		t.Errorf("Ann took back a role she handed over: %v", err)
	}
	if err := lobby.Run(c, lobby.AddBot{}); err != nil {
		t.Errorf("Cat is not the host: %v", err)
	}
}

// A spectator can take a free seat of a waiting table, but not of a running game.
func TestSpectatorTakesAFreeSeat(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, false)
	w, err := l.Watch(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(w, lobby.TakeSeat{}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, w, "seated", func(u lobby.Update) bool { return u.Seat == 1 })
	if u.Table.Seats[1].Name != "Ben" || u.Table.Spectators != 0 {
		t.Fatalf("table %+v", u.Table)
	}
	if err := lobby.Run(w, lobby.TakeSeat{}); err == nil {
		t.Error("a seated player took a second seat")
	}
	w2, _ := l.Watch(cat, a.Code())
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	err = lobby.Run(w2, lobby.TakeSeat{})
	if !errors.Is(err, lobby.ErrStarted) {
		t.Errorf("a spectator sat down during a game: %v", err)
	}
	// Cat is watching already: the answer tells her when she can sit, not to watch.
	if msg := err.Error(); strings.Contains(msg, "watch") || !strings.Contains(msg, "when it ends") {
		t.Errorf("a spectator is told %q", msg)
	}
}

// A spectator at a full table is told to wait for a free seat, not to watch.
func TestSpectatorAtAFullTable(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, false)
	for range 3 {
		if err := lobby.Run(a, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	w, err := l.Watch(cat, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	err = lobby.Run(w, lobby.TakeSeat{})
	if !errors.Is(err, lobby.ErrFull) {
		t.Fatalf("a spectator sat at a full table: %v", err)
	}
	if msg := err.Error(); strings.Contains(msg, "watch") || !strings.Contains(msg, "4 of 4 seats taken") {
		t.Errorf("a spectator is told %q", msg)
	}
}

// A finished table is listed as finished, after the waiting and running ones, and
// leaves the list when it closes.
func TestFinishedTablesInTheList(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, rules.Options{"rounds": "1"}, false)
	waiting, _ := l.Create(ben, testgame.ID, nil, false)
	_ = lobby.Run(a, lobby.AddBot{})
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "finished", func(u lobby.Update) bool { return u.Table.State == lobby.StateFinished })
	list := l.Tables(cat)
	if len(list) != 2 || list[0].Code != waiting.Code() || list[1].State != lobby.StateFinished {
		t.Fatalf("list %+v", list)
	}
	if err := lobby.Run(a, lobby.CloseTable{}); err != nil {
		t.Fatal(err)
	}
	// The table leaves the list as its actor stops, just after the host's request.
	deadline := time.Now().Add(5 * time.Second)
	for len(l.Tables(cat)) != 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if list := l.Tables(cat); len(list) != 1 {
		t.Fatalf("closed table still listed: %+v", list)
	}
}

// Lobby errors reach the JSON API as they are, so they speak without terminal keys.
func TestLobbyErrorsHaveNoTerminalKeys(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, false)
	errs := []error{lobby.Run(a, lobby.Start{}), lobby.Run(a, lobby.Kick{Seat: 0})}
	for _, err := range errs {
		if err == nil {
			t.Fatal("no error")
		}
		for _, k := range []string{" with b", " with q", "press "} {
			if strings.Contains(err.Error(), k) {
				t.Errorf("error %q mentions a key (%q)", err, k)
			}
		}
	}
}

// The host who closes the table is told they closed it; the others that the host did.
func TestClosingTheTableTellsWhoClosedIt(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, false)
	b, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.CloseTable{}); err != nil {
		t.Fatal(err)
	}
	if got := closedWhy(a); got != "You closed the table." {
		t.Errorf("the host is told %q", got)
	}
	if got := closedWhy(b); got != "The host closed the table." {
		t.Errorf("Ben is told %q", got)
	}
}

// An admin who uses the host's controls at someone else's table is named: the players
// must not think their host removed them, started the game or closed the table.
func TestAnAdminsActionsAreTheAdmins(t *testing.T) {
	l := newLobby(t)
	root := lobby.Player{ID: "SHA256:root", Name: "Root", Admin: true}
	a, _ := l.Create(ann, testgame.ID, nil, false)
	b, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Join(lobby.Player{ID: "SHA256:cat", Name: "Cat"}, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	w, err := l.Watch(root, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(w, lobby.Kick{Seat: 2}); err != nil {
		t.Fatal(err)
	}
	if got := closedWhy(c); got != "An admin (Root) removed you from the table." {
		t.Errorf("Cat is told %q", got)
	}
	if err := lobby.Run(w, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "the admin's start", func(u lobby.Update) bool { return chatSays(u, "An admin (Root) started the game.") })
	if err := lobby.Run(w, lobby.CloseTable{}); err != nil {
		t.Fatal(err)
	}
	if got := closedWhy(b); got != "An admin (Root) closed the table." {
		t.Errorf("Ben is told %q", got)
	}
}

// closedWhy reads p's updates until it is closed and returns why.
func closedWhy(p lobby.Place) string {
	for {
		if _, ok, why := p.Next(context.Background()); !ok {
			return why.Text
		}
	}
}

// After a game, a player who leaves frees their seat and the seats after it move up,
// but everyone keeps their own view of the finished game (their seat in it), and a
// player who sits down after it gets the view of one who watched it: nobody is shown
// another player's side of it, nor a log as if the game were new.
func TestFinishedGameKeepsEachPlayersSeatInIt(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, rules.Options{"rounds": "1"}, false)
	b, _ := l.Join(ben, a.Code())
	c, _ := l.Join(cat, a.Code())
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []lobby.Place{a, b, c} {
		if err := lobby.Run(m, lobby.ActOf(testgame.Pick(1))); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, c, "finished", func(u lobby.Update) bool { return u.Table.State == lobby.StateFinished })
	lobby.Run(a, lobby.Leave{})
	for i, m := range []lobby.Place{b, c} {
		u := waitFor(t, m, "ann gone", func(u lobby.Update) bool { return len(u.Table.Seats) == 2 })
		if u.Seat != i || u.View == nil || u.View.Head().Seat != i+1 {
			t.Fatalf("%s: table seat %d, game seat %v; want %d and %d", u.Table.Seats[i].Name, u.Seat, u.View.Head().Seat, i, i+1)
		}
	}
	d, err := l.Join(lobby.Player{ID: "SHA256:dan", Name: "Dan"}, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, d, "seated", func(u lobby.Update) bool { return u.Seat == 2 })
	if u.View == nil || u.View.Head().Seat != rules.Spectator {
		t.Fatalf("a player seated after the game sees it from seat %d", u.View.Head().Seat)
	}
	if want := []int{1, 2, rules.Spectator}; !slices.Equal(u.Table.GameSeats, want) {
		t.Errorf("GameSeats = %v, want %v", u.Table.GameSeats, want)
	}
	// The next game is everyone's own again.
	if err := lobby.Run(b, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, d, "playing", func(u lobby.Update) bool { return u.Table.State == lobby.StatePlaying })
	if u.View.Head().Seat != 2 || u.Table.GameSeats != nil {
		t.Errorf("in the next game: game seat %d, GameSeats %v", u.View.Head().Seat, u.Table.GameSeats)
	}
}

// A player who holds a seat and asks to watch the table takes the seat back instead of
// watching it go to a bot.
func TestWatchingYourOwnTableTakesYourSeatBack(t *testing.T) {
	l, _ := newClockLobby(t)
	a, err := l.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(b, lobby.Disconnect{}); err != nil {
		t.Fatal(err)
	}
	w, err := l.Watch(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	u, ok, why := w.Next(ctx)
	if !ok || u.Seat != 1 || u.Table.Seats[1].Away {
		t.Fatalf("Ben watching his own table: seat %d, ok %v (%s), seats %+v", u.Seat, ok, why, u.Table.Seats)
	}
}
