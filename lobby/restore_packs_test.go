package lobby_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"parlor/assets"
	"parlor/internal/testkit/packtest"
	"parlor/lobby"
	"parlor/packs"
	"parlor/rules"
	"parlor/rules/topfive"
	"parlor/store"
)

// startWithPacks is a run of the server with the built-in content and a pack library.
func startWithPacks(t *testing.T, st store.TableLog, c *handClock, lib *packs.Library) *run {
	t.Helper()
	return startConfig(t, lobby.Config{Log: st, Clock: c, Content: assets.Load, Packs: lib})
}

// restartWithPacks is the next run, which brings the one table of the log back.
func restartWithPacks(t *testing.T, st store.TableLog, c *handClock, lib *packs.Library) *run {
	t.Helper()
	r := startWithPacks(t, st, c, lib)
	if n, err := r.l.Restore(context.Background()); err != nil || n != 1 {
		t.Fatalf("Restore = %d, %v; want 1 table", n, err)
	}
	return r
}

// TestRestoreKeepsAPackTablesDeck: a table playing a pack comes back after a restart
// with the same cards even though the pack was removed meanwhile: every view is what it
// was, the deck, the packs shared with the table and the content option are kept, and
// the host may still choose the table's copy of the pack.
func TestRestoreKeepsAPackTablesDeck(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	lib := &packs.Library{Store: store.NewMemory()}
	// Adult topics the family filter (the default content option) leaves out: the game's
	// deck is the pack as filtered, which the restored game must deal from too.
	addPack(t, lib, ann.ID, "topfive-topics", "Übungen", packtest.Topics(30)+"Grown-up topic "+rules.AdultTag+"\n")
	themen := addPack(t, lib, ben.ID, "topfive-topics", "Themen", packtest.Topics(12))

	r1 := startWithPacks(t, st, c, lib)
	a, err := r1.l.Create(ann, topfive.ID, rules.Options{lobby.OptDeck: "Übungen"}, false)
	if err != nil {
		t.Fatal(err)
	}
	code := a.Code()
	b, err := r1.l.Join(ben, code)
	if err != nil {
		t.Fatal(err)
	}
	if err := r1.l.Share(ben, code, themen); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.AddBot{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	// One move before the crash: the replay applies it to the pack's topics.
	ua := waitFor(t, a, "Ann's first round", func(u lobby.Update) bool { return u.View != nil })
	v := ua.View.(topfive.View)
	marker := 0
	if v.Role == topfive.RoleHonour {
		marker = -1
	}
	if err := lobby.Run(a, lobby.ActOf(topfive.NewRank([topfive.Hand]int{1, 2, 3, 4, 5}, marker))); err != nil {
		t.Fatal(err)
	}
	spec, err := r1.l.Watch(cat, code)
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]*seen{"ann": follow(a), "ben": follow(b), "spectator": follow(spec)}
	before["ann"].until(t, "Ann's ranking", func(u lobby.Update) bool { return u.View != nil && u.View.(topfive.View).Mine != nil })
	r1.stop()
	last := map[string]lobby.Update{}
	for who, s := range before {
		u, _ := s.final(t)
		last[who] = u
	}
	if got := viewJSON(t, last["ann"].View, true); !strings.Contains(got, "Übung Nummer") || strings.Contains(got, "Grown-up") {
		t.Fatalf("the game did not deal the filtered pack before the restart: %s", got)
	}

	// The packs are gone by the time parlor is back.
	for _, p := range []struct{ owner, name string }{{ann.ID, "Übungen"}, {ben.ID, "Themen"}} {
		if err := lib.Remove(context.Background(), p.owner, p.name); err != nil {
			t.Fatal(err)
		}
	}
	c.Advance(time.Minute)
	r2 := restartWithPacks(t, st, c, lib)
	a2, err := r2.l.Join(ann, code)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := r2.l.Join(ben, code)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := r2.l.Watch(cat, code)
	if err != nil {
		t.Fatal(err)
	}
	after := map[string]*seen{"ann": follow(a2), "ben": follow(b2), "spectator": follow(s2)}
	for who, s := range after {
		u := s.until(t, who+"'s view", func(u lobby.Update) bool { return u.View != nil && !u.Table.Seats[1].Away })
		want := last[who]
		if got, w := viewJSON(t, u.View, false), viewJSON(t, want.View, false); got != w {
			t.Errorf("%s's view after the restart:\n got %s\nwant %s", who, got, w)
		}
		got, w := tableOf(u.Table), tableOf(want.Table)
		if who == "ann" {
			// The host's deck choices list her own packs, and hers is gone: only the
			// table's copy is left to choose.
			if cs := deckChoices(t, u); !slices.Contains(cs, "Übungen") || slices.Contains(cs, "mix: Übungen") {
				t.Errorf("the host's deck choices after the pack was removed: %q", cs)
			}
			got.Choices, w.Choices = nil, nil
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s's table after the restart:\n got %+v\nwant %+v", who, got, w)
		}
	}
	opts := after["ben"].latest().Table.Options
	if opts[lobby.OptDeck] != "Übungen" || opts[lobby.OptContent] != lobby.ContentFamily {
		t.Errorf("deck options after the restart: %v", opts)
	}
	if cs := deckChoices(t, after["ben"].latest()); !slices.Contains(cs, "Themen (Ben)") {
		t.Errorf("the pack Ben shared is gone from the table: %q", cs)
	}
}

// TestRestoredTableStartsWithItsCopyOfAPack: a waiting table that chose a pack, restarted
// after the pack was removed, starts its game with the table's copy.
func TestRestoredTableStartsWithItsCopyOfAPack(t *testing.T) {
	st, c := store.NewMemory(), newClock()
	lib := &packs.Library{Store: store.NewMemory()}
	addPack(t, lib, ann.ID, "topfive-topics", "Übungen", packtest.Topics(30))
	r1 := startWithPacks(t, st, c, lib)
	a, err := r1.l.Create(ann, topfive.ID, rules.Options{lobby.OptDeck: "Übungen", lobby.OptContent: lobby.ContentAll}, false)
	if err != nil {
		t.Fatal(err)
	}
	code := a.Code()
	for range 2 {
		if err := lobby.Run(a, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	r1.stop()
	if err := lib.Remove(context.Background(), ann.ID, "Übungen"); err != nil {
		t.Fatal(err)
	}
	r2 := restartWithPacks(t, st, c, lib)
	a2, err := r2.l.Join(ann, code)
	if err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a2, "the table", func(u lobby.Update) bool { return len(u.Table.Seats) == 3 })
	if o := u.Table.Options; o[lobby.OptDeck] != "Übungen" || o[lobby.OptContent] != lobby.ContentAll {
		t.Errorf("options after the restart: %v", o)
	}
	if err := lobby.Run(a2, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if v := gameJSON(t, a2); strings.Count(v, "Übung Nummer") != topfive.Hand {
		t.Errorf("the restored table did not deal its pack: %s", v)
	}
}
