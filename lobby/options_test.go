package lobby_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"parlor/assets"
	"parlor/lobby"
	"parlor/rules"
	"parlor/rules/topfive"
	"parlor/store"
)

// optionKeys lists the options' keys, in order.
func optionKeys(opts []rules.Option) []string {
	var keys []string
	for _, o := range opts {
		keys = append(keys, o.Key)
	}
	return keys
}

// Every game has the away players option, the table's rather than the game's: listed
// after the game's own options (bot skill last among them) and before the deck, in the
// list of games and at every table, and a bot after 60 s unless the host chooses else.
func TestEveryGameHasTheAwayOption(t *testing.T) {
	l, _ := packLobby(t)
	for _, spec := range lobby.Games() {
		keys := optionKeys(spec.Options)
		if n := len(keys); n < 2 || keys[n-2] != rules.OptBots || keys[n-1] != lobby.OptAway {
			t.Errorf("%s is listed with the options %v: want bot skill, then away players, last", spec.ID, keys)
		}
		host := lobby.Player{ID: "SHA256:" + spec.ID, Name: "Host"}
		if _, err := l.Create(host, spec.ID, rules.Options{lobby.OptAway: "never"}, false); !errors.Is(err, rules.ErrBadOption) {
			t.Errorf("%s: an away option of \"never\" gave %v", spec.ID, err)
		}
		for _, away := range []string{"", lobby.AwayHost} {
			var opts rules.Options
			if away != "" {
				opts = rules.Options{lobby.OptAway: away}
			}
			a, err := l.Create(host, spec.ID, opts, false)
			if err != nil {
				t.Fatalf("%s: %v", spec.ID, err)
			}
			u := waitFor(t, a, "the table's options", func(u lobby.Update) bool { return len(u.Table.Choices) > 0 })
			want := away
			if want == "" {
				want = lobby.AwayBot
			}
			if got := u.Table.Options[lobby.OptAway]; got != want {
				t.Errorf("%s: a table created with %v has away players %q, want %q", spec.ID, opts, got, want)
			}
			keys := optionKeys(u.Table.Choices)
			i := slices.Index(keys, lobby.OptAway)
			if i < 1 || keys[i-1] != rules.OptBots || i+1 < len(keys) && keys[i+1] != lobby.OptDeck {
				t.Errorf("%s: the table's choices are %v: want away players after bot skill, before the deck", spec.ID, keys)
			}
			lobby.Run(a, lobby.Leave{})
		}
	}
}

// A table log written while away players was one of the game's options has it among the
// options its game started with, which Top Five, checking its options again, would
// refuse: the game comes back all the same, with the table's choice.
func TestALogWithAwayAmongTheGamesOptionsRestores(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, assets.Load)
	a, err := r1.l.Create(ann, topfive.ID, rules.Options{lobby.OptAway: lobby.AwayHost}, false)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := lobby.Run(a, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, a, "the game", func(u lobby.Update) bool { return u.View != nil })
	r1.stop()

	// The same log, with the game's options as an older build wrote them.
	ctx := context.Background()
	es, err := st.ReadTable(ctx, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	old, edited := store.NewMemory(), 0
	for _, e := range es {
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(e.Data, &rec); err != nil {
			t.Fatal(err)
		}
		if string(rec["kind"]) == `"game"` {
			var g map[string]json.RawMessage
			var opts rules.Options
			if err := json.Unmarshal(rec["game"], &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(g["options"], &opts); err != nil {
				t.Fatal(err)
			}
			opts[lobby.OptAway] = lobby.AwayHost
			g["options"], _ = json.Marshal(opts)
			rec["game"], _ = json.Marshal(g)
			e.Data, _ = json.Marshal(rec)
			edited++
		}
		if err := old.AppendTables(ctx, []store.TableEntry{e}); err != nil {
			t.Fatal(err)
		}
	}
	if edited != 1 {
		t.Fatalf("%d game entries in the log, want 1", edited)
	}

	r2 := start(t, old, c, assets.Load)
	if n, err := r2.l.Restore(ctx); err != nil || n != 1 {
		t.Fatalf("Restore = %d, %v; want the table", n, err)
	}
	back, err := r2.l.Join(ann, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, back, "the restored game", func(u lobby.Update) bool { return u.View != nil })
	if got := u.Table.Options[lobby.OptAway]; got != lobby.AwayHost {
		t.Errorf("the restored table has away players %q, want %q", got, lobby.AwayHost)
	}
}
