package lobby_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/store"
)

// outWhy reads a member's updates until it is out of its table, and returns why.
func outWhy(t *testing.T, m lobby.Place) lobby.Closed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		_, ok, why := m.Next(ctx)
		if !ok {
			return why
		}
	}
}

func hasLine(chat []lobby.ChatLine, text string) bool {
	return slices.ContainsFunc(chat, func(l lobby.ChatLine) bool { return l.Text == text })
}

func TestABlockedPlayerCannotSitOrWatchUntilUnblocked(t *testing.T) {
	l := newLobby(t)
	a, err := l.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	code := a.Code()
	b, err := l.Join(ben, code)
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Watch(cat, code)
	if err != nil {
		t.Fatal(err)
	}
	// Bad input changes nothing.
	for _, bad := range []struct {
		who lobby.Place
		req lobby.Request
	}{
		{b, lobby.Block{Seat: 0}},              // not the host
		{a, lobby.Block{Seat: 0}},              // yourself
		{a, lobby.Block{Seat: 7}},              // no such seat
		{a, lobby.BlockSpectator{Name: "Zed"}}, // nobody watches by that name
		{a, lobby.Unblock{Name: "Ben"}},        // nobody is blocked
		{b, lobby.BlockSpectator{Name: "Cat"}}, // not the host
		{a, lobby.BlockSpectator{Name: "  "}},  // no name
		{b, lobby.Unblock{Name: "Ben"}},        // not the host
	} {
		if _, err := bad.who.Call(bad.req); err == nil {
			t.Errorf("%s %+v: no error", bad.req.Op(), bad.req)
		}
	}
	if err := lobby.Run(a, lobby.AddBot{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Block{Seat: 2}); err == nil || !strings.Contains(err.Error(), "bot") {
		t.Fatalf("block a bot: %v", err)
	}

	if err := lobby.Run(a, lobby.Block{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	if why := outWhy(t, b); why.Why != lobby.WhyRemoved || !strings.Contains(why.Text, "blocked") {
		t.Fatalf("Ben is told %+v", why)
	}
	if _, err := l.Join(ben, code); !errors.Is(err, lobby.ErrBlocked) {
		t.Fatalf("blocked Ben joins: %v", err)
	}
	if _, err := l.Watch(ben, code); !errors.Is(err, lobby.ErrBlocked) {
		t.Fatalf("blocked Ben watches: %v", err)
	}
	if err := lobby.Run(a, lobby.BlockSpectator{Name: "cat"}); err != nil {
		t.Fatal(err)
	}
	if why := outWhy(t, c); !strings.Contains(why.Text, "blocked") {
		t.Fatalf("Cat is told %+v", why)
	}
	if _, err := l.Watch(cat, code); !errors.Is(err, lobby.ErrBlocked) {
		t.Fatalf("blocked Cat watches: %v", err)
	}
	u := waitFor(t, a, "the blocked list", func(u lobby.Update) bool { return len(u.Table.Blocked) == 2 })
	if !slices.Equal(u.Table.Blocked, []string{"Ben", "Cat"}) {
		t.Fatalf("blocked = %v", u.Table.Blocked)
	}
	if err := lobby.Run(a, lobby.Unblock{Name: "Zed"}); err == nil || !strings.Contains(err.Error(), "Ben and Cat") {
		t.Fatalf("unblock someone not blocked: %v", err)
	}
	// An admin is never kept out, and has the host's controls here.
	boss := lobby.Player{ID: "SHA256:boss", Name: "Boss", Admin: true}
	adm, err := l.Watch(boss, code)
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(adm, lobby.Unblock{Name: "ben"}); err != nil {
		t.Fatal(err)
	}
	b, err = l.Join(ben, code)
	if err != nil {
		t.Fatalf("unblocked Ben joins: %v", err)
	}
	if _, err := l.Watch(cat, code); !errors.Is(err, lobby.ErrBlocked) {
		t.Fatalf("Cat is still blocked: %v", err)
	}
	if err := lobby.Run(a, lobby.BlockSpectator{Name: "Boss"}); err == nil || !strings.Contains(err.Error(), "admin") {
		t.Fatalf("block an admin: %v", err)
	}
	// An admin blocks at any table.
	if err := lobby.Run(adm, lobby.Block{Seat: 2}); err != nil { // Ann, the bot, Ben
		t.Fatal(err)
	}
	if why := outWhy(t, b); !strings.Contains(why.Text, "An admin (Boss) blocked you") {
		t.Fatalf("Ben is told %+v", why)
	}
}

func TestABlockDuringAGameKeepsThePlayerOutOfTheirSeat(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, false)
	b, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Block{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	outWhy(t, b)
	if _, err := l.Join(ben, a.Code()); !errors.Is(err, lobby.ErrBlocked) {
		t.Fatalf("join: %v", err)
	}
	if _, err := l.Rejoin(ben, a.Code()); !errors.Is(err, lobby.ErrBlocked) {
		t.Fatalf("rejoin: %v", err)
	}
	u := waitFor(t, a, "a bot in Ben's seat", func(u lobby.Update) bool { return len(u.Table.Seats) == 2 && u.Table.Seats[1].Bot })
	if u.Table.Seats[1].Name != "Bot for Ben" {
		t.Fatalf("seat 1 = %+v", u.Table.Seats[1])
	}
}

func TestABlockSurvivesARestartAndEndsWithTheTable(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, err := r1.l.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	code := a.Code()
	b, err := r1.l.Join(ben, code)
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Block{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	outWhy(t, b)
	r1.stop()

	r2 := start(t, st, c, nil)
	if n, err := r2.l.Restore(context.Background()); err != nil || n != 1 {
		t.Fatalf("restored %d: %v", n, err)
	}
	if _, err := r2.l.Join(ben, code); !errors.Is(err, lobby.ErrBlocked) {
		t.Fatalf("after the restart Ben joins: %v", err)
	}
	a, err = r2.l.Join(ann, code)
	if err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a, "the blocked list", func(u lobby.Update) bool { return u.Host && len(u.Table.Blocked) == 1 })
	if u.Table.Blocked[0] != "Ben" {
		t.Fatalf("blocked = %v", u.Table.Blocked)
	}
	if err := lobby.Run(a, lobby.CloseTable{}); err != nil {
		t.Fatal(err)
	}
	outWhy(t, a)
	// The block was the table's: Ann's next table lets Ben in.
	a2, err := r2.l.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r2.l.Join(ben, a2.Code()); err != nil {
		t.Fatalf("Ben joins Ann's next table: %v", err)
	}
}

func TestIgnoringAPlayerHidesTheirChatFromTheIgnorerOnly(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, false)
	b, _ := l.Join(ben, a.Code())
	c, err := l.Join(cat, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.AddBot{}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []lobby.Request{lobby.Ignore{Seat: 0}, lobby.Ignore{Seat: 3}, lobby.Ignore{Seat: 9}, lobby.Unignore{Name: "Ben"}} {
		if _, err := a.Call(bad); err == nil {
			t.Errorf("%s %+v: no error", bad.Op(), bad)
		}
	}
	if err := lobby.Run(b, lobby.Chat{Text: "before"}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Ignore{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Ignore{Seat: 1}); err == nil {
		t.Error("ignoring twice: no error")
	}
	if err := lobby.Run(b, lobby.Chat{Text: "from Ben"}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(c, lobby.Chat{Text: "from Cat"}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a, "Cat's line", func(u lobby.Update) bool { return hasLine(u.Chat, "from Cat") })
	if hasLine(u.Chat, "from Ben") || hasLine(u.Chat, "before") {
		t.Fatalf("Ann gets Ben's lines: %+v", u.Chat)
	}
	if !slices.Equal(u.Ignored, []string{"Ben"}) {
		t.Fatalf("ignored = %v", u.Ignored)
	}
	waitFor(t, c, "Ben's line for Cat", func(u lobby.Update) bool { return hasLine(u.Chat, "from Ben") && hasLine(u.Chat, "from Cat") })
	if err := lobby.Run(a, lobby.Unignore{Name: "Zed"}); err == nil || !strings.Contains(err.Error(), "Ben") {
		t.Fatalf("unignore someone not ignored: %v", err)
	}
	if err := lobby.Run(a, lobby.Unignore{Name: "ben"}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, a, "Ben's lines again", func(u lobby.Update) bool { return hasLine(u.Chat, "from Ben") })
	if len(u.Ignored) != 0 {
		t.Fatalf("ignored = %v", u.Ignored)
	}
}

// reports is an in-memory Config.Report.
type reports struct {
	mu   sync.Mutex
	list []lobby.Report
}

func (r *reports) keep(_ context.Context, rep lobby.Report) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, rep)
	return nil
}

func TestAReportNeedsAReasonAndKeepsTheChat(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, false)
	if _, err := l.Join(ben, a.Code()); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.ReportPlayer{Seat: 1, Reason: "rude"}); !errors.Is(err, lobby.ErrNoReports) {
		t.Fatalf("a report without a place to keep it: %v", err)
	}

	var kept reports
	counted := 0
	l = newLobbyWith(t, lobby.Config{Report: kept.keep, Hooks: lobby.Hooks{Reported: func() { counted++ }}})
	a, _ = l.Create(ann, testgame.ID, nil, false)
	b, _ := l.Join(ben, a.Code())
	if err := lobby.Run(b, lobby.Chat{Text: "you are all losers"}); err != nil {
		t.Fatal(err)
	}
	if _, err := lobby.DecodeRequest("report", []byte(`{"seat":1}`)); !errors.Is(err, lobby.ErrMissingField) {
		t.Fatalf("a report with no reason decodes: %v", err)
	}
	for _, bad := range []lobby.ReportPlayer{{Seat: 1, Reason: " \x1b[1m "}, {Seat: 0, Reason: "me"}, {Seat: 4, Reason: "nobody"}} {
		if err := lobby.Run(a, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	if err := lobby.Run(a, lobby.ReportPlayer{Seat: 1, Reason: ""}); !errors.Is(err, lobby.ErrNoReason) {
		t.Fatalf("an empty reason: %v", err)
	}
	if len(kept.list) != 0 {
		t.Fatalf("bad reports were kept: %+v", kept.list)
	}
	if err := lobby.Run(a, lobby.ReportPlayer{Seat: 1, Reason: "insults everyone"}); err != nil {
		t.Fatal(err)
	}
	kept.mu.Lock()
	defer kept.mu.Unlock()
	if len(kept.list) != 1 || counted != 1 {
		t.Fatalf("kept %d, counted %d", len(kept.list), counted)
	}
	r := kept.list[0]
	if r.Table != a.Code() || r.ByID != ann.ID || r.ByName != "Ann" || r.AboutID != ben.ID || r.AboutName != "Ben" || r.Reason != "insults everyone" || r.At.IsZero() {
		t.Fatalf("report = %+v", r)
	}
	if !hasLine(r.Chat, "you are all losers") {
		t.Fatalf("the report's chat: %+v", r.Chat)
	}
}

func TestAMutedPlayerCannotChatOrWriteInGames(t *testing.T) {
	until := time.Date(2026, 12, 1, 18, 30, 0, 0, time.UTC)
	l := newLobbyWith(t, lobby.Config{Muted: func(id string) (string, time.Time, bool) {
		return "spam", until, id == ben.ID
	}})
	a, _ := l.Create(ann, testgame.ID, nil, false)
	b, _ := l.Join(ben, a.Code())
	err := lobby.Run(b, lobby.Chat{Text: "buy my stuff"})
	if !errors.Is(err, lobby.ErrMuted) || !strings.Contains(err.Error(), "spam") || !strings.Contains(err.Error(), "1 Dec 2026 18:30 UTC") {
		t.Fatalf("muted chat: %v", err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(b, lobby.ActOf(map[string]any{"type": "pick", "n": 1, "note": "buy my stuff"})); !errors.Is(err, lobby.ErrMuted) {
		t.Fatalf("muted game text: %v", err)
	}
	if err := lobby.Run(b, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatalf("a muted player's move without text: %v", err)
	}
	if err := lobby.Run(a, lobby.Chat{Text: "Ann here"}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a, "Ann's line", func(u lobby.Update) bool { return hasLine(u.Chat, "Ann here") })
	if hasLine(u.Chat, "buy my stuff") {
		t.Fatalf("a muted line was sent: %+v", u.Chat)
	}
}
