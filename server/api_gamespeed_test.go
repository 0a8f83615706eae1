package server_test

import (
	"fmt"
	"testing"
	"time"

	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/server"
)

// timeIn reads the time at key of an API event (or of the part of it at path).
func timeIn(t *testing.T, m map[string]any, key string, path ...string) time.Time {
	t.Helper()
	for _, p := range path {
		m, _ = m[p].(map[string]any)
	}
	s, ok := m[key].(string)
	if !ok {
		t.Fatalf("no %s in %v", key, m)
	}
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("%s %q: %v", key, s, err)
	}
	return at
}

// Under --game-speed game time runs years ahead of the wall clock; the API's times are
// the wall clock's all the same: a chat line's at, a view's now, an away player's
// away_since, and a deadline, which comes as soon as the sped-up timer runs out (a 30 s
// limit at speed 20 in a second and a half).
func TestAPITimesAreTheWallClocksUnderAGameSpeed(t *testing.T) {
	s := e2e.Start(t, func(c *server.Config) { c.Clock = lobby.Sped(20) })
	ann := s.API(t, "ann", e2e.NewKey(t))
	ann.Send(map[string]any{"op": "hello", "name": "Ann"})
	ann.Expect("hello")
	ann.Send(map[string]any{"op": "create", "game": testgame.ID, "options": map[string]string{"rounds": "3", "timer": "30s"}})
	code := fmt.Sprint(ann.Expect("joined")["code"])

	before := time.Now()
	ann.Send(map[string]any{"op": "chat", "text": "what time is it?"})
	line := ann.Until("the line", func(m map[string]any) bool {
		l, _ := m["line"].(map[string]any)
		return m["type"] == "chat" && l["text"] == "what time is it?"
	})
	if at := timeIn(t, line, "at", "line"); at.Before(before) || at.After(time.Now()) {
		t.Errorf("the line was said at %v, not between %v and now", at, before)
	}

	ben := s.API(t, "ben", e2e.NewKey(t))
	ben.Send(map[string]any{"op": "join", "code": code})
	ben.Expect("joined")
	before = time.Now()
	ann.Send(map[string]any{"op": "start"})
	v := ann.Until("a view", func(m map[string]any) bool { return m["type"] == "view" })
	now, deadline := timeIn(t, v, "now"), timeIn(t, v, "deadline", "view")
	if now.Before(before) || now.After(time.Now()) {
		t.Errorf("the view was sent at %v, not between %v and now", now, before)
	}
	if left := deadline.Sub(now); left > 1500*time.Millisecond {
		t.Errorf("deadline %v is %v after now %v: a 30 s limit at speed 20 runs out in 1.5 s", deadline, left, now)
	}

	before = time.Now()
	ben.Close()
	var benSeat map[string]any
	ann.Until("Ben away", func(m map[string]any) bool {
		table, _ := m["table"].(map[string]any)
		seats, _ := table["seats"].([]any)
		if len(seats) > 1 {
			benSeat, _ = seats[1].(map[string]any)
		}
		return benSeat["away_since"] != nil
	})
	if since := timeIn(t, benSeat, "away_since"); since.Before(before) || since.After(time.Now()) {
		t.Errorf("Ben is away since %v, not between %v and now", since, before)
	}
}
