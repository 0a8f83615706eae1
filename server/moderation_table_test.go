package server_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/testgame"
	"parlor/server"
	"parlor/store"
)

// The table's moderation ops reach the JSON API like every table op: the host blocks a
// player, who cannot come back until unblocked; a player ignores and reports another.
func TestAPIBlockIgnoreAndReport(t *testing.T) {
	s := e2e.Start(t, nil)
	ann := s.API(t, "ann", e2e.NewKey(t))
	ann.Send(map[string]any{"op": "create", "game": testgame.ID})
	code := fmt.Sprint(ann.Expect("joined")["code"])
	benKey := e2e.NewKey(t)
	ben := s.API(t, "ben", benKey)
	ben.Send(map[string]any{"op": "join", "code": code})
	ben.Expect("joined")

	ben.Send(map[string]any{"op": "ignore", "seat": 0})
	okAnd(ben, "ignored in the table event", func(m map[string]any) bool {
		return m["type"] == "table" && fmt.Sprint(m["ignored"]) == "[ann]"
	})
	ben.Send(map[string]any{"op": "unignore", "name": "ann"})
	ben.Expect("ok")
	ben.Send(map[string]any{"op": "report", "seat": 0})
	if m := ben.Expect("error"); m["code"] != "lobby.missing_field" || !strings.Contains(errorText(m), `needs "reason"`) {
		t.Fatalf("report without reason: %v", m)
	}
	ben.Send(map[string]any{"op": "report", "seat": 0, "reason": "rude"})
	ben.Expect("ok") // the server keeps reports for its admins (admin reports lists them)
	ben.Send(map[string]any{"op": "block", "seat": 0})
	if m := ben.Expect("error"); m["code"] != "lobby.not_host" {
		t.Fatalf("block by a player: %v", m)
	}

	ann.Send(map[string]any{"op": "block", "seat": 1})
	okAnd(ann, "the blocked list", func(m map[string]any) bool {
		return m["type"] == "table" && strings.Contains(fmt.Sprint(m["table"]), "blocked:[ben]")
	})
	if m := ben.Expect("left"); m["why"] != "removed" || !strings.Contains(fmt.Sprint(m["reason"]), "blocked") {
		t.Fatalf("Ben is told %v", m)
	}
	for _, op := range []string{"join", "watch"} {
		ben.Send(map[string]any{"op": op, "code": code})
		if m := ben.Expect("error"); m["code"] != "lobby.blocked" {
			t.Fatalf("blocked %s: %v", op, m)
		}
	}
	ann.Send(map[string]any{"op": "unblock", "name": "Ben"})
	ann.Expect("ok")
	ben.Send(map[string]any{"op": "join", "code": code})
	ben.Expect("joined")
}

// okAnd reads lines until both the request's "ok" and a line for which cond holds came,
// in either order: the table's news may reach the connection before its answer.
func okAnd(a *e2e.API, what string, cond func(map[string]any) bool) {
	ok, seen := false, false
	a.Until(what, func(m map[string]any) bool {
		ok = ok || m["type"] == "ok"
		seen = seen || cond(m)
		return ok && seen
	})
}

// --filter-words replaces the family filter's list, in any language; a list that cannot
// be read stops the server.
func TestTheFilterWordsFileReplacesTheBuiltInList(t *testing.T) {
	file := filepath.Join(t.TempDir(), "words.txt")
	if err := os.WriteFile(file, []byte("# French\nmerde\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := e2e.Start(t, func(c *server.Config) { c.FilterWords = file })
	ann := s.API(t, "ann", e2e.NewKey(t))
	ann.Send(map[string]any{"op": "create", "game": testgame.ID})
	ann.Expect("joined")
	ann.Send(map[string]any{"op": "chat", "text": "Mèrde alors"})
	if m := ann.Expect("error"); m["code"] != "lobby.filtered" || !strings.Contains(errorText(m), "Mèrde") {
		t.Fatalf("a word of the file: %v", m)
	}
	ann.Send(map[string]any{"op": "chat", "text": "oh shit"}) // the built-in list is replaced
	ann.Expect("ok")

	cfg := server.Defaults()
	cfg.Listen, cfg.HTTP, cfg.Web, cfg.DataDir = "127.0.0.1:0", "", "", t.TempDir()
	cfg.FilterWords = filepath.Join(t.TempDir(), "missing.txt")
	st := store.NewMemory()
	defer st.Close()
	if _, err := server.Listen(cfg, st, nil); err == nil || !strings.Contains(err.Error(), "--filter-words") {
		t.Fatalf("a missing list: %v", err)
	}
}

// An ignore is remembered for the player's key: after the player connects again, and
// after the server restarts (SQLite), the ignored player's chat still does not reach
// them, and the table event still lists whom they ignore; unignore forgets it.
func TestIgnoresAreRememberedForTheKey(t *testing.T) {
	open := sqliteOpener(t)
	annKey, benKey := e2e.NewKey(t), e2e.NewKey(t)
	st := open()
	s := e2e.StartNodes(t, []store.Store{st}, func(int, *server.Config) {})[0]
	ben := s.API(t, "ben", benKey)
	ben.Send(map[string]any{"op": "create", "game": testgame.ID})
	code := fmt.Sprint(ben.Expect("joined")["code"])
	ann := s.API(t, "ann", annKey)
	ann.Send(map[string]any{"op": "join", "code": code})
	ann.Expect("joined")
	ann.Send(map[string]any{"op": "ignore", "seat": 0})
	okAnd(ann, "ignored", func(m map[string]any) bool { return m["type"] == "table" && fmt.Sprint(m["ignored"]) == "[ben]" })
	ann.Close()

	// hears tells whether Ann, back at the table, gets Ben's line: Ann's own line after
	// it comes through in either case, so her connection has had every line by then
	// (and the answer to it, so the next answer read is the next request's).
	hears := func(ann, ben *e2e.API, text string) bool {
		ben.Send(map[string]any{"op": "chat", "text": text})
		ben.Expect("ok")
		ann.Send(map[string]any{"op": "chat", "text": "mark " + text})
		heard := false
		okAnd(ann, "Ann's own line", func(m map[string]any) bool {
			line := fmt.Sprint(m["line"])
			heard = heard || m["type"] == "chat" && strings.Contains(line, text) && !strings.Contains(line, "mark")
			return m["type"] == "chat" && strings.Contains(line, "mark "+text)
		})
		return heard
	}
	back := func(s *e2e.Server) *e2e.API {
		a := s.API(t, "ann", annKey)
		a.Send(map[string]any{"op": "join", "code": code})
		a.Expect("joined")
		a.Until("the remembered ignore", func(m map[string]any) bool {
			return m["type"] == "table" && fmt.Sprint(m["ignored"]) == "[ben]"
		})
		return a
	}
	ann = back(s)
	if hears(ann, ben, "after a reconnect") {
		t.Error("Ann heard Ben after connecting again")
	}

	ann.Close()
	ben.Close()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	_ = st.Close()
	st = open()
	t.Cleanup(func() { _ = st.Close() })
	s = e2e.StartNodes(t, []store.Store{st}, func(int, *server.Config) {})[0]
	ben = s.API(t, "ben", benKey)
	ben.Send(map[string]any{"op": "join", "code": code})
	ben.Expect("joined")
	ann = back(s)
	if hears(ann, ben, "after a restart") {
		t.Error("Ann heard Ben after the server restarted")
	}
	ann.Send(map[string]any{"op": "unignore", "name": "Ben"})
	ann.Expect("ok")
	ann.Close()
	ann = s.API(t, "ann", annKey)
	ann.Send(map[string]any{"op": "join", "code": code})
	ann.Expect("joined")
	if !hears(ann, ben, "after unignore") {
		t.Error("Ann did not hear Ben after unignoring him and connecting again")
	}
}

// sqliteOpener opens, each time it is called, one SQLite database in the test's temp
// folder: a server restarted on the same data.
func sqliteOpener(t *testing.T) func() store.Store {
	path := filepath.Join(t.TempDir(), "parlor.db")
	return func() store.Store {
		st, err := store.OpenSQLite(path)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
}
