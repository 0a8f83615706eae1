package session

import (
	"context"
	"strings"
	"sync"
	"testing"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
)

// The host blocks the picked seat after a yes, and the room lists whom to unblock.
func TestHostBlocksThePickedSeat(t *testing.T) {
	l, ctx := newLobbyT(t, nil)
	a, _ := l.Create(annP, testgame.ID, nil, false)
	if _, err := l.Join(benP, a.Code()); err != nil {
		t.Fatal(err)
	}
	m := New(ctx, Options{Lobby: l, Player: annP})
	m.table = newTableScreen(a)
	ts := &m.table
	ts.apply(nextUpdate(t, a, func(u lobby.Update) bool { return len(u.Table.Seats) == 2 }))
	if hasKey(ts, "B", "block") {
		t.Fatal("the host's own seat offers B: a key is shown only where it works")
	}
	ts.seatSel = 1
	if !hasKey(ts, "B", "block") || !hasKey(ts, "I", "ignore") || !hasKey(ts, "R", "report") {
		t.Fatal("the room lacks the moderation keys for Ben's seat")
	}
	ts.key(m, press("B"))
	if m.confirm != confirmBlock || m.question.player != "Ben" {
		t.Fatalf("B asks %q about %q", m.confirm, m.question.player)
	}
	m.onConfirm(press("y"))
	ts.apply(nextUpdate(t, a, func(u lobby.Update) bool { return len(u.Table.Blocked) == 1 }))
	if !strings.Contains(m.status, "Ben is blocked") {
		t.Errorf("the host is told %q", m.status)
	}
	m.status = "" // the notice gives way to the hint
	if out := drawRoom(m, ts); !strings.Contains(out, "Blocked here: Ben (U unblocks)") {
		t.Fatalf("the room after the block:\n%s", out)
	}
	if _, err := l.Join(benP, a.Code()); err == nil {
		t.Fatal("blocked Ben joins")
	}
	ts.key(m, press("U"))
	for _, r := range "ben" {
		ts.key(m, press(string(r)))
	}
	ts.key(m, press("enter"))
	ts.apply(nextUpdate(t, a, func(u lobby.Update) bool { return len(u.Table.Blocked) == 0 }))
	if _, err := l.Join(benP, a.Code()); err != nil {
		t.Fatalf("unblocked Ben joins: %v", err)
	}
}

// A player ignores the picked seat with I (and shows it again with I), and reports it
// with R and a reason typed in the message box.
func TestPlayerIgnoresAndReportsThePickedSeat(t *testing.T) {
	var mu sync.Mutex
	var kept []lobby.Report
	l, ctx := newLobbyConfig(t, lobby.Config{Report: func(_ context.Context, r lobby.Report) error {
		mu.Lock()
		defer mu.Unlock()
		kept = append(kept, r)
		return nil
	}})
	a, _ := l.Create(annP, testgame.ID, nil, false)
	b, err := l.Join(benP, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	m := New(ctx, Options{Lobby: l, Player: benP})
	m.table = newTableScreen(b)
	ts := &m.table
	ts.apply(nextUpdate(t, b, func(u lobby.Update) bool { return len(u.Table.Seats) == 2 }))
	ts.seatSel = 1
	ts.key(m, press("up")) // Ann's seat, now shown as picked
	ts.key(m, press("I"))
	ts.apply(nextUpdate(t, b, func(u lobby.Update) bool { return len(u.Ignored) == 1 }))
	if out := drawRoom(m, ts); !strings.Contains(out, "Ann ★host (ignored)") {
		t.Fatalf("the room after ignoring Ann:\n%s", out)
	}
	ts.key(m, press("I"))
	ts.apply(nextUpdate(t, b, func(u lobby.Update) bool { return len(u.Ignored) == 0 }))

	ts.key(m, press("R"))
	ts.key(m, press("enter")) // no reason: refused, the box stays open
	if !ts.chatting || !strings.Contains(m.status, "reason") {
		t.Fatalf("a report without a reason: chatting %v, status %q", ts.chatting, m.status)
	}
	for _, r := range "rude" {
		ts.key(m, press(string(r)))
	}
	ts.key(m, press("enter"))
	mu.Lock()
	defer mu.Unlock()
	if len(kept) != 1 || kept[0].AboutName != "Ann" || kept[0].Reason != "rude" || ts.chatting {
		t.Fatalf("kept %+v, chatting %v, status %q", kept, ts.chatting, m.status)
	}
}

// At 80×24 the host's keys for a picked seat are listed whole (the seats panel takes
// the lines they need), H asks before the host role goes, and the report's box says
// what it is for rather than "say:".
func TestSeatKeysAreWholeAndHAndRSayWhatTheyDo(t *testing.T) {
	l, ctx := newLobbyT(t, nil)
	a, _ := l.Create(annP, testgame.ID, nil, false)
	if _, err := l.Join(benP, a.Code()); err != nil {
		t.Fatal(err)
	}
	m := New(ctx, Options{Lobby: l, Player: annP})
	m.table = newTableScreen(a)
	ts := &m.table
	ts.apply(nextUpdate(t, a, func(u lobby.Update) bool { return len(u.Table.Seats) == 2 }))
	ts.seatSel = 1
	out := drawRoom(m, ts)
	for _, k := range []string{"B block", "I ignore", "R report", "H make host"} {
		if !strings.Contains(out, k) {
			t.Errorf("the room lacks %q:\n%s", k, out)
		}
	}
	ts.key(m, press("H"))
	if m.confirm != confirmMakeHost || m.question.player != "Ben" {
		t.Fatalf("H asks %q about %q", m.confirm, m.question.player)
	}
	m.onConfirm(press("n"))
	ts.key(m, press("R"))
	if out := drawRoom(m, ts); !strings.Contains(out, "report Ben (to the admins, not the table):") || strings.Contains(out, "say:") {
		t.Fatalf("the report's box:\n%s", out)
	}
}

// A chat line typed to its limit says why the next key does not type.
func TestTypingPastTheChatLimitSaysWhy(t *testing.T) {
	l, ctx := newLobbyT(t, nil)
	a, _ := l.Create(annP, testgame.ID, nil, false)
	m := New(ctx, Options{Lobby: l, Player: annP})
	m.table = newTableScreen(a)
	ts := &m.table
	ts.apply(nextUpdate(t, a, func(u lobby.Update) bool { return len(u.Table.Seats) == 1 }))
	ts.chatting = true
	for range chatMax {
		ts.key(m, press("a"))
	}
	if m.status != "" {
		t.Fatalf("a message within the limit: %q", m.status)
	}
	ts.key(m, press("a"))
	if !strings.Contains(m.status, "at most 200 characters") || len(ts.chatBox().value()) != chatMax {
		t.Fatalf("past the limit: status %q, %d characters", m.status, len(ts.chatBox().value()))
	}
}
