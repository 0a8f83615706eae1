package lobby_test

import (
	"context"
	"testing"
	"time"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/store"
)

// lineSaying is the chat line with text, if the update has it.
func lineSaying(u lobby.Update, text string) (lobby.ChatLine, bool) {
	for _, c := range u.Chat {
		if c.Text == text {
			return c, true
		}
	}
	return lobby.ChatLine{}, false
}

// Under --game-speed game time runs years ahead of the wall clock (at speed 10 in
// November 2026 it reads 2035): a chat line's time is the wall clock's all the same,
// for it is what the players read beside the line.
func TestAChatLineHasTheWallClocksTimeUnderAGameSpeed(t *testing.T) {
	l := newLobbyWith(t, lobby.Config{Clock: lobby.Sped(10)})
	a, err := l.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	if err := lobby.Run(a, lobby.Chat{Text: "what time is it?"}); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	u := waitFor(t, a, "the line", func(u lobby.Update) bool { _, ok := lineSaying(u, "what time is it?"); return ok })
	line, _ := lineSaying(u, "what time is it?")
	if line.At.Before(before) || line.At.After(after) {
		t.Errorf("the line was said at %v by the wall clock, between %v and %v", line.At, before, after)
	}
}

// A table that outlives a restart keeps its chat lines' times, whatever the speed of the
// run that wrote them or of the run that brings it back; its timers keep the time they
// had left (in game time), as at any speed.
func TestChatTimesStayTheWallClocksAcrossRestartsAtAnotherSpeed(t *testing.T) {
	st, wall := store.NewMemory(), newClock()
	r1 := startConfig(t, lobby.Config{Log: st, Clock: spedHand{wall: wall, speed: 10}})
	a, b := timedTable(t, r1.l)
	code := a.Code()
	said := wall.Now()
	if err := lobby.Run(b, lobby.Chat{Text: "hi all"}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	wall.Advance(time.Second) // ten seconds of game time: twenty left
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(2))); err != nil {
		t.Fatal(err)
	}
	s := follow(a)
	s.until(t, "Ann's pick", func(u lobby.Update) bool { return u.View != nil && u.View.(testgame.View).Mine == 2 })
	r1.stop()
	if line, ok := lineSaying(s.latest(), "hi all"); !ok || !line.At.Equal(said) {
		t.Errorf("at speed 10 the line reads %v, want the wall clock's %v", line.At, said)
	}

	wall.Advance(5 * time.Minute)
	for _, speed := range []int{1, 10} {
		var clock lobby.Clock = wall
		if speed > 1 {
			clock = spedHand{wall: wall, speed: speed}
		}
		r := startConfig(t, lobby.Config{Log: st, Clock: clock})
		if n, err := r.l.Restore(context.Background()); err != nil || n != 1 {
			t.Fatalf("Restore = %d, %v; want 1 table", n, err)
		}
		a2, err := r.l.Join(ann, code)
		if err != nil {
			t.Fatal(err)
		}
		u := follow(a2).until(t, "Ann's view", func(u lobby.Update) bool { return u.View != nil })
		if line, ok := lineSaying(u, "hi all"); !ok || !line.At.Equal(said) {
			t.Errorf("restored at speed %d, the line reads %v, want %v", speed, line.At, said)
		}
		if left := u.View.Head().Deadline.Sub(clock.Now()); left != 20*time.Second {
			t.Errorf("restored at speed %d, the round has %v of game time left, want 20s", speed, left)
		}
		r.stop()
		wall.Advance(time.Minute)
	}
}
