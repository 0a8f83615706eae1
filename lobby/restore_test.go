package lobby_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"parlor/assets"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
	"parlor/store"
)

func newClock() *handClock { return newHandClock(time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)) }

// run is one run of the server: a lobby over a store, stopped by crash (the server
// process ends without closing any table).
type run struct {
	l      *lobby.Lobby
	cancel context.CancelFunc
	done   bool
}

func start(t *testing.T, st store.TableLog, c *handClock, content func([]string) (map[string][]byte, error)) *run {
	t.Helper()
	return startConfig(t, lobby.Config{Log: st, Clock: c, Content: content})
}

// startConfig is start with more of the lobby's configuration (a pack library).
func startConfig(t *testing.T, cfg lobby.Config) *run {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{cancel: cancel}
	// Ticks come often, as the fake clock decides what time they see.
	cfg.IdleClose, cfg.Tick = time.Hour, 5*time.Millisecond
	r.l = lobby.New(ctx, cfg)
	t.Cleanup(r.stop)
	return r
}

// stop ends the run the way a SIGTERM does; what was acknowledged stays in the store.
func (r *run) stop() {
	if r.done {
		return
	}
	r.done = true
	r.cancel()
	_ = r.l.Shutdown(context.Background())
}

// seen follows one member's updates, keeping the newest and, once the member is out,
// why.
type seen struct {
	mu     sync.Mutex
	last   lobby.Update
	n      int
	reason string
	done   chan struct{}
}

func follow(m lobby.Place) *seen {
	s := &seen{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			u, ok, reason := m.Next(context.Background())
			s.mu.Lock()
			if !ok {
				s.reason = reason.Text
				s.mu.Unlock()
				return
			}
			s.last, s.n = u, s.n+1
			s.mu.Unlock()
		}
	}()
	return s
}

func (s *seen) latest() lobby.Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// final waits until the member is out and returns its newest update and the reason.
func (s *seen) final(t *testing.T) (lobby.Update, string) {
	t.Helper()
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("member was never closed")
	}
	return s.last, s.reason
}

// until waits for an update that satisfies cond.
func (s *seen) until(t *testing.T, what string, cond func(lobby.Update) bool) lobby.Update {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		u, n := s.last, s.n
		s.mu.Unlock()
		if n > 0 && cond(u) {
			return u
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("waiting for %s: last update %+v", what, s.latest())
	return lobby.Update{}
}

// viewJSON is a view as JSON, without its deadline when withDeadline is false.
func viewJSON(t *testing.T, v rules.View, withDeadline bool) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if withDeadline {
		return string(raw)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "deadline")
	out, _ := json.Marshal(m)
	return string(out)
}

// tableOf is what must survive of a table's public state (away marks aside, which
// change as players come back).
func tableOf(info lobby.TableInfo) lobby.TableInfo {
	info.Spectators = 0
	info.Seats = append([]lobby.SeatInfo(nil), info.Seats...)
	for i := range info.Seats {
		info.Seats[i].Away = false
	}
	return info
}

// chatUpTo is the chat as it was up to the line numbered last: lines said after the
// restart (the table's notice, "Ann is back") are new.
func chatUpTo(lines []lobby.ChatLine, last int) []lobby.ChatLine {
	var out []lobby.ChatLine
	for _, l := range lines {
		if l.ID <= last {
			out = append(out, l)
		}
	}
	return out
}

func lastChatID(lines []lobby.ChatLine) int {
	if len(lines) == 0 {
		return 0
	}
	return lines[len(lines)-1].ID
}

// timedTable is Ann's table of the test game with a 30 s timer, and Ben at it.
func timedTable(t *testing.T, l *lobby.Lobby) (a, b lobby.Place) {
	t.Helper()
	a, err := l.Create(ann, testgame.ID, rules.Options{"rounds": "3", "timer": "30s"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = l.Join(ben, a.Code()); err != nil {
		t.Fatal(err)
	}
	return a, b
}

func TestRestoreBringsTheTableBackWithDeadlinesMovedByTheDowntime(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, b := timedTable(t, r1.l)
	code := a.Code()
	if err := lobby.Run(a, lobby.AddBot{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(b, lobby.Chat{Text: "hi all"}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	c.Advance(10 * time.Second)
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(2))); err != nil {
		t.Fatal(err)
	}
	spec, err := r1.l.Watch(cat, code)
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]*seen{"ann": follow(a), "ben": follow(b), "spectator": follow(spec)}
	r1.stop()
	last := map[string]lobby.Update{}
	for who, s := range before {
		u, reason := s.final(t)
		if !strings.Contains(reason, "restarting") || !strings.Contains(reason, "will be here") {
			t.Errorf("%s was told %q on shutdown", who, reason)
		}
		last[who] = u
	}
	if last["ann"].View == nil || last["ann"].View.Head().Deadline.IsZero() {
		t.Fatalf("no running timer before the restart: %+v", last["ann"].View)
	}

	const downtime = 5 * time.Minute
	c.Advance(downtime)
	r2 := start(t, st, c, nil)
	n, err := r2.l.Restore(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("Restore = %d, %v; want 1 table", n, err)
	}
	if got := r2.l.SeatedAt(ben.ID); !reflect.DeepEqual(got, []string{code}) {
		t.Errorf("Ben is seated at %v after the restart, want [%s]", got, code)
	}
	a2, err := r2.l.Join(ann, code)
	if err != nil {
		t.Fatal(err)
	}
	after := map[string]*seen{"ann": follow(a2)}
	ua := after["ann"].until(t, "Ann's view", func(u lobby.Update) bool { return u.View != nil })
	if !ua.Table.Seats[1].Away || ua.Table.Seats[0].Away {
		t.Errorf("after the restart Ann is here and Ben away, got %+v", ua.Table.Seats)
	}
	b2, err := r2.l.Join(ben, code)
	if err != nil {
		t.Fatal(err)
	}
	after["ben"] = follow(b2)
	s2, err := r2.l.Watch(cat, code)
	if err != nil {
		t.Fatal(err)
	}
	after["spectator"] = follow(s2)
	for who, s := range after {
		u := s.until(t, who+"'s view", func(u lobby.Update) bool { return u.View != nil && !u.Table.Seats[1].Away })
		want := last[who]
		if got, w := viewJSON(t, u.View, false), viewJSON(t, want.View, false); got != w {
			t.Errorf("%s's view after the restart:\n got %s\nwant %s", who, got, w)
		}
		if gotD, wantD := u.View.Head().Deadline, want.View.Head().Deadline.Add(downtime); !gotD.Equal(wantD) {
			t.Errorf("%s's deadline = %v, want %v (moved by the downtime)", who, gotD, wantD)
		}
		if got, w := tableOf(u.Table), tableOf(want.Table); !reflect.DeepEqual(got, w) {
			t.Errorf("%s's table after the restart:\n got %+v\nwant %+v", who, got, w)
		}
		if got, w := chatUpTo(u.Chat, lastChatID(want.Chat)), want.Chat; !reflect.DeepEqual(got, w) {
			t.Errorf("%s's chat after the restart:\n got %+v\nwant %+v", who, got, w)
		}
		if u.Host != want.Host {
			t.Errorf("%s host = %v, want %v", who, u.Host, want.Host)
		}
	}
	// The game goes on: Ben picks, the bot has picked, the round ends.
	if err := lobby.Run(b2, lobby.ActOf(testgame.Pick(3))); err != nil {
		t.Fatal(err)
	}
	after["ann"].until(t, "round 2", func(u lobby.Update) bool { return u.View != nil && u.View.Head().Round == 2 })
}

func TestClosedTablesLeaveTheStore(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, _ := r1.l.Create(ann, testgame.ID, nil, false)
	b, _ := r1.l.Create(ben, testgame.ID, nil, false)
	if codes, _ := st.OpenTables(context.Background()); len(codes) != 2 {
		t.Fatalf("open tables in the store = %v, want 2", codes)
	}
	if err := lobby.Run(a, lobby.CloseTable{}); err != nil {
		t.Fatal(err)
	}
	lobby.Run(b, lobby.Leave{}) // everyone left: the table closes
	r1.stop()
	if codes, _ := st.OpenTables(context.Background()); len(codes) != 0 {
		t.Fatalf("closed tables are still stored: %v", codes)
	}
	r2 := start(t, st, c, nil)
	if n, err := r2.l.Restore(context.Background()); n != 0 || err != nil {
		t.Fatalf("Restore = %d, %v; want nothing", n, err)
	}
}

// slowLog delays every write, so an answer that did not wait for it is caught.
type slowLog struct {
	store.TableLog
	mu      sync.Mutex
	written []store.TableEntry
}

func (s *slowLog) AppendTables(ctx context.Context, es []store.TableEntry) error {
	time.Sleep(20 * time.Millisecond)
	if err := s.TableLog.AppendTables(ctx, es); err != nil {
		return err
	}
	s.mu.Lock()
	s.written = append(s.written, es...)
	s.mu.Unlock()
	return nil
}

func (s *slowLog) acts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, e := range s.written {
		if strings.Contains(string(e.Data), `"kind":"act"`) {
			n++
		}
	}
	return n
}

func TestAnActionIsAcknowledgedOnlyOnceItIsStored(t *testing.T) {
	st := &slowLog{TableLog: store.NewMemory()}
	r := start(t, st, newClock(), nil)
	a, _ := r.l.Create(ann, testgame.ID, nil, false)
	if _, err := r.l.Join(ben, a.Code()); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	seenA := follow(a)
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	if got := st.acts(); got != 1 {
		t.Fatalf("after an acknowledged action the store holds %d actions", got)
	}
	// Every update a member was shown is stored too.
	u := seenA.until(t, "Ann's pick", func(u lobby.Update) bool { return u.View != nil && u.View.(testgame.View).Mine == 1 })
	if u.View == nil || st.acts() < 1 {
		t.Fatal("a view was shown before its action was stored")
	}
}

// brokenLog fails every write.
type brokenLog struct{ store.TableLog }

func (brokenLog) AppendTables(context.Context, []store.TableEntry) error {
	return errors.New("disk full")
}

func TestATableThatCannotBeSavedClosesWithAMessage(t *testing.T) {
	r := start(t, brokenLog{store.NewMemory()}, newClock(), nil)
	_, err := r.l.Create(ann, testgame.ID, nil, false)
	if err == nil || !strings.Contains(err.Error(), "could not save") {
		t.Fatalf("Create on a broken store: %v", err)
	}
}

func TestAnUnreplayableTableClosesWithAMessageAndTheOthersComeBack(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	damaged, _ := r1.l.Create(ann, testgame.ID, nil, false)
	future, _ := r1.l.Create(ben, testgame.ID, nil, false)
	if _, err := r1.l.Join(ann, future.Code()); err != nil {
		t.Fatal(err)
	}
	fine, _ := r1.l.Create(cat, testgame.ID, nil, false)
	r1.stop()
	ctx := context.Background()
	tamper := func(code, data string) {
		t.Helper()
		es, _ := st.ReadTable(ctx, code)
		e := store.TableEntry{Table: code, Seq: es[len(es)-1].Seq + 1, At: c.Now(), Data: []byte(data)}
		if err := st.AppendTables(ctx, []store.TableEntry{e}); err != nil {
			t.Fatal(err)
		}
	}
	tamper(damaged.Code(), `{"kind":"act","seat":`)
	tamper(future.Code(), `{"kind":"game","at":"2026-11-24T20:00:00Z","game":{"version":99,"seed":1,"names":["Ben","Ann"]}}`)

	r2 := start(t, st, c, nil)
	n, err := r2.l.Restore(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Restore = %d, %v; want the one good table", n, err)
	}
	if _, err := r2.l.Join(cat, fine.Code()); err != nil {
		t.Errorf("the good table did not come back: %v", err)
	}
	for code, why := range map[string]string{damaged.Code(): "damaged", future.Code(): "another version of Pick"} {
		_, err := r2.l.Join(ann, code)
		if err == nil || !strings.Contains(err.Error(), "could not be brought back") || !strings.Contains(err.Error(), why) {
			t.Errorf("joining %s: %v; want a message saying %q", code, err, why)
		}
	}
	if got := r2.l.Lost(ann.ID); len(got) != 2 {
		t.Errorf("Ann is told about %d lost tables, want 2: %q", len(got), got)
	}
	if got := r2.l.Lost(ben.ID); len(got) != 1 || !strings.Contains(got[0], future.Code()) {
		t.Errorf("Ben is told %q, want his table %s", got, future.Code())
	}
	if codes, _ := st.OpenTables(ctx); !reflect.DeepEqual(codes, []string{fine.Code()}) {
		t.Errorf("stored tables = %v, want only %s", codes, fine.Code())
	}
}

// kinds lists the record kinds of a table's stored log, in order.
func kinds(t *testing.T, st store.TableLog, code string) []string {
	t.Helper()
	es, err := st.ReadTable(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		var r struct{ Kind string }
		if err := json.Unmarshal(e.Data, &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r.Kind)
	}
	return out
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

func TestTheLogStaysBoundedByTheOpenTables(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r := start(t, st, c, nil)
	a, _ := r.l.Create(ann, testgame.ID, rules.Options{"rounds": "1"}, false)
	b, _ := r.l.Join(ben, a.Code())
	// A waiting table that chats a lot is compacted into snapshots.
	for i := range 300 {
		c.Advance(3 * time.Second) // the chat rate limit refills
		if err := lobby.Run(a, lobby.Chat{Text: fmt.Sprintf("line %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if got := kinds(t, st, a.Code()); len(got) > 250 || got[0] != "snapshot" {
		t.Fatalf("a chatty waiting table keeps %d entries (first %q)", len(got), got[0])
	}
	// Each game starts the log over: the stored log holds one game.
	for range 2 {
		if err := lobby.Run(a, lobby.Start{}); err != nil {
			t.Fatal(err)
		}
		if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
			t.Fatal(err)
		}
		if err := lobby.Run(b, lobby.ActOf(testgame.Pick(2))); err != nil {
			t.Fatal(err)
		}
	}
	got := kinds(t, st, a.Code())
	if got[0] != "snapshot" || count(got, "game") != 1 || count(got, "act") != 2 || count(got, "chat") > 10 {
		t.Errorf("after two games the log is %v; want a snapshot, one game, its two actions", got)
	}
}

// noWrites is a store whose disk stopped taking writes: every table-log append fails,
// while noting the server alive still works. A run on it is as good as a run that
// crashed before its first write.
type noWrites struct{ store.TableLog }

func (noWrites) AppendTables(context.Context, []store.TableEntry) error {
	return errors.New("disk I/O error")
}

// A run that restored a table but crashed before writing its "resumed" entry must not
// leave a note that it was alive: the next restart would measure the downtime from that
// note and forget the first outage, so a game's deadlines would move by the second
// downtime only.
func TestASecondCrashBeforeTheResumedEntryKeepsTheFirstDowntime(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, _ := timedTable(t, r1.l)
	code := a.Code()
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	s := follow(a)
	r1.stop()
	u, _ := s.final(t)
	if u.View == nil || u.View.Head().Deadline.IsZero() {
		t.Fatalf("no running timer before the restart: %+v", u.View)
	}
	deadline := u.View.Head().Deadline

	c.Advance(5 * time.Minute)
	r2 := start(t, noWrites{st}, c, nil)
	if _, err := r2.l.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Minute)
	r2.stop()

	u3 := restoredView(t, st, c, code, ann)
	if got, want := u3.View.Head().Deadline, deadline.Add(6*time.Minute); !got.Equal(want) {
		t.Errorf("deadline after two restarts = %v, want %v (moved by both outages, 6 min)", got, want)
	}
}

// A server that comes back with its clock behind the table's log (started again at a
// lower --game-speed, or after the system clock was set back) brings the timers back
// with the time they had left, not with the gap between the two clocks added.
func TestRestoreWithTheClockSetBackKeepsTheTimeLeft(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, _ := timedTable(t, r1.l)
	code := a.Code()
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	c.Advance(10 * time.Second)
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(2))); err != nil {
		t.Fatal(err)
	}
	s := follow(a)
	r1.stop()
	u, _ := s.final(t)
	left := u.View.Head().Deadline.Sub(c.Now())
	if left <= 0 || left > 30*time.Second {
		t.Fatalf("%v left before the restart", left)
	}

	c.Advance(-24 * time.Hour)
	if got := restoredView(t, st, c, code, ann).View.Head().Deadline.Sub(c.Now()); got != left {
		t.Fatalf("%v left after the restart, want %v as before it", got, left)
	}
}

// restoredView starts a server on st, restores its one table, code, and returns p's
// first view of it.
func restoredView(t *testing.T, st store.TableLog, c *handClock, code string, p lobby.Player) lobby.Update {
	t.Helper()
	r := start(t, st, c, nil)
	if n, err := r.l.Restore(context.Background()); err != nil || n != 1 {
		t.Fatalf("Restore = %d, %v; want 1 table", n, err)
	}
	a, err := r.l.Join(p, code)
	if err != nil {
		t.Fatal(err)
	}
	return follow(a).until(t, p.Name+"'s view", func(u lobby.Update) bool { return u.View != nil })
}

// A move a bot made for an away player is the bot's after a restart too: the log keeps
// who made it, and the player's own line says so.
func TestAStandInsMoveStaysTheBotsAfterARestart(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, err := r1.l.Create(ann, testgame.ID, rules.Options{"rounds": "3", lobby.OptAway: lobby.AwayHost}, false)
	if err != nil {
		t.Fatal(err)
	}
	code := a.Code()
	b, err := r1.l.Join(ben, code)
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	lobby.Run(b, lobby.Disconnect{})
	ann1 := follow(a)
	ann1.until(t, "Ben away", func(u lobby.Update) bool { return u.Table.Seats[1].Away })
	if err := lobby.Run(a.(*lobby.Member), lobby.StandIn{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	ann1.until(t, "the bot's pick for Ben", func(u lobby.Update) bool { return u.View != nil && u.View.(testgame.View).Picked[1] })
	r1.stop()

	u := restoredView(t, st, c, code, ben)
	if said := u.View.(testgame.View).Said; !strings.HasPrefix(said, "A bot for you picked ") {
		t.Errorf("Ben's line about the stand-in's pick after the restart: %q", said)
	}
}

// After a restart everyone comes back in their own time: the host role waits a minute
// for its host before it passes to whoever is back, so that the first player back does
// not become the host only to hand it back a moment later.
func TestAfterARestartTheHostRoleWaitsForTheHost(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, _ := timedTable(t, r1.l)
	code := a.Code()
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	r1.stop()

	// restartWithBen restores the table on a new run with Ben back at it, first.
	restartWithBen := func() (*run, *seen) {
		r := start(t, st, c, nil)
		if n, err := r.l.Restore(context.Background()); err != nil || n != 1 {
			t.Fatalf("Restore = %d, %v", n, err)
		}
		b, err := r.l.Join(ben, code)
		if err != nil {
			t.Fatal(err)
		}
		s := follow(b)
		s.until(t, "Ben back", func(u lobby.Update) bool { return !u.Table.Seats[1].Away })
		return r, s
	}
	r2, ben2 := restartWithBen()
	if u := ben2.latest(); u.Host || chatSays(u, "Ben is now the host") {
		t.Fatalf("Ben, back first, took the host role at once: %+v", u.Chat)
	}
	a2, err := r2.l.Join(ann, code)
	if err != nil {
		t.Fatal(err)
	}
	u := follow(a2).until(t, "Ann back", func(u lobby.Update) bool { return !u.Table.Seats[0].Away })
	if !u.Host || chatSays(u, "is now the host") || chatSays(u, "the host again") {
		t.Fatalf("Ann back: host %v, chat %+v", u.Host, u.Chat)
	}

	// When the host does not come back within the minute, the role passes as before.
	r2.stop()
	_, ben3 := restartWithBen()
	c.Advance(61 * time.Second)
	ben3.until(t, "Ben the host", func(u lobby.Update) bool { return u.Host && chatSays(u, "Ben is now the host") })
}

// Seats that moved up after a game keep their seats in it across a restart: a player
// back afterwards sees the finished game from their own seat in it.
func TestAfterARestartAFinishedGameKeepsItsSeats(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, b := startPickGame(t, r1.l, lobby.AwayBot, "1")
	code := a.Code()
	for _, m := range []lobby.Place{a, b} {
		if err := lobby.Run(m, lobby.ActOf(testgame.Pick(2))); err != nil {
			t.Fatal(err)
		}
	}
	ben1 := follow(b)
	ben1.until(t, "finished", func(u lobby.Update) bool { return u.Table.State == lobby.StateFinished })
	lobby.Run(a, lobby.Leave{})
	ben1.until(t, "Ann gone", func(u lobby.Update) bool { return len(u.Table.Seats) == 1 })
	r1.stop()

	u := restoredView(t, st, c, code, ben)
	if u.Seat != 0 || u.View.Head().Seat != 1 || !slices.Equal(u.Table.GameSeats, []int{1}) {
		t.Errorf("after the restart Ben is at seat %d, in the game at %d (GameSeats %v); want 0 and 1", u.Seat, u.View.Head().Seat, u.Table.GameSeats)
	}
}

// pickyLog refuses, as invalid, every batch with an entry of the table bad; it holds
// each write until release has a value, so that the writes of many tables gather.
type pickyLog struct {
	store.TableLog
	mu      sync.Mutex
	bad     string
	release chan struct{}
}

func (p *pickyLog) AppendTables(ctx context.Context, es []store.TableEntry) error {
	p.mu.Lock()
	bad, release := p.bad, p.release
	p.mu.Unlock()
	if release != nil {
		<-release
	}
	for _, e := range es {
		if e.Table == bad {
			return fmt.Errorf("%w: table %s: too large", store.ErrInvalid, bad)
		}
	}
	return p.TableLog.AppendTables(ctx, es)
}

// One table's entry that no store takes closes that table only, not every table whose
// entries were written with it (one batch for all).
func TestAnEntryTheStoreRefusesClosesOnlyItsTable(t *testing.T) {
	st := &pickyLog{TableLog: store.NewMemory()}
	r := start(t, st, newClock(), nil)
	a, _ := r.l.Create(ann, testgame.ID, nil, false)
	b, _ := r.l.Create(ben, testgame.ID, nil, false)
	c, _ := r.l.Create(cat, testgame.ID, nil, false)
	release := make(chan struct{})
	st.mu.Lock()
	st.bad, st.release = a.Code(), release
	st.mu.Unlock()
	errs := make(chan error, 3)
	go func() { errs <- lobby.Run(c, lobby.Chat{Text: "first"}) }()
	time.Sleep(50 * time.Millisecond) // Cat's chat is on its way to the store, held
	go func() { errs <- lobby.Run(a, lobby.Chat{Text: "one"}) }()
	go func() { errs <- lobby.Run(b, lobby.Chat{Text: "two"}) }()
	time.Sleep(50 * time.Millisecond) // Ann's and Ben's wait for the next write, together
	close(release)
	failed := 0
	var got []error
	for range 3 {
		err := <-errs
		if got = append(got, err); err != nil {
			failed++
		}
	}
	if failed != 1 {
		t.Fatalf("chats: %v; want one refused (Ann's table) and two stored", got)
	}
	follow(b).until(t, "Ben's chat", func(u lobby.Update) bool { return chatSays(u, "two") })
}

// unreadableLog cannot read one table's log.
type unreadableLog struct {
	store.TableLog
	code string
}

func (u unreadableLog) ReadTable(ctx context.Context, code string) ([]store.TableEntry, error) {
	if code == u.code {
		return nil, errors.New("read error")
	}
	return u.TableLog.ReadTable(ctx, code)
}

// A table whose log cannot be read this time does not keep the server from starting,
// nor the other tables from coming back: it stays in the store for the next start.
func TestATableThatCannotBeReadIsLeftForTheNextStart(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, _ := r1.l.Create(ann, testgame.ID, nil, false)
	b, _ := r1.l.Create(ben, testgame.ID, nil, false)
	r1.stop()

	r2 := start(t, unreadableLog{st, a.Code()}, c, nil)
	if n, err := r2.l.Restore(context.Background()); err != nil || n != 1 {
		t.Fatalf("Restore = %d, %v; want Ben's table back and no error", n, err)
	}
	if _, err := r2.l.Join(ben, b.Code()); err != nil {
		t.Fatalf("Ben's table: %v", err)
	}
	if codes, _ := st.OpenTables(context.Background()); !slices.Contains(codes, a.Code()) {
		t.Errorf("Ann's table left the store: %v", codes)
	}
	r2.stop()

	r3 := start(t, st, c, nil)
	if n, err := r3.l.Restore(context.Background()); err != nil || n != 2 {
		t.Fatalf("the next start: Restore = %d, %v; want both tables", n, err)
	}
}

// A game's log is bounded: a table whose log reaches the most entries parlor keeps
// closes, says why, and leaves the store (a restart's time stays bounded too).
func TestAGameLogIsBounded(t *testing.T) {
	defer lobby.SetMaxLogEntries(4)()
	st := store.NewMemory()
	r := start(t, st, newClock(), nil)
	a, _ := r.l.Create(ann, testgame.ID, rules.Options{"rounds": "3"}, false)
	b, _ := r.l.Join(ben, a.Code())
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	seenB := follow(b)
	for range 3 {
		if lobby.Run(a, lobby.ActOf(testgame.Pick(1))) != nil || lobby.Run(b, lobby.ActOf(testgame.Pick(2))) != nil {
			break
		}
	}
	_, why := seenB.final(t)
	if !strings.Contains(why, "its game's log reached 4 moves and messages") {
		t.Fatalf("Ben was told %q", why)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		codes, _ := st.OpenTables(context.Background())
		if !slices.Contains(codes, a.Code()) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the closed table's log is still in the store")
		}
	}
}

// A table switched to another game after a game comes back as that game, waiting.
func TestAfterARestartASwitchedTableIsItsNewGame(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := startConfig(t, lobby.Config{Log: st, Clock: c, Content: assets.Load})
	a, err := r1.l.Create(ann, testgame.ID, rules.Options{"rounds": "1"}, false)
	if err != nil {
		t.Fatal(err)
	}
	code := a.Code()
	if err := lobby.Run(a, lobby.AddBot{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	ann1 := follow(a)
	ann1.until(t, "finished", func(u lobby.Update) bool { return u.Table.State == lobby.StateFinished })
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptGame: "Top Five"}}); err != nil {
		t.Fatal(err)
	}
	u := ann1.until(t, "Top Five", func(u lobby.Update) bool { return u.Table.Game == "topfive" })
	if u.Table.State != lobby.StateWaiting || u.View != nil || u.Table.Result == nil || !strings.HasPrefix(u.Table.Result.Summary, "Pick: ") {
		t.Fatalf("after the switch: state %s, view %v, last result %+v (named by its game)", u.Table.State, u.View != nil, u.Table.Result)
	}
	r1.stop()

	r2 := startConfig(t, lobby.Config{Log: st, Clock: c, Content: assets.Load})
	if n, err := r2.l.Restore(context.Background()); err != nil || n != 1 {
		t.Fatalf("Restore = %d, %v", n, err)
	}
	a2, err := r2.l.Join(ann, code)
	if err != nil {
		t.Fatal(err)
	}
	u = follow(a2).until(t, "the table", func(u lobby.Update) bool { return u.Table.Code == code })
	if u.Table.Game != "topfive" || u.Table.State != lobby.StateWaiting || u.Table.Result == nil || !strings.HasPrefix(u.Table.Result.Summary, "Pick: ") {
		t.Errorf("after the restart: %s, %s, last result %+v", u.Table.Game, u.Table.State, u.Table.Result)
	}
}

// A node that takes over the table of a node that died moves its timers by the time
// since that node was last known alive (its lease's last renewal), not since the table's
// last entry: an idle table wrote that long before its node died.
func TestATakenOverTableCountsItsDowntimeFromItsNodesLastSignOfLife(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, b := timedTable(t, r1.l)
	code := a.Code()
	if err := lobby.Run(a, lobby.AddBot{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	seenA := follow(a)
	_ = follow(b)
	u := seenA.until(t, "a running timer", func(u lobby.Update) bool { return u.View != nil && !u.View.Head().Deadline.IsZero() })
	before := u.View.Head().Deadline
	if err := lobby.CatchUp(a); err != nil {
		t.Fatal(err)
	}
	r1.stop()

	// The table's node lived on for 10 s after its last entry, then died; the table is
	// taken over a minute later, with 20 s of its 30 s timer left.
	const idle, down = 10 * time.Second, time.Minute
	c.Advance(idle)
	alive := c.Now()
	c.Advance(down)
	r2 := start(t, st, c, nil)
	if err := r2.l.RestoreTable(context.Background(), code, alive); err != nil {
		t.Fatal(err)
	}
	a2, err := r2.l.Join(ann, code)
	if err != nil {
		t.Fatal(err)
	}
	u = follow(a2).until(t, "Ann's view", func(u lobby.Update) bool { return u.View != nil })
	if got, want := u.View.Head().Deadline, before.Add(down); !got.Equal(want) {
		t.Errorf("deadline after the takeover = %v, want %v: moved by %v, not by the %v since the node was last alive", got, want, got.Sub(before), down)
	}
}

// A table numbers its games from 1, and the number goes on across a restart: a client
// that was away tells a new game from the one it left even when both are in round 1.
func TestATablesGameNumberGoesOnAcrossARestart(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, b := startPickGame(t, r1.l, lobby.AwayBot, "1")
	code := a.Code()
	ben1 := follow(b)
	ben1.until(t, "game 1", func(u lobby.Update) bool { return u.Table.GameNo == 1 && u.View != nil })
	for _, m := range []lobby.Place{a, b} {
		if err := lobby.Run(m, lobby.ActOf(testgame.Pick(2))); err != nil {
			t.Fatal(err)
		}
	}
	ben1.until(t, "finished", func(u lobby.Update) bool { return u.Table.State == lobby.StateFinished })
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	ben1.until(t, "game 2", func(u lobby.Update) bool {
		return u.Table.GameNo == 2 && u.Table.State == lobby.StatePlaying
	})
	r1.stop()

	if u := restoredView(t, st, c, code, ben); u.Table.GameNo != 2 {
		t.Fatalf("after the restart the table says it plays game %d; want 2", u.Table.GameNo)
	}
}

// takenLog refuses the next write of table code as another writer's (a cluster node
// took the table over), saying the write's first entry may be stored if unsure.
type takenLog struct {
	store.TableLog
	mu     sync.Mutex
	code   string
	unsure bool
}

func (l *takenLog) AppendTables(ctx context.Context, es []store.TableEntry) error {
	l.mu.Lock()
	code, unsure := l.code, l.unsure
	l.code = ""
	l.mu.Unlock()
	for _, e := range es {
		if e.Table == code {
			err := &store.ConflictError{Stored: map[string]int64{code: 0}}
			if unsure {
				err.Unsure = map[string]int64{code: e.Seq}
			}
			return err
		}
	}
	return l.TableLog.AppendTables(ctx, es)
}

// A call whose entry the store refused as another writer's was not applied: it is
// answered "moving" (try again where the table went). One whose entry may be stored
// after all (sent once without an answer, then refused under another writer's
// snapshot) is answered "unreachable": whether it was done shows at the table. Found by
// the cluster soak: a submission answered "moving" was in the table's log.
func TestARefusedCallIsNotAppliedUnlessItsEntryMayBeStored(t *testing.T) {
	for _, unsure := range []bool{false, true} {
		st := &takenLog{TableLog: store.NewMemory()}
		r := start(t, st, newClock(), nil)
		a, err := r.l.Create(ann, testgame.ID, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		st.mu.Lock()
		st.code, st.unsure = a.Code(), unsure
		st.mu.Unlock()
		err = lobby.Run(a, lobby.Chat{Text: "hello"})
		want := lobby.ErrMoving
		if unsure {
			want = lobby.ErrUnreachable
		}
		if !errors.Is(err, want) {
			t.Errorf("unsure %v: the chat's answer is %v; want %v", unsure, err, want)
		}
		r.stop()
	}
}

// A cluster node may claim a table while it shuts down: the restore is refused (the
// node releases its claim, and another takes the table), for Shutdown waits only for
// the tables added before it began and none may start after.
func TestARestoreOnceTheLobbyShutsDownIsRefused(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, _ := timedTable(t, r1.l)
	code := a.Code()
	if err := lobby.CatchUp(a); err != nil {
		t.Fatal(err)
	}
	r1.stop()

	r2 := start(t, st, c, nil)
	r2.stop()
	err := r2.l.RestoreTable(context.Background(), code, time.Time{})
	if err == nil || errors.Is(err, lobby.ErrLost) || r2.l.Runs(code) {
		t.Fatalf("restore after Shutdown: %v, running %v; want it refused (not lost) and the table not running", err, r2.l.Runs(code))
	}
	// The log is where it was: a lobby that runs takes the table.
	r3 := start(t, st, c, nil)
	if err := r3.l.RestoreTable(context.Background(), code, time.Time{}); err != nil || !r3.l.Runs(code) {
		t.Fatalf("restore on a running lobby: %v, running %v", err, r3.l.Runs(code))
	}
}
