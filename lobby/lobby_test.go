package lobby_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"parlor/internal/testkit/testclock"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var t0 = time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)

func newLobby(t *testing.T) *lobby.Lobby { return newLobbyWith(t, lobby.Config{}) }

func newLobbyWith(t *testing.T, cfg lobby.Config) *lobby.Lobby {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, cfg)
	t.Cleanup(func() {
		cancel()
		if err := l.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return l
}

// waitFor reads updates until cond holds, failing after a while.
func waitFor(t *testing.T, m lobby.Place, what string, cond func(lobby.Update) bool) lobby.Update {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		u, ok, reason := m.Next(ctx)
		if !ok {
			t.Fatalf("waiting for %s: member closed: %s", what, reason)
		}
		if cond(u) {
			return u
		}
	}
}

var (
	ann = lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	ben = lobby.Player{ID: "SHA256:ben", Name: "Ben"}
	cat = lobby.Player{ID: "SHA256:cat", Name: "Cat"}
)

func TestCreateJoinChatAndPlay(t *testing.T) {
	l := newLobby(t)
	a, err := l.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Join(ben, strings.ToLower(a.Code()))
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(b, lobby.Chat{Text: "hello \x1b[31mthere\x1b[0m"}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a, "chat", func(u lobby.Update) bool { return len(u.Chat) > 0 && u.Chat[len(u.Chat)-1].Text == "hello there" })
	if len(u.Table.Seats) != 2 || !u.Host || u.Table.Seats[1].Name != "Ben" {
		t.Fatalf("table = %+v host=%v", u.Table, u.Host)
	}
	if err := lobby.Run(b, lobby.Start{}); !errors.Is(err, lobby.ErrNotHost) {
		t.Fatalf("non-host start: %v", err)
	}
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); !errors.Is(err, lobby.ErrNoGame) {
		t.Fatalf("act before start: %v", err)
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{"rounds": "1"}}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{"rounds": "9"}}); !errors.Is(err, rules.ErrBadOption) {
		t.Fatalf("bad option: %v", err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Join(cat, a.Code()); !errors.Is(err, lobby.ErrStarted) {
		t.Fatalf("join started: %v", err)
	}
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(2))); !errors.Is(err, testgame.ErrPicked) {
		t.Fatalf("second pick: %v", err)
	}
	if err := lobby.Run(a, lobby.ActOf(json.RawMessage(`{"type":`))); !errors.Is(err, rules.ErrBadAction) {
		t.Fatalf("malformed: %v", err)
	}
	// Ben must not see Ann's secret before the reveal.
	u = waitFor(t, b, "Ann picked", func(u lobby.Update) bool { return u.View != nil && u.View.(testgame.View).Picked[0] })
	if raw, _ := json.Marshal(u.View); strings.Contains(string(raw), testgame.Secret) {
		t.Fatalf("Ben sees Ann's secret: %s", raw)
	}
	if err := lobby.Run(b, lobby.ActOf(testgame.Pick(2))); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, a, "game over", func(u lobby.Update) bool { return u.Table.State == lobby.StateFinished })
	if u.Table.Result == nil || len(u.Table.Result.Winners) != 2 {
		t.Fatalf("result = %+v", u.Table.Result)
	}
}

func TestBotsPlayAndKickReplacesWithBot(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, rules.Options{"rounds": "3"}, true)
	b, _ := l.Join(ben, a.Code())
	if err := lobby.Run(a, lobby.AddBot{}); err != nil {
		t.Fatal(err)
	}
	if len(l.Tables(ann)) != 0 {
		t.Fatal("a private table is listed")
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Kick{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	if _, ok, reason := b.Next(context.Background()); ok {
		// drain until closed
		for ok {
			_, ok, reason = b.Next(context.Background())
		}
		if reason.Why != lobby.WhyRemoved || !strings.Contains(reason.Text, "removed") {
			t.Fatalf("kicked reason %q", reason)
		}
	}
	for i := 0; i < 3; i++ {
		waitFor(t, a, "my turn", func(u lobby.Update) bool {
			return u.Table.State == lobby.StatePlaying && u.View.(testgame.View).Mine == 0
		})
		if err := lobby.Run(a, lobby.ActOf(testgame.Pick(3))); err != nil {
			t.Fatal(err)
		}
	}
	u := waitFor(t, a, "finished", func(u lobby.Update) bool { return u.Table.State == lobby.StateFinished })
	if !u.Table.Seats[1].Bot {
		t.Fatalf("seat 1 should be a bot: %+v", u.Table.Seats)
	}
}

func TestReconnectTakesSeatBack(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, false)
	b, _ := l.Join(ben, a.Code())
	_ = lobby.Run(a, lobby.Start{})
	b2, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	for {
		_, ok, reason := b.Next(context.Background())
		if !ok {
			if reason.Why != lobby.WhyReplaced || !strings.Contains(reason.Text, "connected again") {
				t.Fatalf("reason %q", reason)
			}
			break
		}
	}
	lobby.Run(b2, lobby.Disconnect{})
	waitFor(t, a, "Ben away", func(u lobby.Update) bool { return u.Table.Seats[1].Away })
	b3, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, b3, "seat", func(u lobby.Update) bool { return u.Seat == 1 })
	if u.Table.Seats[1].Away {
		t.Fatal("still away")
	}
}

func TestErrors(t *testing.T) {
	l := newLobby(t)
	if _, err := l.Join(ann, "ZZZZ"); !errors.Is(err, lobby.ErrNoTable) {
		t.Fatalf("unknown code: %v", err)
	}
	if _, err := l.Join(ann, "12\x1b"); err == nil || strings.Contains(err.Error(), "\x1b") {
		t.Fatalf("bad code: %v", err)
	}
	if _, err := l.Create(ann, "nope", nil, false); !errors.Is(err, lobby.ErrUnknownGame) {
		t.Fatalf("unknown game: %v", err)
	}
	a, _ := l.Create(ann, testgame.ID, nil, false)
	for _, p := range []lobby.Player{ben, cat, {ID: "d", Name: "D"}} {
		if _, err := l.Join(p, a.Code()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Join(lobby.Player{ID: "e", Name: "E"}, a.Code()); !errors.Is(err, lobby.ErrFull) {
		t.Fatalf("full: %v", err)
	}
	if err := lobby.Run(a, lobby.Chat{Text: "\x1b[2J\x07"}); !errors.Is(err, lobby.ErrEmptyChat) {
		t.Fatalf("empty chat: %v", err)
	}
	var slowed bool
	for i := 0; i < 20; i++ {
		if err := lobby.Run(a, lobby.Chat{Text: "spam"}); errors.Is(err, lobby.ErrSlowDown) {
			slowed = true
			break
		}
	}
	if !slowed {
		t.Fatal("chat flood was not limited")
	}
	w, err := l.Watch(lobby.Player{ID: "f", Name: "Fay"}, a.Code()) // a seated player would take their seat back
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(w, lobby.ActOf(testgame.Pick(1))); !errors.Is(err, lobby.ErrSpectator) {
		t.Fatalf("spectator act: %v", err)
	}
	if err := lobby.Run(a, lobby.CloseTable{}); err != nil {
		t.Fatal(err)
	}
	for {
		_, ok, reason := w.Next(context.Background())
		if !ok {
			if reason.Why != lobby.WhyClosed || !strings.Contains(reason.Text, "host closed") {
				t.Fatalf("reason %q", reason)
			}
			break
		}
	}
	if _, err := l.Join(ben, a.Code()); !errors.Is(err, lobby.ErrNoTable) {
		t.Fatalf("closed table: %v", err)
	}
}

func TestIdleTableCloses(t *testing.T) {
	clock := testclock.New(t0)
	l := newLobbyWith(t, lobby.Config{Clock: clock, IdleClose: time.Minute})
	a, _ := l.Create(ann, testgame.ID, nil, false)
	code := a.Code()
	_ = lobby.Run(a, lobby.Start{})
	lobby.Run(a, lobby.Disconnect{})
	clock.Advance(time.Minute) // the first tick with nobody here starts the idle time
	if len(l.Tables(ann)) != 1 {
		t.Fatal("the table closed before it was idle for IdleClose")
	}
	clock.Advance(time.Minute)
	deadline := time.Now().Add(5 * time.Second) // the actor closes the table after its tick
	for len(l.Tables(ann)) > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if _, err := l.Join(ann, code); !errors.Is(err, lobby.ErrNoTable) {
		t.Fatalf("idle table still open: %v", err)
	}
}

// TestTablesLiveByTheLobbyClock: deadlines are set and run out on the lobby's clock, and
// tables tick as often as Config.Tick says.
func TestTablesLiveByTheLobbyClock(t *testing.T) {
	clock := testclock.New(t0)
	l := newLobbyWith(t, lobby.Config{Clock: clock, Tick: time.Minute})
	a, _ := l.Create(ann, testgame.ID, rules.Options{"timer": "30s"}, false)
	b, _ := l.Join(ben, a.Code())
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, b, "round 1", func(u lobby.Update) bool { return u.View != nil })
	if h := u.View.Head(); h.Round != 1 || !h.Deadline.Equal(t0.Add(30*time.Second)) {
		t.Fatalf("round %d, deadline %v; want round 1 until %v", h.Round, h.Deadline, t0.Add(30*time.Second))
	}
	// Past the deadline but before the next tick: the round goes on.
	clock.Advance(45 * time.Second)
	if err := lobby.Run(a, lobby.Chat{Text: "still here"}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, b, "the chat line", func(u lobby.Update) bool { return u.Chat[len(u.Chat)-1].Text == "still here" })
	if h := u.View.Head(); h.Round != 1 {
		t.Fatalf("round %d before the table ticked", h.Round)
	}
	clock.Advance(15 * time.Second) // the tick at one minute ends the round
	u = waitFor(t, b, "round 2", func(u lobby.Update) bool { return u.View.Head().Round == 2 })
	if h := u.View.Head(); !h.Deadline.Equal(t0.Add(90 * time.Second)) {
		t.Fatalf("round 2 deadline %v; want %v", h.Deadline, t0.Add(90*time.Second))
	}
}

func TestAdminSeesPrivateTablesAndMayUseHostControls(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, true)
	admin := lobby.Player{ID: "SHA256:admin", Name: "Root", Admin: true}
	if len(l.Tables(ann)) != 0 || len(l.Tables(admin)) != 1 {
		t.Fatalf("private table listing: player %d, admin %d", len(l.Tables(ann)), len(l.Tables(admin)))
	}
	w, err := l.Watch(admin, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if u := waitFor(t, w, "host controls", func(u lobby.Update) bool { return u.Host }); u.Seat != -1 {
		t.Fatalf("admin seat %d", u.Seat)
	}
	if err := lobby.Run(w, lobby.AddBot{}); err != nil {
		t.Fatalf("admin add bot: %v", err)
	}
	if err := lobby.Run(w, lobby.CloseTable{}); err != nil {
		t.Fatalf("admin close: %v", err)
	}
}

// A guest who leaves a running game takes the seat back on the same connection (their
// id is random to it, so only that connection holds it), and the lobby offers the way
// back as it does to a player with a key.
func TestAGuestTakesTheirSeatBackOnTheSameConnection(t *testing.T) {
	l := newLobby(t)
	guest := lobby.Player{ID: "guest:0a1b2c3d4e5f", Name: "Gus", Guest: true}
	a, _ := l.Create(ann, testgame.ID, nil, false)
	g, err := l.Join(guest, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	lobby.Run(g, lobby.Leave{})
	waitFor(t, a, "Gus away", func(u lobby.Update) bool { return u.Table.Seats[1].Away })
	if got := l.SeatedAt(guest.ID); !slices.Equal(got, []string{a.Code()}) {
		t.Fatalf("the lobby offers the guest %v, want their table %s", got, a.Code())
	}
	g2, err := l.Join(guest, a.Code())
	if err != nil {
		t.Fatalf("the guest could not come back: %v", err)
	}
	if u := waitFor(t, g2, "seat", func(u lobby.Update) bool { return u.Seat >= 0 }); u.Seat != 1 || u.Table.Seats[1].Away {
		t.Fatalf("the guest is back at seat %d (away %v), want seat 1", u.Seat, u.Table.Seats[1].Away)
	}
}

// A player the host removes is not offered the seat back: by the time their connection
// hears of it, the lobby no longer counts them at the table, before a game and during one.
func TestARemovedPlayerIsNoLongerSeated(t *testing.T) {
	for _, started := range []bool{false, true} {
		l := newLobby(t)
		a, _ := l.Create(ann, testgame.ID, nil, false)
		b, err := l.Join(ben, a.Code())
		if err != nil {
			t.Fatal(err)
		}
		if started {
			if err := lobby.Run(a, lobby.Start{}); err != nil {
				t.Fatal(err)
			}
		}
		if err := lobby.Run(a, lobby.Kick{Seat: 1}); err != nil {
			t.Fatal(err)
		}
		for {
			if _, ok, _ := b.Next(context.Background()); !ok {
				break
			}
		}
		if got := l.SeatedAt(ben.ID); len(got) != 0 {
			t.Fatalf("started %v: removed, Ben is still seated at %v", started, got)
		}
		if !started {
			continue
		}
		// During a game a bot plays the seat for good, under a name that says so: the
		// table and the lobby's list no longer show Ben as if he were playing.
		u := waitFor(t, a, "the bot's seat", func(u lobby.Update) bool { return u.Table.Seats[1].Bot })
		if name := u.Table.Seats[1].Name; name != "Bot for Ben" {
			t.Errorf("the removed player's seat is named %q", name)
		}
	}
}

// The open-tables count the lobby reports (parlor_tables_open) is the number open, however
// many tables open and close side by side: counts taken one after another once reached
// the hook in another order, and a cluster node with three tables reported one.
func TestTheTablesCountIsTheNumberOpen(t *testing.T) {
	var mu sync.Mutex
	told := -1
	// The first count is slow to arrive, as on a busy machine: the counts after it must
	// not be overtaken by it.
	l := newLobbyWith(t, lobby.Config{Hooks: lobby.Hooks{Tables: func(n int) {
		if n == 1 {
			time.Sleep(50 * time.Millisecond)
		}
		mu.Lock()
		told = n
		mu.Unlock()
	}}})
	const hosts = 24
	var wg sync.WaitGroup
	places := make([]lobby.Place, hosts)
	for i := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := lobby.Player{ID: fmt.Sprintf("SHA256:host%d", i), Name: fmt.Sprintf("Host %d", i)}
			pl, err := l.Create(p, testgame.ID, nil, false)
			if err != nil {
				t.Error(err)
				return
			}
			places[i] = pl
		}()
	}
	wg.Wait()
	mu.Lock()
	if told != hosts {
		t.Errorf("after %d tables opened side by side the count is %d", hosts, told)
	}
	mu.Unlock()
	for _, pl := range places[:hosts/2] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := lobby.Run(pl, lobby.CloseTable{}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := told
		mu.Unlock()
		if n == hosts-hosts/2 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("after %d of %d tables closed the count is %d", hosts/2, hosts, n)
		}
	}
}
