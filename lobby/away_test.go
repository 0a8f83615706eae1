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

func newClockLobby(t *testing.T) (*lobby.Lobby, *handClock) {
	t.Helper()
	clock := newHandClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{Clock: clock})
	t.Cleanup(func() {
		cancel()
		if err := l.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return l, clock
}

func chatSays(u lobby.Update, text string) bool {
	for _, c := range u.Chat {
		if strings.Contains(c.Text, text) {
			return true
		}
	}
	return false
}

// startAwayGame seats Ann (host) and Ben at a three-round pick game with the away option
// and starts it; then Ben's connection goes.
func startAwayGame(t *testing.T, l *lobby.Lobby, away string) (a lobby.Place, code string) {
	t.Helper()
	a, b := startPickGame(t, l, away, "3")
	lobby.Run(b, lobby.Disconnect{})
	return a, a.Code()
}

// startPickGame seats Ann (host) and Ben at a pick game of rounds with the away option
// and starts it.
func startPickGame(t *testing.T, l *lobby.Lobby, away, rounds string) (a, b lobby.Place) {
	t.Helper()
	a, err := l.Create(ann, testgame.ID, rules.Options{"rounds": rounds, lobby.OptAway: away}, false)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = l.Join(ben, a.Code()); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	return a, b
}

// By default a bot plays an away player's seat after 60 s, until the player comes back;
// the host sees who is away and since when.
func TestAwayPlayerGetsABotAfter60s(t *testing.T) {
	l, clock := newClockLobby(t)
	gone := clock.Now()
	a, code := startAwayGame(t, l, lobby.AwayBot)
	u := waitFor(t, a, "Ben away", func(u lobby.Update) bool { return u.Table.Seats[1].Away })
	if !chatSays(u, "Ben is away: a bot plays for them if they are not back within 60 s.") {
		t.Errorf("the table is not told when a bot comes, in words: %+v", u.Chat)
	}
	if s := u.Table.Seats[1]; !s.AwaySince.Equal(gone) || s.StandIn {
		t.Fatalf("away seat %+v, want away since %v and no bot yet", s, gone)
	}
	clock.Advance(30 * time.Second)
	if err := lobby.Run(a, lobby.Chat{Text: "still here"}); err != nil { // a table step at 30 s
		t.Fatal(err)
	}
	u = waitFor(t, a, "chat", func(u lobby.Update) bool { return chatSays(u, "still here") })
	if u.Table.Seats[1].StandIn {
		t.Fatal("a bot took the seat after 30 s")
	}
	clock.Advance(31 * time.Second)
	u = waitFor(t, a, "a bot for Ben", func(u lobby.Update) bool { return u.Table.Seats[1].StandIn })
	if !chatSays(u, "a bot plays for Ben until they return") || u.Table.Seats[1].Name != "Ben" || u.Table.Seats[1].Bot {
		t.Fatalf("seat %+v, chat %+v", u.Table.Seats[1], u.Chat)
	}
	// The game goes on: Ann picks, the bot picks for Ben, the round is scored.
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "round 2", func(u lobby.Update) bool { return u.View != nil && u.View.Head().Round == 2 })
	// Ben comes back and plays his own seat again.
	b, err := l.Join(ben, code)
	if err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, b, "Ben back", func(u lobby.Update) bool { return !u.Table.Seats[1].Away })
	if !chatSays(u, "Ben is back and plays again; a bot played for them meanwhile.") {
		t.Errorf("Ben is not told a bot played for him: %+v", u.Chat)
	}
	if s := u.Table.Seats[1]; s.StandIn || !s.AwaySince.IsZero() || u.Seat != 1 {
		t.Fatalf("Ben back: seat %+v, member seat %d", s, u.Seat)
	}
	// What the bot did for him is worded as the bot's, not as his own.
	if said := u.View.(testgame.View).Said; !strings.HasPrefix(said, "A bot for you picked ") {
		t.Errorf("Ben's own line about the stand-in's pick: %q", said)
	}
	// The bot stopped at once: in round 3 the seat waits for Ben's own pick.
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, b, "round 3", func(u lobby.Update) bool { return u.View != nil && u.View.Head().Round == 3 })
	if w := u.View.Head().Waiting; len(w) != 2 {
		t.Fatalf("round 3 waits for %v, want both seats", w)
	}
	if err := lobby.Run(b, lobby.ActOf(testgame.Pick(3))); err != nil {
		t.Fatalf("Ben cannot play his seat again: %v", err)
	}
	waitFor(t, b, "Ben's own pick", func(u lobby.Update) bool { return u.View != nil && u.View.(testgame.View).Said == "You picked 3." })
}

// With "wait for host", nobody plays the seat until the host lets a bot do it.
func TestAwayPlayerWaitsForHost(t *testing.T) {
	l, clock := newClockLobby(t)
	a, code := startAwayGame(t, l, lobby.AwayHost)
	u := waitFor(t, a, "Ben away", func(u lobby.Update) bool { return u.Table.Seats[1].Away })
	if !chatSays(u, "The host can let a bot play for Ben") {
		t.Errorf("the host is not told what they can do: %+v", u.Chat)
	}
	clock.Advance(10 * time.Minute)
	if err := lobby.Run(a, lobby.Chat{Text: "waiting"}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, a, "chat", func(u lobby.Update) bool { return chatSays(u, "waiting") })
	if u.Table.Seats[1].StandIn {
		t.Fatal("a bot took the seat without the host")
	}
	c, err := l.Watch(cat, code)
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(c, lobby.StandIn{Seat: 1}); !errors.Is(err, lobby.ErrNotHost) {
		t.Errorf("a spectator let a bot in: %v", err)
	}
	if err := lobby.Run(a, lobby.StandIn{Seat: 0}); err == nil {
		t.Error("the host let a bot play their own, present seat")
	}
	if err := lobby.Run(a, lobby.StandIn{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, a, "a bot for Ben", func(u lobby.Update) bool { return u.Table.Seats[1].StandIn })
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "round 2", func(u lobby.Update) bool { return u.View != nil && u.View.Head().Round == 2 })
}

// With "game timers", only the game's own time limits move it on: no bot, ever, unless
// the host lets one play, which the table says they can (a phase without a time limit
// would wait for ever).
func TestAwayPlayerUnderGameTimers(t *testing.T) {
	l, clock := newClockLobby(t)
	a, _ := startAwayGame(t, l, lobby.AwayTimers)
	waitFor(t, a, "Ben away, and the way out", func(u lobby.Update) bool {
		return u.Table.Seats[1].Away && chatSays(u, "the host can let a bot play for them meanwhile")
	})
	clock.Advance(10 * time.Minute)
	if err := lobby.Run(a, lobby.Chat{Text: "waiting"}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a, "chat", func(u lobby.Update) bool { return chatSays(u, "waiting") })
	if u.Table.Seats[1].StandIn {
		t.Fatal("a bot took the seat under game timers")
	}
}

// A player who is connected but does not play holds a phase without a time limit for
// ever: the host can let a bot play for them while the table waits for them, until they
// press a key (Resume) or act.
func TestHostLetsABotPlayForAnIdlePlayer(t *testing.T) {
	l, _ := newClockLobby(t)
	a, b := startPickGame(t, l, lobby.AwayTimers, "3")
	if err := lobby.Run(a, lobby.StandIn{Seat: 0}); err == nil {
		t.Error("the host let a bot play their own seat")
	}
	if err := lobby.Run(b, lobby.StandIn{Seat: 0}); !errors.Is(err, lobby.ErrNotHost) {
		t.Errorf("a player let a bot play the host's seat: %v", err)
	}
	// Ben is here and idle: the game waits for his pick.
	if err := lobby.Run(a, lobby.StandIn{Seat: 1}); err != nil {
		t.Fatalf("the host cannot let a bot play for an idle player: %v", err)
	}
	u := waitFor(t, b, "a bot for Ben", func(u lobby.Update) bool { return u.Table.Seats[1].StandIn })
	if s := u.Table.Seats[1]; s.Away || u.Seat != 1 {
		t.Fatalf("Ben's seat %+v, member seat %d: he is here and keeps it", s, u.Seat)
	}
	if !chatSays(u, "a bot plays for Ben until they press a key") {
		t.Errorf("the table is not told how Ben gets his seat back: %+v", u.Chat)
	}
	// The bot has picked for Ben: the round needs only Ann now, and waits no more for Ben.
	if err := lobby.Run(a, lobby.StandIn{Seat: 1}); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("a second bot for Ben: %v", err)
	}
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, b, "round 2", func(u lobby.Update) bool {
		return u.View != nil && u.View.Head().Round == 2 && !slices.Contains(u.View.Head().Waiting, 1)
	})
	// Ben presses a key: he plays his seat himself again, from the next round on.
	if err := lobby.Run(b, lobby.Resume{}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, b, "Ben plays again", func(u lobby.Update) bool { return !u.Table.Seats[1].StandIn })
	if !chatSays(u, "Ben plays again") {
		t.Errorf("the table is not told Ben is back: %+v", u.Chat)
	}
	if err := lobby.Run(b, lobby.Resume{}); err != nil {
		t.Errorf("a key press with no bot playing: %v", err)
	}
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, b, "round 3", func(u lobby.Update) bool { return u.View != nil && u.View.Head().Round == 3 })
	if w := u.View.Head().Waiting; !slices.Contains(w, 1) {
		t.Fatalf("round 3 waits for %v: the bot still plays for Ben", w)
	}
	// Acting takes the seat back too (the API's players have no keys to press). Ann has
	// not picked: the round, the last, goes on after the bot's pick for Ben.
	if err := lobby.Run(a, lobby.StandIn{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, b, "a bot for Ben again", func(u lobby.Update) bool { return u.Table.Seats[1].StandIn })
	_ = lobby.Run(b, lobby.ActOf(testgame.Pick(3))) // the bot may have picked already: refused, and still back
	waitFor(t, b, "Ben back by acting", func(u lobby.Update) bool { return !u.Table.Seats[1].StandIn })
}

// The host cannot give a present player's seat to a bot while the game does not wait
// for them: they have nothing to do, so they hold nobody up.
func TestStandInRefusedForAPlayerTheGameDoesNotWaitFor(t *testing.T) {
	l, _ := newClockLobby(t)
	a, b := startPickGame(t, l, lobby.AwayBot, "3")
	if err := lobby.Run(b, lobby.ActOf(testgame.Pick(2))); err != nil {
		t.Fatal(err)
	}
	err := lobby.Run(a, lobby.StandIn{Seat: 1})
	if err == nil || !strings.Contains(err.Error(), "not waiting for Ben") {
		t.Fatalf("StandIn on a player with nothing to do: %v", err)
	}
}

// A bot that played for an idle player stops with the game: after it, the seat is theirs.
func TestAnIdlePlayersBotStopsAtGameOver(t *testing.T) {
	l, _ := newClockLobby(t)
	a, b := startPickGame(t, l, lobby.AwayBot, "1")
	if err := lobby.Run(a, lobby.StandIn{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil { // the bot has picked for Ben: game over
		t.Fatal(err)
	}
	u := waitFor(t, b, "game over", func(u lobby.Update) bool { return u.Table.State == lobby.StateFinished })
	if u.Table.Seats[1].StandIn {
		t.Fatalf("after the game a bot still plays for Ben: %+v", u.Table.Seats[1])
	}
}

// A player who leaves during a game on purpose is announced as having left, not as
// away: the others should not wait for a dropped connection to come back. The seat is
// still kept for them, and the away option's consequence is told as for an absence.
func TestLeavingDuringAGameIsAnnouncedAsLeaving(t *testing.T) {
	l, _ := newClockLobby(t)
	a, b := startPickGame(t, l, lobby.AwayBot, "3")
	lobby.Run(b, lobby.Leave{})
	u := waitFor(t, a, "Ben gone", func(u lobby.Update) bool { return u.Table.Seats[1].Away })
	if !chatSays(u, "Ben left the game: a bot plays for them if they are not back within 60 s.") {
		t.Errorf("the table is not told Ben left: %+v", u.Chat)
	}
	if chatSays(u, "Ben is away") {
		t.Errorf("Ben's leaving is announced as an absence: %+v", u.Chat)
	}
}

// A game without a time limit that has waited a minute for a player who is here says
// so once, with the host's way out: a playtester's Tall Tale sat on "Waiting for ann" for
// minutes, and nothing told the host what to do.
func TestALongWaitTellsTheHostWhatTheyCanDo(t *testing.T) {
	l, clock := newClockLobby(t)
	a, _ := startPickGame(t, l, lobby.AwayBot, "3")
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil { // Ann picks; the game waits for Ben
		t.Fatal(err)
	}
	clock.Advance(45 * time.Second)
	if err := lobby.Run(a, lobby.Chat{Text: "Ben?"}); err != nil { // a table step; a chat line is no progress of the game
		t.Fatal(err)
	}
	u := waitFor(t, a, "chat", func(u lobby.Update) bool { return chatSays(u, "Ben?") })
	if chatSays(u, "has waited") || len(u.Table.HeldUpBy) > 0 {
		t.Fatalf("told before a minute: %+v", u.Chat)
	}
	clock.Advance(16 * time.Second)
	u = waitFor(t, a, "the note", func(u lobby.Update) bool { return chatSays(u, "has waited") })
	if !chatSays(u, "The game has waited 61 s for Ben. The host can let a bot play for them until they press a key: esc, pick their seat (tab, ↑↓), then a.") {
		t.Errorf("the note: %+v", u.Chat)
	}
	if !slices.Equal(u.Table.HeldUpBy, []int{1}) {
		t.Errorf("HeldUpBy = %v, want Ben's seat", u.Table.HeldUpBy)
	}
	clock.Advance(5 * time.Minute)
	if err := lobby.Run(a, lobby.Chat{Text: "still?"}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, a, "chat", func(u lobby.Update) bool { return chatSays(u, "still?") })
	n := 0
	for _, c := range u.Chat {
		if strings.Contains(c.Text, "has waited") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the note came %d times: %+v", n, u.Chat)
	}
}

// Whoever comes to a running game, a spectator late or a player back, gets the game's
// log from its start in their first update, where a view carries its last lines only;
// the updates after it do not repeat it.
func TestTheFirstUpdateOfAGameCarriesItsHistory(t *testing.T) {
	l, _ := newClockLobby(t)
	a, b := startPickGame(t, l, lobby.AwayBot, "3")
	for round := 0; round < 3; round++ { // nine lines: more than a view's eight
		if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
			t.Fatal(err)
		}
		if err := lobby.Run(b, lobby.ActOf(testgame.Pick(2))); err != nil {
			t.Fatal(err)
		}
		waitFor(t, a, "the next round", func(u lobby.Update) bool { return u.View != nil && u.View.Head().Round == round+2 })
	}
	s, err := l.Watch(lobby.Player{ID: "SHA256:cat", Name: "Cat"}, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, s, "a view", func(u lobby.Update) bool { return u.View != nil })
	if len(u.History) < 6 || u.History[0] != "Ann has picked." || !slices.Contains(u.History, "Round 1 picks: [1 2]") {
		t.Fatalf("the first update's history: %q", u.History)
	}
	if log := u.View.Head().Log; len(log) >= len(u.History) || !slices.Equal(log, u.History[len(u.History)-len(log):]) {
		t.Fatalf("the view's log %q is not the end of the history %q", log, u.History)
	}
	if err := lobby.Run(s, lobby.Chat{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	if u := waitFor(t, s, "the chat", func(u lobby.Update) bool { return chatSays(u, "hello") }); u.History != nil {
		t.Fatalf("a later update carries the history again: %q", u.History)
	}
}

// A player still away when the next game starts has a bot play for them from its first
// move: the table says so at the start.
func TestTheNextGameSaysABotPlaysForAnAwayPlayer(t *testing.T) {
	l, clock := newClockLobby(t)
	a, b := startPickGame(t, l, lobby.AwayBot, "1")
	lobby.Run(b, lobby.Disconnect{})
	waitFor(t, a, "Ben away", func(u lobby.Update) bool { return u.Table.Seats[1].Away })
	clock.Advance(61 * time.Second)
	waitFor(t, a, "a bot for Ben", func(u lobby.Update) bool { return u.Table.Seats[1].StandIn })
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "finished", func(u lobby.Update) bool { return u.Table.State == lobby.StateFinished })
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "the notice", func(u lobby.Update) bool {
		return u.Table.State == lobby.StatePlaying && chatSays(u, "A bot plays for Ben, away since the last game, until they are back.")
	})
}
