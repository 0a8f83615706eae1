package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"parlor/store"
)

// moderationTests cover store.Moderation.
var moderationTests = []struct {
	name string
	fn   func(t *testing.T, s store.Store)
}{
	{"BanAddListRemove", testBanAddListRemove},
	{"BanExpires", testBanExpires},
	{"BanInvalid", testBanInvalid},
	{"MuteSetReplaceExpireRemove", testMuteSetReplaceExpireRemove},
	{"Reports", testReports},
	{"AuditNewestFirst", testAuditNewestFirst},
	{"IgnoreSetListRemove", testIgnoreSetListRemove},
	{"IgnoreInvalid", testIgnoreInvalid},
	{"ModerationClosed", testModerationClosed},
}

func mustBan(t *testing.T, s store.Store, b store.Ban) store.Ban {
	t.Helper()
	got, err := s.AddBan(context.Background(), b)
	if err != nil {
		t.Fatalf("AddBan(%+v): %v", b, err)
	}
	return got
}

func mustBans(t *testing.T, s store.Store, now time.Time) []store.Ban {
	t.Helper()
	bs, err := s.Bans(context.Background(), now)
	if err != nil {
		t.Fatalf("Bans: %v", err)
	}
	return bs
}

func banIDs(bs []store.Ban) []int64 {
	var out []int64
	for _, b := range bs {
		out = append(out, b.ID)
	}
	return out
}

func testBanAddListRemove(t *testing.T, s store.Store) {
	ctx := context.Background()
	key := mustBan(t, s, store.Ban{Kind: store.BanKey, Target: fp(1), Reason: "spam", By: fp(9), At: base})
	addr := mustBan(t, s, store.Ban{Kind: store.BanAddr, Target: "2001:db8::/32", Reason: "flood", By: fp(9), At: base, Until: base.Add(time.Hour)})
	if key.ID <= 0 || addr.ID <= key.ID {
		t.Fatalf("IDs %d then %d, want positive and rising", key.ID, addr.ID)
	}
	want := store.Ban{ID: key.ID, Kind: store.BanKey, Target: fp(1), Reason: "spam", By: fp(9), At: ms(base)}
	if key != want {
		t.Errorf("AddBan = %+v, want %+v", key, want)
	}
	got := mustBans(t, s, base)
	if len(got) != 2 || got[0] != want {
		t.Fatalf("Bans = %+v, want %+v first of two", got, want)
	}
	checkTime(t, "ban until", got[1].Until, ms(base.Add(time.Hour)))
	checkTime(t, "ban at", got[0].At, ms(base))
	if err := s.RemoveBan(ctx, key.ID); err != nil {
		t.Fatalf("RemoveBan: %v", err)
	}
	if err := s.RemoveBan(ctx, key.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RemoveBan twice: %v, want ErrNotFound", err)
	}
	if ids := banIDs(mustBans(t, s, base)); !reflect.DeepEqual(ids, []int64{addr.ID}) {
		t.Errorf("after removal: %v, want [%d]", ids, addr.ID)
	}
	// A lifted ban's ID is never given out again.
	again := mustBan(t, s, store.Ban{Kind: store.BanKey, Target: fp(1), Reason: "again", By: fp(9), At: base})
	if again.ID <= addr.ID {
		t.Errorf("new ban ID %d, want above %d", again.ID, addr.ID)
	}
}

func testBanExpires(t *testing.T, s store.Store) {
	until := base.Add(2 * time.Hour)
	b := mustBan(t, s, store.Ban{Kind: store.BanKey, Target: fp(1), Reason: "r", By: fp(9), At: base, Until: until})
	if ids := banIDs(mustBans(t, s, until.Add(-time.Millisecond))); !reflect.DeepEqual(ids, []int64{b.ID}) {
		t.Errorf("just before its end: %v, want [%d]", ids, b.ID)
	}
	if got := mustBans(t, s, until); len(got) != 0 {
		t.Errorf("at its end: %+v, want none", got)
	}
}

func testBanInvalid(t *testing.T, s store.Store) {
	for _, b := range []store.Ban{
		{Kind: "nick", Target: "x", Reason: "r"},
		{Kind: store.BanKey, Reason: "r"},
	} {
		if _, err := s.AddBan(context.Background(), b); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("AddBan(%+v) = %v, want ErrInvalid", b, err)
		}
	}
	if got := mustBans(t, s, base); len(got) != 0 {
		t.Errorf("bans after refusals: %+v", got)
	}
}

func testMuteSetReplaceExpireRemove(t *testing.T, s store.Store) {
	ctx := context.Background()
	if err := s.SetMute(ctx, store.Mute{Player: fp(1), Reason: "shouting", By: fp(9), At: base, Until: base.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMute(ctx, store.Mute{Player: fp(2), Reason: "spam", By: fp(9), At: base}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMute(ctx, store.Mute{Reason: "x"}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("mute without player: %v, want ErrInvalid", err)
	}
	ms1, err := s.Mutes(ctx, base)
	if err != nil || len(ms1) != 2 || ms1[0].Player != fp(1) || ms1[0].Reason != "shouting" || !ms1[0].Until.Equal(ms(base.Add(time.Hour))) {
		t.Fatalf("Mutes = %+v, %v", ms1, err)
	}
	checkTime(t, "mute at", ms1[1].At, ms(base))
	if later, _ := s.Mutes(ctx, base.Add(time.Hour)); len(later) != 1 || later[0].Player != fp(2) {
		t.Errorf("Mutes an hour later = %+v, want only %s", later, fp(2))
	}
	// Muting again replaces: now for good.
	if err := s.SetMute(ctx, store.Mute{Player: fp(1), Reason: "again", By: fp(9), At: base}); err != nil {
		t.Fatal(err)
	}
	if later, _ := s.Mutes(ctx, base.Add(time.Hour)); len(later) != 2 || later[0].Reason != "again" {
		t.Errorf("after replacing: %+v", later)
	}
	if err := s.RemoveMute(ctx, fp(1)); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveMute(ctx, fp(1)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RemoveMute twice: %v, want ErrNotFound", err)
	}
	if left, _ := s.Mutes(ctx, base); len(left) != 1 || left[0].Player != fp(2) {
		t.Errorf("after unmute: %+v", left)
	}
}

func testReports(t *testing.T, s store.Store) {
	ctx := context.Background()
	r1 := store.Report{Table: "ABCD", ByID: fp(1), ByName: "Ann", AboutID: fp(2), AboutName: "Bob", Reason: "rude",
		Chat: []string{"Bob: hi", "Bob: rude words"}, At: base}
	got1, err := s.AddReport(ctx, r1)
	if err != nil {
		t.Fatal(err)
	}
	r2 := r1
	r2.Reason, r2.Chat = "again", nil
	got2, err := s.AddReport(ctx, r2)
	if err != nil {
		t.Fatal(err)
	}
	if got1.ID <= 0 || got2.ID <= got1.ID {
		t.Errorf("report IDs %d then %d", got1.ID, got2.ID)
	}
	if _, err := s.AddReport(ctx, store.Report{ByID: fp(1), AboutID: fp(2)}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("report without reason: %v, want ErrInvalid", err)
	}
	list, err := s.Reports(ctx, 0)
	if err != nil || len(list) != 2 {
		t.Fatalf("Reports = %+v, %v", list, err)
	}
	want := r1
	want.ID, want.At = got1.ID, ms(base)
	if !reflect.DeepEqual(list[1], want) {
		t.Errorf("oldest report = %+v, want %+v", list[1], want)
	}
	if list[0].ID != got2.ID || list[0].Chat == nil || len(list[0].Chat) != 0 {
		t.Errorf("newest report = %+v, want ID %d with no chat lines (not nil)", list[0], got2.ID)
	}
	if one, _ := s.Reports(ctx, 1); len(one) != 1 || one[0].ID != got2.ID {
		t.Errorf("Reports(1) = %+v", one)
	}
	// A report filed again under the call that filed it (a cluster's session sends a
	// call again when its answer did not come) is kept once: the first is returned.
	r3 := r1
	r3.Call, r3.Reason = "node-a.1.7", "cheating"
	got3, err := s.AddReport(ctx, r3)
	if err != nil || got3.ID <= got2.ID || got3.Call != r3.Call {
		t.Fatalf("a report with a call: %+v, %v", got3, err)
	}
	again := r3
	again.At = base.Add(time.Minute)
	if got, err := s.AddReport(ctx, again); !errors.Is(err, store.ErrFiled) || got.ID != got3.ID || !got.At.Equal(ms(base)) {
		t.Errorf("the same call's report again: %+v, %v; want report %d as first filed, and ErrFiled", got, err, got3.ID)
	}
	other := r3
	other.Call = "node-b.1.7"
	if got, err := s.AddReport(ctx, other); err != nil || got.ID <= got3.ID {
		t.Errorf("another call's report: %+v, %v; want a new one", got, err)
	}
	if list, err := s.Reports(ctx, 0); err != nil || len(list) != 4 || list[1].Call != r3.Call || list[2].Call != "" {
		t.Errorf("Reports after a call's report sent twice = %+v, %v; want 4, the call kept", list, err)
	}
}

func testAuditNewestFirst(t *testing.T, s store.Store) {
	ctx := context.Background()
	for i, a := range []string{"ban", "unban", "mute"} {
		if err := s.AddAudit(ctx, store.AuditEntry{At: base, By: fp(9), Action: a, Target: fp(i), Reason: "why " + a}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddAudit(ctx, store.AuditEntry{By: fp(9)}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("entry without action: %v, want ErrInvalid", err)
	}
	all, err := s.Audit(ctx, 0)
	if err != nil || len(all) != 3 || all[0].Action != "mute" || all[2].Action != "ban" {
		t.Fatalf("Audit = %+v, %v", all, err)
	}
	want := store.AuditEntry{At: ms(base), By: fp(9), Action: "ban", Target: fp(0), Reason: "why ban"}
	if all[2] != want {
		t.Errorf("oldest = %+v, want %+v", all[2], want)
	}
	if two, _ := s.Audit(ctx, 2); len(two) != 2 || two[1].Action != "unban" {
		t.Errorf("Audit(2) = %+v", two)
	}
}

func testModerationClosed(t *testing.T, s store.Store) {
	_ = s.Close()
	ctx := context.Background()
	if _, err := s.AddBan(ctx, store.Ban{Kind: store.BanKey, Target: fp(1)}); !errors.Is(err, store.ErrClosed) {
		t.Errorf("AddBan after Close: %v", err)
	}
	if _, err := s.Bans(ctx, base); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Bans after Close: %v", err)
	}
	if err := s.AddAudit(ctx, store.AuditEntry{Action: "ban"}); !errors.Is(err, store.ErrClosed) {
		t.Errorf("AddAudit after Close: %v", err)
	}
	if err := s.SetIgnore(ctx, fp(1), fp(2), "Ben"); !errors.Is(err, store.ErrClosed) {
		t.Errorf("SetIgnore after Close: %v", err)
	}
	if _, err := s.Ignores(ctx, fp(1)); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Ignores after Close: %v", err)
	}
}

func mustIgnores(t *testing.T, s store.Store, by string, want map[string]string) {
	t.Helper()
	got, err := s.Ignores(context.Background(), by)
	if err != nil {
		t.Fatalf("Ignores(%s): %v", by, err)
	}
	if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
		t.Errorf("Ignores(%s) = %v, want %v", by, got, want)
	}
}

// Whom a player ignores is kept per player: set (again, with a newer name), listed,
// removed one at a time; another player's list is their own.
func testIgnoreSetListRemove(t *testing.T, s store.Store) {
	ctx := context.Background()
	mustIgnores(t, s, fp(1), nil)
	for _, ig := range []struct{ by, about, name string }{
		{fp(1), fp(2), "Ben"}, {fp(1), fp(3), "Cy"}, {fp(4), fp(2), "Ben"}, {fp(1), fp(2), "Benny"},
	} {
		if err := s.SetIgnore(ctx, ig.by, ig.about, ig.name); err != nil {
			t.Fatalf("SetIgnore(%v): %v", ig, err)
		}
	}
	mustIgnores(t, s, fp(1), map[string]string{fp(2): "Benny", fp(3): "Cy"})
	mustIgnores(t, s, fp(4), map[string]string{fp(2): "Ben"})
	if err := s.RemoveIgnore(ctx, fp(1), fp(2)); err != nil {
		t.Fatalf("RemoveIgnore: %v", err)
	}
	if err := s.RemoveIgnore(ctx, fp(1), fp(2)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RemoveIgnore again: %v, want ErrNotFound", err)
	}
	if err := s.RemoveIgnore(ctx, fp(5), fp(2)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RemoveIgnore of a player who ignores nobody: %v, want ErrNotFound", err)
	}
	mustIgnores(t, s, fp(1), map[string]string{fp(3): "Cy"})
	mustIgnores(t, s, fp(4), map[string]string{fp(2): "Ben"})
	if err := s.SetIgnore(ctx, fp(1), fp(2), "Ben"); err != nil { // after a removal
		t.Fatalf("SetIgnore after RemoveIgnore: %v", err)
	}
	mustIgnores(t, s, fp(1), map[string]string{fp(2): "Ben", fp(3): "Cy"})
}

func testIgnoreInvalid(t *testing.T, s store.Store) {
	ctx := context.Background()
	for _, ig := range [][2]string{{"", fp(2)}, {fp(1), ""}, {fp(1), fp(1)}} {
		if err := s.SetIgnore(ctx, ig[0], ig[1], "X"); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("SetIgnore(%q, %q): %v, want ErrInvalid", ig[0], ig[1], err)
		}
	}
	mustIgnores(t, s, fp(1), nil)
}
