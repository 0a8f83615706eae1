package session

import (
	"context"
	"parlor/internal/testkit/testclock"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
	"parlor/session/gameui/gameuitest"
)

var press = gameuitest.Key

// nextUpdate reads the member's updates until cond holds.
func nextUpdate(t *testing.T, mem lobby.Place, cond func(lobby.Update) bool) lobby.Update {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		u, ok, reason := mem.Next(ctx)
		if !ok {
			t.Fatalf("member closed: %s", reason)
		}
		if cond(u) {
			return u
		}
	}
}

// hasKey reports whether the room's keys (the help lists them all) include k for help.
func hasKey(ts *tableScreen, k, help string) bool {
	for _, b := range ts.roomKeys() {
		if b.Help().Key == k && b.Help().Desc == help {
			return true
		}
	}
	return false
}

func drawRoom(m *Model, ts *tableScreen) string {
	return ansi.Strip(strings.Join(ts.render(m, 80, 24), "\n"))
}

var (
	annP = lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	benP = lobby.Player{ID: "SHA256:ben", Name: "Ben"}
)

func newLobbyT(t *testing.T, clock lobby.Clock) (*lobby.Lobby, context.Context) {
	t.Helper()
	return newLobbyConfig(t, lobby.Config{Clock: clock})
}

// newLobbyConfig is a lobby of cfg for one test, shut down after it.
func newLobbyConfig(t *testing.T, cfg lobby.Config) (*lobby.Lobby, context.Context) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, cfg)
	t.Cleanup(func() {
		cancel()
		_ = l.Shutdown(context.Background())
	})
	return l, ctx
}

// A spectator of a waiting table sees how to take a seat, and the key does it.
func TestSpectatorTakesASeatFromTheTableScreen(t *testing.T) {
	l, ctx := newLobbyT(t, nil)
	a, _ := l.Create(annP, testgame.ID, nil, false)
	w, err := l.Watch(benP, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	m := New(ctx, Options{Lobby: l, Player: benP})
	ts := newTableScreen(w)
	ts.apply(nextUpdate(t, w, func(u lobby.Update) bool { return len(u.Table.Seats) == 1 }))
	if !hasKey(&ts, "t", "take a seat") {
		t.Fatal("no key to take a seat")
	}
	ts.key(m, press("t"))
	u := nextUpdate(t, w, func(u lobby.Update) bool { return u.Seat == 1 })
	ts.apply(u)
	if out := drawRoom(m, &ts); hasKey(&ts, "t", "take a seat") || !strings.Contains(out, "2 Ben") {
		t.Fatalf("after sitting:\n%s", out)
	}
}

// The host sees who is away and for how long, and can let a bot play for them.
func TestHostSeesAwayAndLetsABotPlay(t *testing.T) {
	var clock = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	l, ctx := newLobbyT(t, testclock.New(clock))
	a, _ := l.Create(annP, testgame.ID, rules.Options{lobby.OptAway: lobby.AwayHost}, false)
	b, _ := l.Join(benP, a.Code())
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	lobby.Run(b, lobby.Disconnect{})
	m := New(ctx, Options{Lobby: l, Player: annP, Now: func() time.Time { return clock.Add(3 * time.Minute) }})
	m.now = m.o.Now()
	ts := newTableScreen(a)
	ts.apply(nextUpdate(t, a, func(u lobby.Update) bool { return len(u.Table.Seats) == 2 && u.Table.Seats[1].Away }))
	ts.room = true
	out := drawRoom(m, &ts)
	if !strings.Contains(out, "Ben (away 3 min)") {
		t.Errorf("room lacks how long Ben is away:\n%s", out)
	}
	if !hasKey(&ts, "a", "bot plays for them") {
		t.Error("the host has no key to let a bot play")
	}
	ts.seatSel = 1
	ts.key(m, press("a"))
	u := nextUpdate(t, a, func(u lobby.Update) bool { return u.Table.Seats[1].StandIn })
	ts.apply(u)
	if out := drawRoom(m, &ts); !strings.Contains(out, "Ben (away 3 min, a bot plays)") {
		t.Errorf("the stand-in is not shown:\n%s", out)
	}
}

// The table screen says when the game waits for you (a Tall Tale narrator looking at the
// room misses their turn otherwise).
func TestTableScreenSaysItIsYourTurn(t *testing.T) {
	l, ctx := newLobbyT(t, nil)
	a, _ := l.Create(annP, testgame.ID, nil, false)
	if err := lobby.Run(a, lobby.AddBot{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	m := New(ctx, Options{Lobby: l, Player: annP})
	ts := newTableScreen(a)
	ts.apply(nextUpdate(t, a, func(u lobby.Update) bool { return u.View != nil }))
	ts.room = true
	if out := drawRoom(m, &ts); !strings.Contains(out, "The game is waiting for you") {
		t.Errorf("no sign that the game waits for you:\n%s", out)
	}
}

// A name too long is reported with its real length, not the length it was cut to.
func TestLongNameReportsItsLength(t *testing.T) {
	_, err := CheckName(strings.Repeat("abcd", 10))
	if err == nil || !strings.Contains(err.Error(), "counts 40") {
		t.Errorf("error %v, want it to say the name has 40 characters", err)
	}
}

// A player who is here but idle holds a phase without a time limit: the host lets a bot
// play for them; they see that it does and how to stop it, and any key gives them their
// seat back.
func TestIdlePlayerSeesTheBotAndTakesTheSeatBack(t *testing.T) {
	l, ctx := newLobbyT(t, nil)
	a, _ := l.Create(annP, testgame.ID, rules.Options{"rounds": "3", lobby.OptAway: lobby.AwayTimers}, false)
	b, _ := l.Join(benP, a.Code())
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	host := New(ctx, Options{Lobby: l, Player: annP})
	hs := newTableScreen(a)
	hs.apply(nextUpdate(t, a, func(u lobby.Update) bool { return u.View != nil }))
	hs.room, hs.seatSel = true, 1
	hs.key(host, press("a"))
	hs.apply(nextUpdate(t, a, func(u lobby.Update) bool { return u.Table.Seats[1].StandIn }))
	if out := drawRoom(host, &hs); !strings.Contains(out, "Ben (a bot plays)") {
		t.Errorf("the host's room does not say a bot plays for Ben:\n%s", out)
	}

	m := New(ctx, Options{Lobby: l, Player: benP})
	ts := newTableScreen(b)
	ts.apply(nextUpdate(t, b, func(u lobby.Update) bool { return u.View != nil && u.Table.Seats[1].StandIn }))
	if out := drawRoom(m, &ts); !strings.Contains(out, "A bot plays for you: press any key to play again.") {
		t.Errorf("Ben's game screen does not say a bot plays for him:\n%s", out)
	}
	ts.room = true
	if out := drawRoom(m, &ts); !strings.Contains(out, "A bot plays for you: press any key to play again.") {
		t.Errorf("Ben's room does not say a bot plays for him:\n%s", out)
	}
	ts.room = false
	m.screen, m.table = screenTable, ts
	m.onKey(press("q")) // any key, and only that: q does not ask to leave
	if m.confirm != "" || m.help {
		t.Errorf("the key that takes the seat back did its own job too: confirm %q, help %v", m.confirm, m.help)
	}
	u := nextUpdate(t, b, func(u lobby.Update) bool { return !u.Table.Seats[1].StandIn })
	ts.apply(u)
	if out := drawRoom(m, &ts); strings.Contains(out, "A bot plays for you") {
		t.Errorf("still told a bot plays after a key:\n%s", out)
	}
}

// In a team game the room says each seat's team, before the game starts too, so that
// friends can pick seats on the same side.
func TestRoomShowsTheSeatsTeams(t *testing.T) {
	ts := tableScreen{u: lobby.Update{Seat: 0, Host: true, Table: lobby.TableInfo{State: lobby.StateWaiting, MinPlayers: 8, MaxPlayers: 14, Seats: []lobby.SeatInfo{
		{Name: "Zed", Host: true, Team: "A"},
		{Name: "Bot Ada", Bot: true, Team: "B"},
		{Name: "Yan", Team: "A"},
	}}}}
	out := drawRoom(&Model{}, &ts)
	for _, want := range []string{"1 Zed team A ★host ← you", "2 Bot Ada team B (bot)", "3 Yan team A"} {
		if !strings.Contains(out, want) {
			t.Errorf("the room lacks %q:\n%s", want, out)
		}
	}
}

// The room's hint wraps rather than being cut: "…8 to 14 players are needed." was
// "…are neede…" at 80 columns.
func TestTheRoomsHintIsWhole(t *testing.T) {
	ts := tableScreen{u: lobby.Update{Seat: 0, Host: true, Table: lobby.TableInfo{Code: "VMPJ", State: lobby.StateWaiting, MinPlayers: 8, MaxPlayers: 14, Seats: []lobby.SeatInfo{
		{Name: "Ann", Host: true, Team: "A"},
	}}}}
	out := drawRoom(&Model{}, &ts)
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "8 to 14 players are needed.") {
		t.Fatalf("the hint is cut:\n%s", out)
	}
}

// The room's rules heading keeps its key at 80 columns, however few of the rules' lines
// the options leave room for ("· tab: scro…" was cut).
func TestTheRoomsRulesHeadingIsWhole(t *testing.T) {
	for _, state := range []string{lobby.StateWaiting, lobby.StatePlaying} {
		ts := tableScreen{u: lobby.Update{Seat: 0, Host: true, Table: lobby.TableInfo{Code: "VMPJ", Game: "quadrant", State: state, MinPlayers: 8, MaxPlayers: 14,
			Options: rules.Options{"mode": "team"}, Seats: []lobby.SeatInfo{{Name: "Ann", Host: true, Team: "A"}}}}}
		out := drawRoom(&Model{}, &ts)
		if !strings.Contains(out, "Rules ·") || strings.Contains(out, "scro…") || !strings.Contains(out, "tab: scroll") {
			t.Fatalf("%s: the rules heading is cut:\n%s", state, out)
		}
	}
}

// A game names its own steps: Fingertip's title and the lobby's way back say "turn",
// as its panel and rules do, and the others "round".
func TestTheTitleNamesTheGamesRounds(t *testing.T) {
	for _, c := range []struct{ game, want string }{{"fingertip", "turn 17"}, {"topfive", "round 17"}} {
		info := lobby.TableInfo{Code: "ABCD", Game: c.game, GameName: c.game, State: lobby.StatePlaying, Round: 17}
		ts := tableScreen{u: lobby.Update{Table: info}}
		if title := ansi.Strip(ts.titleBar(&Model{}, 80, rules.Header{Round: 17})); !strings.Contains(title, " · "+c.want) {
			t.Errorf("%s: the title %q lacks %q", c.game, title, c.want)
		}
		if line := waitingLine(info); !strings.Contains(line, "is in "+c.want) {
			t.Errorf("%s: the lobby says %q", c.game, line)
		}
	}
}

// The time shown says what runs out: the time left to act while the game waits for
// players, and the time to the next step while it waits for nobody (a reveal, a pause).
func TestTheTitleSaysWhatTheTimeIsFor(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	ts := tableScreen{u: lobby.Update{Seat: 0, Table: lobby.TableInfo{Code: "ABCD", Game: "topfive", State: lobby.StatePlaying, Seats: []lobby.SeatInfo{{Name: "Ann"}, {Name: "Ben"}}}}}
	m := &Model{now: now}
	head := rules.Header{Round: 1, Deadline: now.Add(65 * time.Second), Waiting: []int{1}}
	if title := ansi.Strip(ts.titleBar(m, 80, head)); !strings.Contains(title, "⏱ 1:05 left") {
		t.Errorf("waiting for a player: %q", title)
	}
	head.Waiting = nil
	if title := ansi.Strip(ts.titleBar(m, 80, head)); !strings.Contains(title, "⏱ moves on in 1:05") {
		t.Errorf("waiting for nobody: %q", title)
	}
}

// Where the options leave the room's rules fewer than three lines (a full team table at
// 80×24), the room says where to read them instead of showing a line or two of them.
func TestTheRoomSendsToTheHelpWhenTheRulesHaveNoRoom(t *testing.T) {
	h := newHarness(t, "Amy", 80, 24)
	h.sitAt("quadrant", rules.Options{"mode": "team"}, 14)
	h.press("esc")
	h.m.table.u.Table.Result = &rules.Result{Summary: "Team A wins 30 to 16"} // a line more of options
	out := h.screen()
	if !strings.Contains(out, "Rules · press ? to read them") || strings.Contains(out, "QUADRANT") {
		t.Fatalf("the room's rules at 80×24:\n%s", out)
	}
	h = newHarness(t, "Amy", 120, 40)
	h.sitAt("quadrant", rules.Options{"mode": "team"}, 14)
	h.press("esc")
	if out := h.screen(); !strings.Contains(out, "QUADRANT") {
		t.Fatalf("the room's rules at 120×40:\n%s", out)
	}
}

// Whom the table waits for: up to five names in a sentence (a playtester's narrator
// read "Bob, Bot Ada, Bot Bo and 1 more" with room to spare), then how many more.
func TestNameListNamesUpToFive(t *testing.T) {
	names := []string{"Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"}
	for _, c := range []struct {
		seats []int
		want  string
	}{
		{[]int{1}, "Bob"},
		{[]int{1, 2}, "Bob and Cid"},
		{[]int{1, 2, 3, 4}, "Bob, Cid, Dee and Eve"},
		{[]int{0, 1, 2, 3, 4}, "Ann, Bob, Cid, Dee and Eve"},
		{[]int{0, 1, 2, 3, 4, 5, 6}, "Ann, Bob, Cid, Dee and 3 more"},
	} {
		if got := nameList(names, c.seats); got != c.want {
			t.Errorf("nameList(%v) = %q, want %q", c.seats, got, c.want)
		}
	}
}

// With a long name at 80 columns the title keeps the clock whole and drops who you are
// ("⏱ moves on in 0:11 · you: Annabelle Sm…" cut the name).
func TestTheTitleKeepsTheClockBeforeALongName(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	ts := tableScreen{u: lobby.Update{Seat: 0, Table: lobby.TableInfo{Code: "GATH", Game: "talltale", GameName: "Tall Tale", State: lobby.StatePlaying, Seats: []lobby.SeatInfo{{Name: "Annabelle Smythe"}}}}}
	m := &Model{now: now}
	title := ansi.Strip(ts.titleBar(m, 80, rules.Header{Round: 1, Rounds: 6, Deadline: now.Add(11 * time.Second)}))
	if !strings.Contains(title, "⏱ moves on in 0:11") || strings.Contains(title, "…") {
		t.Fatalf("the title at 80: %q", title)
	}
	if title := ansi.Strip(ts.titleBar(m, 120, rules.Header{Round: 1, Rounds: 6, Deadline: now.Add(11 * time.Second)})); !strings.Contains(title, "you: Annabelle Smythe") {
		t.Fatalf("the title at 120: %q", title)
	}
}

// An admin watching a table has the host's controls there: the title says why.
func TestAnAdminWatchingIsToldSo(t *testing.T) {
	for _, c := range []struct {
		host bool
		want string
	}{{false, "you: watching"}, {true, "you: watching, admin"}} {
		ts := tableScreen{u: lobby.Update{Seat: -1, Host: c.host, Table: lobby.TableInfo{Code: "ABCD", State: lobby.StateWaiting}}}
		if got := ts.who(&Model{}); got != c.want {
			t.Errorf("host %v: %q, want %q", c.host, got, c.want)
		}
	}
}
