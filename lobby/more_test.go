package lobby_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
	"parlor/store"
)

// The host gives more time, a player may give theirs back, and nothing else goes.
func TestExtraTimeIsTheHostsToGive(t *testing.T) {
	l, _ := clockLobby(t)
	a, err := l.Create(ann, testgame.ID, rules.Options{"timer": "30s"}, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		who  lobby.Place
		op   lobby.ExtraTime
		want error
	}{
		{a, lobby.ExtraTime{Seat: 1, Factor: 4}, rules.ErrBadFactor},
		{a, lobby.ExtraTime{Seat: 5, Factor: 2}, lobby.ErrBadSeat},
		{b, lobby.ExtraTime{Seat: 0, Factor: 2}, lobby.ErrNotHost},
		{b, lobby.ExtraTime{Seat: 1, Factor: 2}, lobby.ErrNotHost}, // more for oneself
	} {
		if err := lobby.Run(c.who, c.op); !errors.Is(err, c.want) {
			t.Errorf("%+v: %v, want %v", c.op, err, c.want)
		}
	}
	if err := lobby.Run(a, lobby.ExtraTime{Seat: 1, Factor: 2}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, b, "Ben's ×2", func(u lobby.Update) bool { return u.Table.Seats[1].More == 2 })
	if u.Table.Seats[0].More != 0 {
		t.Errorf("Ann has %v too", u.Table.Seats[0].More)
	}
	if !chatSays(u, "gave Ben more time: ×2") {
		t.Errorf("the table was not told: %+v", u.Chat)
	}
	if err := lobby.Run(b, lobby.ExtraTime{Seat: 1, Factor: 1}); err != nil {
		t.Fatalf("Ben could not give his time back: %v", err)
	}
	waitFor(t, b, "Ben at ×1", func(u lobby.Update) bool {
		return u.Table.Seats[1].More == 0 && chatSays(u, "Ben plays at the table's own time limits")
	})
}

// A seat given ×2 has twice the round's time in the game; the others keep theirs, and
// are refused once it is up, while the slow seat still plays.
func TestExtraTimeReachesTheGame(t *testing.T) {
	l, clk := clockLobby(t)
	a, err := l.Create(ann, testgame.ID, rules.Options{"timer": "30s", "rounds": "2"}, false)
	if err != nil {
		t.Fatal(err)
	}
	slow := ben
	slow.MoreTime = lobby.LinearMoreTime // as the linear mode's door asks on sitting
	b, err := l.Join(slow, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "Ben's ×2", func(u lobby.Update) bool { return len(u.Table.Seats) == 2 && u.Table.Seats[1].More == 2 })
	started := clk.Now()
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	ub := waitFor(t, b, "Ben's view", func(u lobby.Update) bool { return u.View != nil })
	if d := ub.View.Head().Deadline; !d.Equal(started.Add(60 * time.Second)) {
		t.Fatalf("Ben's deadline %v, want 60 s after the start", d.Sub(started))
	}
	ua := waitFor(t, a, "Ann's view", func(u lobby.Update) bool { return u.View != nil })
	if d := ua.View.Head().Deadline; !d.Equal(started.Add(30 * time.Second)) {
		t.Fatalf("Ann's deadline %v, want 30 s after the start", d.Sub(started))
	}
	clk.Advance(40 * time.Second)
	mustRefuse(t, a, testgame.Pick(1), rules.ErrTimeUp)
	mustAct(t, b, testgame.Pick(2))
	waitFor(t, a, "round 2", func(u lobby.Update) bool { return u.View != nil && u.View.Head().Round == 2 })
}

// The factor is the table's state: after a restart the seat keeps it, and the restored
// game gives the seat the time it had: 60 s more than Ann's (×3 against ×1 of 30 s),
// both moved alike by the downtime.
func TestExtraTimeSurvivesARestart(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, nil)
	a, b := timedTable(t, r1.l)
	code := a.Code()
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	started := c.Now()
	c.Advance(10 * time.Second)
	if err := lobby.Run(a, lobby.ExtraTime{Seat: 1, Factor: 3}); err != nil { // mid-round
		t.Fatal(err)
	}
	u := waitFor(t, b, "Ben's ×3", func(u lobby.Update) bool { return u.Table.Seats[1].More == 3 && u.View != nil })
	if d := u.View.Head().Deadline; !d.Equal(started.Add(90 * time.Second)) {
		t.Fatalf("Ben's deadline %v after the start, want 90 s", d.Sub(started))
	}
	r1.stop()
	c.Advance(5 * time.Minute)
	r2 := start(t, st, c, nil)
	if n, err := r2.l.Restore(context.Background()); err != nil || n != 1 {
		t.Fatalf("Restore = %d, %v; want 1 table", n, err)
	}
	views := map[string]lobby.Update{}
	for _, p := range []lobby.Player{ann, ben} {
		place, err := r2.l.Join(p, code)
		if err != nil {
			t.Fatal(err)
		}
		views[p.Name] = follow(place).until(t, p.Name+"'s view", func(u lobby.Update) bool { return u.View != nil })
	}
	if more := views["Ben"].Table.Seats[1].More; more != 3 {
		t.Fatalf("after the restart Ben's seat has %v", more)
	}
	if d := views["Ben"].View.Head().Deadline.Sub(views["Ann"].View.Head().Deadline); d != 60*time.Second {
		t.Fatalf("after the restart Ben's deadline is %v after Ann's, want 60 s", d)
	}
}

// A failover replays the same log on another node: the pace entry is in it, in order.
func TestExtraTimeIsInTheTableLog(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r := start(t, st, c, nil)
	a, _ := timedTable(t, r.l)
	if err := lobby.Run(a, lobby.ExtraTime{Seat: 1, Factor: 1.5}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	k := kinds(t, st, a.Code())
	at := func(kind string) int {
		for i, x := range k {
			if x == kind {
				return i
			}
		}
		return -1
	}
	if at("pace") < 0 || at("pace") < at("game") || at("pace") > at("act") {
		t.Fatalf("the log %v has no pace entry between the game's start and its first action", k)
	}
}

// A player removed mid-game leaves the seat to a bot at the table's own time limits:
// the extra time was the player's, and a bot needs none.
func TestAKickedPlayersExtraTimeGoesWithThem(t *testing.T) {
	l, clk := clockLobby(t)
	a, err := l.Create(ann, testgame.ID, rules.Options{"timer": "30s", "rounds": "2"}, false)
	if err != nil {
		t.Fatal(err)
	}
	slow := ben
	slow.MoreTime = lobby.LinearMoreTime
	b, err := l.Join(slow, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "Ben's ×2", func(u lobby.Update) bool { return len(u.Table.Seats) == 2 && u.Table.Seats[1].More == 2 })
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, b, "Ben's view", func(u lobby.Update) bool { return u.View != nil })
	if err := lobby.Run(a, lobby.Kick{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a, "a bot in Ben's seat", func(u lobby.Update) bool { return u.Table.Seats[1].Bot })
	if m := u.Table.Seats[1].More; m != 0 {
		t.Errorf("the bot in Ben's seat has %v", m)
	}
	// The game goes on at its own pace: Ann's pick ends the round before Ben's 60 s.
	clk.Advance(10 * time.Second)
	mustAct(t, a, testgame.Pick(1))
	waitFor(t, a, "round 2", func(u lobby.Update) bool { return u.View != nil && u.View.Head().Round == 2 })
}
