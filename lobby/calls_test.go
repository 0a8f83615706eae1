package lobby_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/store"
)

// once is a place's CallOnce (a member of this lobby's own table).
func once(t *testing.T, p lobby.Place, id string, req lobby.Request) error {
	t.Helper()
	m, ok := p.(interface {
		CallOnce(string, lobby.Request) (any, error)
	})
	if !ok {
		t.Fatalf("%T has no CallOnce", p)
	}
	_, err := m.CallOnce(id, req)
	return err
}

// createdBy starts a lobby on a memory table log and has p create a test game's table
// there; the log and clock serve a restart.
func createdBy(t *testing.T, p lobby.Player) (*store.Memory, *handClock, *run, lobby.Place) {
	t.Helper()
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	c := newClock()
	r := start(t, st, c, nil)
	m, err := r.l.Create(p, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	return st, c, r, m
}

// rejoined stops r, starts a lobby again on st and c, restores its tables, and has p
// join the table code again.
func rejoined(t *testing.T, r *run, st *store.Memory, c *handClock, p lobby.Player, code string) (*run, lobby.Place) {
	t.Helper()
	r.stop()
	r2 := start(t, st, c, nil)
	if _, err := r2.l.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	m, err := r2.l.Join(p, code)
	if err != nil {
		t.Fatal(err)
	}
	return r2, m
}

// A call sent again under its id (a cluster's session whose answer did not come) is
// answered "ok" and not applied again, by the table that applied it and by the table
// restored from its log: the id is in the entry the call made.
func TestACallSentAgainIsAppliedOnce(t *testing.T) {
	hostP, annP := lobby.Player{ID: "SHA256:host", Name: "Host"}, lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	st, c, r, host := createdBy(t, hostP)
	code := host.Code()
	ann, err := r.l.Join(annP, code)
	if err != nil {
		t.Fatal(err)
	}
	pick := lobby.ActOf(testgame.Pick(1))
	if err := once(t, host, "host-1", lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := once(t, ann, "ann-1", pick); err != nil {
		t.Fatal(err)
	}
	if err := once(t, ann, "ann-1", pick); err != nil {
		t.Errorf("the same pick again: %v; want ok", err)
	}
	if err := once(t, ann, "ann-2", pick); !errors.Is(err, testgame.ErrPicked) {
		t.Errorf("another pick: %v; want %v", err, testgame.ErrPicked)
	}
	r2, host := rejoined(t, r, st, c, hostP, code)
	ann, err = r2.l.Join(annP, code)
	if err != nil {
		t.Fatal(err)
	}
	if err := once(t, ann, "ann-1", pick); err != nil {
		t.Errorf("the same pick again after a restart: %v; want ok", err)
	}
	if err := once(t, host, "host-1", lobby.Start{}); err != nil {
		t.Errorf("the same start again after a restart: %v; want ok", err)
	}
	if n := testgame.Acts(t, st, code, 1); n != 1 {
		t.Errorf("the log holds %d picks of Ann's; want 1 (the game was not started again)", n)
	}
}

// hellos counts the lines "hello" a member's newest update shows.
func hellos(t *testing.T, m lobby.Place) int {
	t.Helper()
	n := 0
	for _, l := range follow(m).until(t, "an update", func(lobby.Update) bool { return true }).Chat {
		if l.Text == "hello" {
			n++
		}
	}
	return n
}

// So is a chat line: said once, though its call comes again, before and after a
// restart (a player's line said twice when the owner died before it answered).
func TestAChatLineSentAgainIsSaidOnce(t *testing.T) {
	annP := lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	st, c, r, ann := createdBy(t, annP)
	code := ann.Code()
	hello := lobby.Chat{Text: "hello"}
	for range 2 {
		if err := once(t, ann, "ann-1", hello); err != nil {
			t.Fatal(err)
		}
	}
	if err := once(t, ann, "ann-2", hello); err != nil {
		t.Fatal(err)
	}
	if n := hellos(t, ann); n != 2 {
		t.Fatalf("the table shows %d lines of Ann's hello; want 2 (two calls, one sent twice)", n)
	}
	_, ann = rejoined(t, r, st, c, annP, code)
	if err := once(t, ann, "ann-2", hello); err != nil {
		t.Errorf("the same line again after a restart: %v; want ok", err)
	}
	if n := hellos(t, ann); n != 2 {
		t.Errorf("after a restart the table shows %d lines of Ann's hello; want 2", n)
	}
}

// seatsAfter has host say word (a sync point: every call before it was answered) and
// gives the seats' names in the first update that shows the line.
func seatsAfter(t *testing.T, s *seen, host lobby.Place, id, word string) []string {
	t.Helper()
	if err := once(t, host, id, lobby.Chat{Text: word}); err != nil {
		t.Fatal(err)
	}
	u := s.until(t, "the line "+word, func(u lobby.Update) bool {
		return len(u.Chat) > 0 && u.Chat[len(u.Chat)-1].Text == word
	})
	var names []string
	for _, seat := range u.Table.Seats {
		names = append(names, seat.Name)
	}
	return names
}

// So is a host's control: a bot added or a seat emptied once, though its call comes
// again, before and after a restart. Applied twice, a kick removed whoever had moved
// up into the kicked seat, and a bot came twice (the owner died after applying the
// call and before it answered, and the session sent it again).
func TestAHostControlSentAgainIsAppliedOnce(t *testing.T) {
	hostP := lobby.Player{ID: "SHA256:host", Name: "Host"}
	st, c, r, host := createdBy(t, hostP)
	code := host.Code()
	for _, p := range []lobby.Player{{ID: "SHA256:ann", Name: "Ann"}, {ID: "SHA256:bob", Name: "Bob"}} {
		if _, err := r.l.Join(p, code); err != nil {
			t.Fatal(err)
		}
	}
	seen := follow(host)
	for range 2 {
		if err := once(t, host, "host-1", lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
		if err := once(t, host, "host-2", lobby.Kick{Seat: 1}); err != nil {
			t.Fatal(err)
		}
	}
	names := seatsAfter(t, seen, host, "host-3", "one")
	if len(names) != 3 || names[0] != "Host" || names[1] != "Bob" {
		t.Fatalf("seats %q after a bot and a kick of Ann's seat, each sent twice; want Host, Bob and one bot", names)
	}
	_, host = rejoined(t, r, st, c, hostP, code)
	seen = follow(host)
	if err := once(t, host, "host-1", lobby.AddBot{}); err != nil {
		t.Errorf("the same bot again after a restart: %v; want ok", err)
	}
	if err := once(t, host, "host-2", lobby.Kick{Seat: 1}); err != nil {
		t.Errorf("the same kick again after a restart: %v; want ok", err)
	}
	if after := seatsAfter(t, seen, host, "host-4", "two"); !slices.Equal(after, names) {
		t.Errorf("after a restart, seats %q once the same calls came again; want %q", after, names)
	}
}

// An ignore sent again is answered "ok" as well, though it changes only the member
// (the table remembers the call's id), while a new call to ignore the same player is
// refused as a second ignore.
func TestAnIgnoreSentAgainIsAnsweredOnce(t *testing.T) {
	_, _, r, ann := createdBy(t, lobby.Player{ID: "SHA256:ann", Name: "Ann"})
	if _, err := r.l.Join(lobby.Player{ID: "SHA256:ben", Name: "Ben"}, ann.Code()); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := once(t, ann, "ann-1", lobby.Ignore{Seat: 1}); err != nil {
			t.Errorf("Ann's ignore of Ben, sent again: %v; want ok", err)
		}
	}
	if err := once(t, ann, "ann-2", lobby.Ignore{Seat: 1}); err == nil {
		t.Error("a second ignore of Ben, a call of its own: no error")
	}
}
