package server_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/testgame"
)

func errorText(m map[string]any) string { return fmt.Sprint(m["error"]) }

func TestAPIRequestsAndErrors(t *testing.T) {
	s := e2e.Start(t, nil)
	ann := s.API(t, "ann", e2e.NewKey(t))

	ann.Send(map[string]any{"op": "hello", "name": "Ann", "id": 1})
	if m := ann.Expect("hello"); fmt.Sprint(m["id"]) != "1" || !strings.Contains(fmt.Sprint(m["player"]), "Ann") {
		t.Fatalf("hello: %v", m)
	}
	ann.Send(map[string]any{"op": "hello", "name": "\x1b[2J\u3164"})
	if m := ann.Expect("error"); !strings.Contains(errorText(m), "would show as blank") {
		t.Fatalf("blank name: %v", m)
	}
	ann.Send(map[string]any{"op": "hello", "name": "\x1b[1mX"})
	if m := ann.Expect("error"); !strings.Contains(errorText(m), "2 to 16") {
		t.Fatalf("short name: %v", m)
	}
	ann.Send(map[string]any{"op": "games"})
	if m := ann.Expect("games"); !strings.Contains(fmt.Sprint(m["games"]), testgame.ID) {
		t.Fatalf("games: %v", m)
	}
	for _, tc := range []struct {
		req  any
		want string
	}{
		{`{"op": "nope"}`, "unknown op"},
		{`not json`, "not a JSON object"},
		{`[1,2]`, "not a JSON object"},
		{`{"op":42,"id":7}`, `"op" must be a string`},
		{`{"op":"create","game":"pick","options":{"rounds":3},"id":8}`, `every value in "options" must be a string`},
		{`{"op":"kick","seat":1.5}`, `"seat" must be a whole number`},
		{map[string]any{"op": "start"}, "not at a table"},
		{map[string]any{"op": "join", "code": "QQQQ"}, "no table has that code"},
		{map[string]any{"op": "join", "code": "toolong"}, "not a table code"},
		{map[string]any{"op": "create", "game": "chess"}, "no game has that id"},
		{map[string]any{"op": "create", "game": testgame.ID, "options": map[string]string{"rounds": "7"}}, "must be one of"},
	} {
		ann.Send(tc.req)
		if m := ann.Expect("error"); !strings.Contains(errorText(m), tc.want) || strings.Contains(errorText(m), "Go ") {
			t.Errorf("%v: got %v, want %q", tc.req, m, tc.want)
		} else if strings.Contains(fmt.Sprint(tc.req), `"id":7`) && fmt.Sprint(m["id"]) != "7" {
			t.Errorf("%v: the id is not echoed: %v", tc.req, m)
		}
	}

	// A field of values that is not an object at all is named as itself, not its values.
	ann.Send(`{"op":"create","game":"pick","options":[1,2]}`)
	if m := ann.Expect("error"); !strings.HasPrefix(errorText(m), `"options" must be an object`) {
		t.Errorf("options as a list: %v", m)
	}

	// An error a program may branch on carries its stable code.
	for op, want := range map[string]string{"nope": "lobby.unknown_op", "start": "", "kick": "lobby.missing_field"} {
		ann.Send(map[string]any{"op": op})
		if m := ann.Expect("error"); fmt.Sprint(m["code"]) != want && !(want == "" && m["code"] == nil) {
			t.Errorf("%s: code %v, want %q (%v)", op, m["code"], want, m)
		}
	}
	ann.Send(map[string]any{"op": "join", "code": "QQQQ"})
	if m := ann.Expect("error"); m["code"] != "lobby.no_table" {
		t.Errorf("join QQQQ: %v, want the code lobby.no_table", m)
	}

	ann.Send(map[string]any{"op": "create", "game": testgame.ID, "options": map[string]string{"rounds": "1"}})
	code := fmt.Sprint(ann.Expect("joined")["code"])
	ann.Send(map[string]any{"op": "tables"})
	if m := ann.Expect("tables"); !strings.Contains(fmt.Sprint(m["tables"]), code) {
		t.Fatalf("tables: %v", m)
	}

	ben := s.API(t, "ben", e2e.NewKey(t))
	ben.Send(map[string]any{"op": "join", "code": strings.ToLower(code)})
	ben.Expect("joined")
	ben.Send(map[string]any{"op": "start"})
	if m := ben.Expect("error"); !strings.Contains(errorText(m), "only the host") {
		t.Fatalf("non-host start: %v", m)
	}
	ben.Send(map[string]any{"op": "chat", "text": "hi\x07 there"})
	ben.Expect("ok")
	if m := ann.Until("chat", func(m map[string]any) bool {
		return m["type"] == "chat" && strings.Contains(fmt.Sprint(m["line"]), "hi there")
	}); strings.Contains(fmt.Sprint(m), "\x07") {
		t.Fatalf("chat not cleaned: %v", m)
	}

	ann.Send(map[string]any{"op": "options", "options": map[string]string{"timer": "30s"}})
	ann.Expect("ok")
	ann.Send(map[string]any{"op": "bot"})
	ann.Expect("ok")
	ann.Send(map[string]any{"op": "bot", "remove": true, "seat": 2})
	ann.Expect("ok")
	ann.Send(map[string]any{"op": "kick"})
	if m := ann.Expect("error"); !strings.Contains(errorText(m), `needs "seat"`) {
		t.Fatalf("kick without seat: %v", m)
	}
	ann.Send(map[string]any{"op": "act", "action": map[string]any{"type": "pick", "n": 1}})
	if m := ann.Expect("error"); !strings.Contains(errorText(m), "no game is running") {
		t.Fatalf("act before start: %v", m)
	}
	ann.Send(map[string]any{"op": "start"})
	ann.Expect("ok")
	ann.Send(map[string]any{"op": "act", "action": map[string]any{"type": "pick", "n": 9}})
	if m := ann.Expect("error"); !strings.Contains(errorText(m), "pick 1, 2 or 3") {
		t.Fatalf("bad action: %v", m)
	}
	// A stray field is named, with the fields the action has: not the decoder's words.
	ann.Send(map[string]any{"op": "act", "action": map[string]any{"type": "pick", "n": 1, "seat": 2}})
	if m := ann.Expect("error"); !strings.Contains(errorText(m), `"seat" is not a field of this action: it has "type"`) {
		t.Fatalf("stray field: %v", m)
	}
	ann.Send(map[string]any{"op": "act", "action": map[string]any{"type": "pick", "n": 1}})
	ann.Expect("ok")
	ben.Send(map[string]any{"op": "act", "action": map[string]any{"type": "pick", "n": 2}})
	ben.Expect("ok")
	ann.Until("finished table", func(m map[string]any) bool {
		return m["type"] == "table" && strings.Contains(fmt.Sprint(m["table"]), "state:finished")
	})
	ann.Send(map[string]any{"op": "host", "seat": 1})
	ann.Expect("ok")
	ben.Send(map[string]any{"op": "leave"})
	ben.Expect("ok")
	ann.Until("ben left", func(m map[string]any) bool {
		return m["type"] == "chat" && strings.Contains(fmt.Sprint(m["line"]), "ben left")
	})

	watcher := s.API(t, "watcher", e2e.Guest)
	watcher.Send(map[string]any{"op": "watch", "code": code})
	watcher.Expect("joined")
	if m := watcher.Expect("table"); fmt.Sprint(m["seat"]) != "-1" {
		t.Fatalf("spectator seat: %v", m)
	}
	watcher.Send(map[string]any{"op": "act", "action": map[string]any{"type": "pick", "n": 1}})
	if m := watcher.Expect("error"); !strings.Contains(errorText(m), "spectators cannot play: you can take a seat when this game ends") {
		t.Fatalf("spectator act: %v", m)
	}
	watcher.Send(strings.Repeat("x", 70<<10))
	if m := watcher.Expect("error"); !strings.Contains(errorText(m), "longer than") {
		t.Fatalf("huge line: %v", m)
	}
	// The connection stays usable, at its table, as after any other error: a bot that
	// sent one line too long (a pasted file as chat) had lost its connection and seat.
	watcher.Send(map[string]any{"op": "chat", "text": "still here", "id": 7})
	if m := watcher.Expect("ok"); fmt.Sprint(m["id"]) != "7" {
		t.Fatalf("the request after a huge line: %v", m)
	}
}

// A spectator takes a free seat with "sit"; the host lets a bot play an away seat with
// "stand_in" (only during a game).
func TestAPISpectatorSitsAndStandIn(t *testing.T) {
	s := e2e.Start(t, nil)
	ann := s.API(t, "ann", e2e.NewKey(t))
	ann.Send(map[string]any{"op": "hello", "name": "Ann"})
	ann.Expect("hello")
	ann.Send(map[string]any{"op": "create", "game": testgame.ID})
	code := fmt.Sprint(ann.Expect("joined")["code"])
	ben := s.API(t, "ben", e2e.NewKey(t))
	ben.Send(map[string]any{"op": "hello", "name": "Ann"})
	if m := ben.Expect("error"); !strings.Contains(errorText(m), "Ann is too like the name of a player online now") {
		t.Fatalf("Ann's name to Ben while she is online: %v", m)
	}
	ben.Send(map[string]any{"op": "hello", "name": "Ben"})
	ben.Expect("hello")
	ben.Send(map[string]any{"op": "watch", "code": code})
	ben.Expect("joined")
	ben.Send(map[string]any{"op": "sit"})
	ben.Expect("ok")
	ann.Until("Ben seated", func(m map[string]any) bool {
		return strings.Contains(fmt.Sprint(m), "name:Ben")
	})
	ann.Send(map[string]any{"op": "stand_in", "seat": 1})
	if m := ann.Expect("error"); !strings.Contains(errorText(m), "no game") {
		t.Fatalf("stand_in before a game: %v", m)
	}
	// During a game, for Ben who is here but idle: a bot plays for him until he says
	// he is back ("resume"; acting does it too).
	ann.Send(map[string]any{"op": "start"})
	// A view comes with the game time it was sent at, which deadlines are in (under
	// --game-speed it runs ahead of the wall clock). It may come before or after the ok.
	var v map[string]any
	started := false
	ann.Until("ok, and a view", func(m map[string]any) bool {
		started = started || m["type"] == "ok"
		if m["type"] == "view" {
			v = m
		}
		return started && v != nil
	})
	if n, _ := v["game_no"].(float64); n != 1 {
		t.Errorf("the first game's view says it is game %v; want 1: %v", v["game_no"], v)
	}
	if now, ok := v["now"].(string); !ok {
		t.Errorf("a view without now: %v", v)
	} else if _, err := time.Parse(time.RFC3339Nano, now); err != nil {
		t.Errorf("now %q: %v", now, err)
	}
	ann.Send(map[string]any{"op": "stand_in", "seat": 1})
	ann.Expect("ok")
	ben.Until("a bot plays for Ben", func(m map[string]any) bool {
		return strings.Contains(fmt.Sprint(m), "a bot plays for Ben until they press a key")
	})
	ben.Send(map[string]any{"op": "resume"})
	// The table's line may come before or after the answer.
	ok, back := false, false
	ben.Until("ok, and Ben back", func(m map[string]any) bool {
		ok = ok || m["type"] == "ok"
		back = back || strings.Contains(fmt.Sprint(m), "Ben plays again")
		return ok && back
	})
	// A spectator who comes now gets the game's log so far, once, before the view.
	ann.Send(map[string]any{"op": "act", "action": map[string]any{"type": "pick", "n": 1}})
	ann.Expect("ok")
	cat := s.API(t, "cat", e2e.NewKey(t))
	cat.Send(map[string]any{"op": "watch", "code": code})
	if h := cat.Until("the game's history", func(m map[string]any) bool { return m["type"] == "history" || m["type"] == "view" }); h["type"] != "history" || !strings.Contains(fmt.Sprint(h["log"]), "Ann has picked.") {
		t.Fatalf("the spectator's first game event: %v", h)
	}
}
