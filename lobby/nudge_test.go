package lobby_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
)

// spedLobby is a lobby whose game time runs ten times faster than its wall clock, which
// the test sets by hand (as --game-speed 10 runs it from the real one).
func spedLobby(t *testing.T) (*lobby.Lobby, *handClock) {
	t.Helper()
	wall := newClock()
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{Clock: spedHand{wall: wall, speed: 10}, Tick: 5 * time.Millisecond, IdleClose: time.Hour})
	t.Cleanup(func() {
		cancel()
		if err := l.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return l, wall
}

// said counts the chat lines of u that hold text.
func said(u lobby.Update, text string) int {
	n := 0
	for _, c := range u.Chat {
		if strings.Contains(c.Text, text) {
			n++
		}
	}
	return n
}

// step has m's table take in the time it is now, then says line in the chat (which is
// no progress of the game), and returns m's update with the line.
func step(t *testing.T, m lobby.Place, line string) lobby.Update {
	t.Helper()
	if err := lobby.CatchUp(m); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(m, lobby.Chat{Text: line}); err != nil {
		t.Fatal(err)
	}
	return waitFor(t, m, line, func(u lobby.Update) bool { return said(u, line) > 0 })
}

// A host playing alone with bots is told the table waits for her, in words for her,
// not asked to nudge herself; and the minute it waits is the wall clock's, so at speed
// 10 the line does not come every few seconds.
func TestAHostAloneWithBotsIsToldTheTableWaitsForHer(t *testing.T) {
	l, wall := spedLobby(t)
	a, err := l.Create(ann, testgame.ID, rules.Options{"rounds": "3"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.AddBot{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	wall.Advance(10 * time.Second) // 100 s of game time
	if u := step(t, a, "thinking…"); said(u, "has waited") > 0 || said(u, "waiting for you") > 0 {
		t.Fatalf("told after 10 s of the wall clock: %+v", u.Chat)
	}
	wall.Advance(51 * time.Second)
	u := step(t, a, "still thinking…")
	if said(u, "The table is waiting for you: the game has waited 61 s for your move.") != 1 {
		t.Errorf("Ann is not told the table waits for her: %+v", u.Chat)
	}
	if said(u, "has waited 61 s for Ann") > 0 || said(u, "nudge") > 0 || said(u, "The host can") > 0 {
		t.Errorf("Ann is told about herself: %+v", u.Chat)
	}
	// Once per wait; the next wait counts its own minute of the wall clock.
	wall.Advance(5 * time.Minute)
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	wall.Advance(30 * time.Second)
	if u := step(t, a, "round 2"); said(u, "waiting for you") != 1 {
		t.Errorf("told %d times by 30 s into the second wait: %+v", said(u, "waiting for you"), u.Chat)
	}
	wall.Advance(31 * time.Second)
	if u := step(t, a, "round 2 still"); said(u, "waiting for you") != 2 {
		t.Errorf("told %d times after a minute of the second wait, want 2: %+v", said(u, "waiting for you"), u.Chat)
	}
}

// When the table waits for a player, they are told so in words for them; the others,
// a spectator too, get the nudge and the host's way on, which the player does not.
func TestTheWaitedOnPlayerIsToldAndTheOthersGetTheNudge(t *testing.T) {
	l, wall := spedLobby(t)
	a, b := startPickGame(t, l, lobby.AwayBot, "3")
	c, err := l.Watch(cat, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil { // the game waits for Ben
		t.Fatal(err)
	}
	wall.Advance(61 * time.Second)
	nudge := "The game has waited 61 s for Ben. The host can let a bot play for them until they press a key"
	for who, u := range map[string]lobby.Update{
		"Ann": step(t, a, "Ben?"),
		"Cat": waitFor(t, c, "Cat's chat", func(u lobby.Update) bool { return said(u, "Ben?") > 0 }),
	} {
		if said(u, nudge) != 1 || said(u, "waiting for you") > 0 {
			t.Errorf("%s's chat: %+v", who, u.Chat)
		}
	}
	u := waitFor(t, b, "Ben's chat", func(u lobby.Update) bool { return said(u, "Ben?") > 0 })
	if said(u, "The table is waiting for you: the game has waited 61 s for your move.") != 1 || said(u, "for Ben") > 0 {
		t.Errorf("Ben's chat: %+v", u.Chat)
	}
}
