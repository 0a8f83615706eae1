package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
)

// TestMoreTimeForOnePlayerOverSSH: the host gives Ben ×3 with T on his seat; both see
// it in the seat list, Ben's clock says it; once Ann's 30 s are up she may no longer
// pick, while Ben still may, and his pick ends the round.
func TestMoreTimeForOnePlayerOverSSH(t *testing.T) {
	t.Parallel()
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Pick")
	setOption(t, ann, "Time limit", "30s")
	ben, _ := newPlayer(t, s, "Ben")
	joinTable(t, ben, code)
	ann.WaitFor("Seats 2/4")
	ann.PressUntil("tab", "▸ Seats", 4)
	ann.PressSeen("down") // Ben's seat
	for _, f := range []string{"×1.5", "×2", "×3"} {
		ann.Press("T")
		ann.WaitFor("Ben " + f)
	}
	ben.WaitFor("Ben ×3 ← you", "gave Ben more time: ×3")
	ann.Press("s")
	ben.WaitFor("Pick · table "+code, "left (×3)")
	ann.WaitFor("your time is up") // 30 s of game time pass while the test waits
	if scr := ben.Screen(); !strings.Contains(scr, "left (×3)") || !strings.Contains(scr, "Round 1 of 2") {
		t.Fatalf("Ben's time ended with Ann's:\n%s", scr)
	}
	ann.Press("1")
	ann.WaitFor("Your time for this is up")
	ben.Press("2")
	ben.WaitFor("Round 2 of 2")
	ann.WaitFor("Round 2 of 2")
}

// TestAPIExtraTime: the op through the JSON API, its refusals by code, and the seat's
// factor in the table event.
func TestAPIExtraTime(t *testing.T) {
	t.Parallel()
	s := e2e.Start(t, nil)
	ann := s.API(t, "ann", e2e.NewKey(t))
	ann.Send(map[string]any{"op": "hello", "name": "Ann"})
	ann.Expect("hello")
	ann.Send(map[string]any{"op": "create", "game": testgame.ID})
	ann.Expect("joined")
	ann.Send(map[string]any{"op": "extra_time", "seat": 0, "factor": 4})
	if m := ann.Expect("error"); m["code"] != "rules.bad_factor" {
		t.Fatalf("factor 4: %v", m)
	}
	ann.Send(map[string]any{"op": "extra_time", "seat": 3, "factor": 2})
	if m := ann.Expect("error"); m["code"] != "lobby.bad_seat" {
		t.Fatalf("seat 3 of 1: %v", m)
	}
	ann.Send(map[string]any{"op": "extra_time", "seat": 0, "factor": 1.5})
	ok, shown := false, false // the table event may come before or after the answer
	ann.Until("ok, and the seat's factor", func(m map[string]any) bool {
		ok = ok || m["type"] == "ok"
		shown = shown || (m["type"] == "table" && strings.Contains(fmt.Sprint(m["table"]), "more:1.5"))
		return ok && shown
	})
}

// TestExtraTimeSurvivesAFailover: the owner of a table dies mid-round; on the node that
// takes the table over Ben still has ×3: his seat says so, and his deadline stays the
// round's start plus three times the limit, 60 s after Ann's.
func TestExtraTimeSurvivesAFailover(t *testing.T) {
	t.Parallel()
	c := startClusterWith(t, 2, nil)
	ann := lobby.Player{ID: "SHA256:more-ann", Name: "Ann"}
	ben := lobby.Player{ID: "SHA256:more-ben", Name: "Ben"}
	host, err := c.nodes[0].Lobby().Create(ann, testgame.ID, rules.Options{"timer": "30s", "rounds": "2"}, false)
	if err != nil {
		t.Fatal(err)
	}
	code := host.Code()
	joinVia(t, c, 1, ben, code)
	if err := lobby.Run(host, lobby.ExtraTime{Seat: 1, Factor: 3}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(host, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	c.kill(0)
	seen := func(p lobby.Player) lobby.Update {
		place := joinVia(t, c, 1, p, code)
		ctx, cancel := context.WithTimeout(context.Background(), e2e.Wait)
		defer cancel()
		for {
			u, ok, why := place.Next(ctx)
			if !ok {
				t.Fatalf("%s's place closed after the failover: %v", p.Name, why)
			}
			if u.View != nil && len(u.Table.Seats) == 2 {
				return u
			}
		}
	}
	ua, ub := seen(ann), seen(ben)
	if ub.Table.Seats[1].More != 3 {
		t.Fatalf("after the failover Ben's seat has %v, want ×3", ub.Table.Seats[1].More)
	}
	if d := ub.View.Head().Deadline.Sub(ua.View.Head().Deadline); d != 60*time.Second {
		t.Fatalf("after the failover Ben's deadline is %v after Ann's, want 60 s (×3 of a 30 s limit)", d)
	}
}
