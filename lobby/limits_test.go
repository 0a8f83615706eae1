package lobby_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
)

func TestOnePlayerHostsAtMostThreeOpenTables(t *testing.T) {
	l, _ := clockLobby(t)
	var hosted []lobby.Place
	for range lobby.MaxHostedTables {
		m, err := l.Create(ann, testgame.ID, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		hosted = append(hosted, m)
	}
	_, err := l.Create(ann, testgame.ID, nil, true)
	if !errors.Is(err, lobby.ErrHostLimit) || !strings.Contains(err.Error(), "you already host 3 open tables: close one first") {
		t.Fatalf("a fourth table: %v", err)
	}
	// The refusal says which tables they are, so a host who left a started game can
	// find it again, and when a table left alone closes by itself.
	codes := []string{hosted[0].Code(), hosted[1].Code(), hosted[2].Code()}
	slices.Sort(codes)
	if want := fmt.Sprintf("close one first (%s, %s and %s; join one you left by its code). A table nobody is connected to closes by itself after 10 min", codes[0], codes[1], codes[2]); !strings.Contains(err.Error(), want) {
		t.Fatalf("a fourth table: %v\nwant it to say %q", err, want)
	}
	if _, err := l.Create(ben, testgame.ID, nil, false); err != nil {
		t.Fatalf("another player: %v", err)
	}
	if _, err := l.Create(lobby.Player{ID: "SHA256:root", Name: "Root", Admin: true}, testgame.ID, nil, false); err != nil {
		t.Fatalf("an admin: %v", err)
	}
	// Closing one makes room again.
	if err := lobby.Run(hosted[0], lobby.CloseTable{}); err != nil {
		t.Fatal(err)
	}
	waitClosed(t, hosted[0])
	if _, err := l.Create(ann, testgame.ID, nil, false); err != nil {
		t.Fatalf("after closing one: %v", err)
	}
}

func TestHandingTheHostRoleOverFreesASlot(t *testing.T) {
	l, _ := clockLobby(t)
	var first lobby.Place
	for i := range lobby.MaxHostedTables {
		m, err := l.Create(ann, testgame.ID, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = m
		}
	}
	b, err := l.Join(ben, first.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(first, lobby.MakeHost{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, b, "host role", func(u lobby.Update) bool { return u.Host })
	if _, err := l.Create(ann, testgame.ID, nil, false); err != nil {
		t.Fatalf("after handing a table over: %v", err)
	}
}

func TestTablesCreatedPerAddressAreLimited(t *testing.T) {
	l, clk := clockLobby(t)
	player := func(i int, addr string) lobby.Player {
		return lobby.Player{ID: fmt.Sprintf("guest:%d", i), Name: "Guest", Guest: true, Addr: addr}
	}
	for i := range lobby.CreateBurst {
		if _, err := l.Create(player(i, "203.0.113.7"), testgame.ID, nil, false); err != nil {
			t.Fatalf("table %d: %v", i+1, err)
		}
	}
	if _, err := l.Create(player(100, "203.0.113.7"), testgame.ID, nil, false); !errors.Is(err, lobby.ErrCreateLimit) {
		t.Fatalf("one table too many from one address: %v", err)
	}
	if _, err := l.Create(player(101, "198.51.100.1"), testgame.ID, nil, false); err != nil {
		t.Fatalf("another address: %v", err)
	}
	clk.Advance(lobby.CreateEvery)
	if _, err := l.Create(player(102, "203.0.113.7"), testgame.ID, nil, false); err != nil {
		t.Fatalf("after waiting: %v", err)
	}
	if _, err := l.Create(player(103, "203.0.113.7"), testgame.ID, nil, false); !errors.Is(err, lobby.ErrCreateLimit) {
		t.Fatalf("waiting earns one table, not more: %v", err)
	}
}

func TestPrivateTablesHaveLongCodes(t *testing.T) {
	l, _ := clockLobby(t)
	pub, err := l.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	priv, err := l.Create(ann, testgame.ID, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(pub.Code()) != lobby.CodeLen || len(priv.Code()) != lobby.PrivateCodeLen {
		t.Fatalf("codes %q (public) and %q (private)", pub.Code(), priv.Code())
	}
	typed := strings.ToLower(priv.Code()[:4] + "-" + priv.Code()[4:])
	if _, err := l.Join(ben, typed); err != nil {
		t.Fatalf("join %q: %v", typed, err)
	}
	if _, err := l.Join(cat, "ABC"); err == nil || !strings.Contains(err.Error(), "8 for a private table") {
		t.Fatalf("a malformed code: %v", err)
	}
}

func TestUnknownCodesAreSlowedPerAddress(t *testing.T) {
	l, clk := clockLobby(t)
	host, err := l.Create(ann, testgame.ID, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	prober := lobby.Player{ID: "guest:x", Name: "X", Guest: true, Addr: "203.0.113.9"}
	for i := range lobby.MissBurst {
		code := fmt.Sprintf("ZZZZZZ%c%c", 'A'+i/20, 'A'+i%20)
		if _, err := l.Watch(prober, code); !errors.Is(err, lobby.ErrNoTable) {
			t.Fatalf("unknown code %d: %v", i+1, err)
		}
	}
	// Out of tries: no code is looked up at all, not even a right one, so guessing
	// cannot go on in the background.
	if _, err := l.Watch(prober, "ZZZZZZZZ"); !errors.Is(err, lobby.ErrCodeLimit) {
		t.Fatalf("one unknown code too many: %v", err)
	}
	if _, err := l.Join(prober, host.Code()); !errors.Is(err, lobby.ErrCodeLimit) {
		t.Fatalf("a right code while out of tries: %v", err)
	}
	if _, err := l.Join(lobby.Player{ID: "guest:y", Name: "Y", Guest: true, Addr: "198.51.100.2"}, host.Code()); err != nil {
		t.Fatalf("another address: %v", err)
	}
	clk.Advance(lobby.MissEvery)
	if _, err := l.Watch(prober, host.Code()); err != nil {
		t.Fatalf("after waiting: %v", err)
	}
}

// waitClosed reads m's updates until the table has let it go.
func waitClosed(t *testing.T, m lobby.Place) {
	t.Helper()
	for {
		ctx, cancel := contextTimeout()
		_, ok, reason := m.Next(ctx)
		cancel()
		if !ok {
			if reason.Why == lobby.WhyGone {
				t.Fatal("the table did not close")
			}
			return
		}
	}
}

func contextTimeout() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 5*time.Second)
}

func TestChatAllowanceRefillsOnTheLobbyClock(t *testing.T) {
	l, clk := clockLobby(t)
	a, err := l.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for ; sent < 20; sent++ {
		if err := lobby.Run(a, lobby.Chat{Text: "hello"}); errors.Is(err, lobby.ErrSlowDown) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if sent != 6 {
		t.Fatalf("%d chat lines went through at once, want a burst of 6", sent)
	}
	clk.Advance(2 * time.Second)
	if err := lobby.Run(a, lobby.Chat{Text: "again"}); err != nil {
		t.Fatalf("after two seconds: %v", err)
	}
	if err := lobby.Run(a, lobby.Chat{Text: "and again"}); !errors.Is(err, lobby.ErrSlowDown) {
		t.Fatalf("two seconds earn one line: %v", err)
	}
}
