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
