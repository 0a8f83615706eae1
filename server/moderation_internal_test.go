package server

import (
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"

	"parlor/internal/testkit/testclock"
	"parlor/lobby"
	"parlor/store"
)

// TestModeratorChecks: the checks the door and the tables make, by key, by address
// (IPv4, IPv6, IPv4 in IPv6), and mutes, each until its end on the clock.
func TestModeratorChecks(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	clock := testclock.New(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	m := newModerator(st, clock.Now, log.New(nil))
	var enforced []int64
	m.enforce = func(b store.Ban) { enforced = append(enforced, b.ID) }
	now := clock.Now()
	k, _ := st.AddBan(ctx, store.Ban{Kind: store.BanKey, Target: "SHA256:a", Reason: "r", At: now, Until: now.Add(time.Hour)})
	a4, _ := st.AddBan(ctx, store.Ban{Kind: store.BanAddr, Target: "203.0.113.0/24", Reason: "r", At: now})
	a6, _ := st.AddBan(ctx, store.Ban{Kind: store.BanAddr, Target: "2001:db8::/32", Reason: "r", At: now})
	_ = st.SetMute(ctx, store.Mute{Player: "SHA256:m", Reason: "loud", At: now, Until: now.Add(time.Minute)})
	if err := m.refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if err := m.refresh(ctx); err != nil { // a ban is enforced once
		t.Fatal(err)
	}
	if len(enforced) != 3 {
		t.Errorf("enforced %v, want each of the three bans once", enforced)
	}
	for host, want := range map[string]int64{"203.0.113.7": a4.ID, "::ffff:203.0.113.7": a4.ID, "2001:db8:1::5": a6.ID,
		"203.0.114.1": 0, "2001:db9::1": 0, "not an address": 0} {
		b, ok := m.addrBan(host)
		if ok != (want != 0) || ok && b.ID != want {
			t.Errorf("addrBan(%q) = %d, %v; want %d", host, b.ID, ok, want)
		}
	}
	if b, ok := m.keyBan("SHA256:a"); !ok || b.ID != k.ID {
		t.Errorf("keyBan = %v, %v", b, ok)
	}
	if _, ok := m.keyBan("SHA256:b"); ok {
		t.Error("an unbanned key is banned")
	}
	if reason, until, ok := m.muted("SHA256:m"); !ok || reason != "loud" || !until.Equal(now.Add(time.Minute)) {
		t.Errorf("muted = %q %v %v", reason, until, ok)
	}
	clock.Advance(time.Minute)
	if _, _, ok := m.muted("SHA256:m"); ok {
		t.Error("a mute outlived its end")
	}
	clock.Advance(time.Hour)
	if _, ok := m.keyBan("SHA256:a"); ok {
		t.Error("a timed ban outlived its end")
	}
	if _, ok := m.addrBan("203.0.113.7"); !ok {
		t.Error("a ban for good ended")
	}
}

func TestParseDurationAndCIDR(t *testing.T) {
	for in, want := range map[string]time.Duration{"30m": 30 * time.Minute, "2h": 2 * time.Hour, "1d": 24 * time.Hour, "1w": 7 * 24 * time.Hour, "260w": 260 * 7 * 24 * time.Hour} {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0m", "1s", "261w", "-1h", "1.5h", "h", "99999999w"} {
		if _, err := parseDuration(bad); err == nil {
			t.Errorf("parseDuration(%q) passed", bad)
		}
	}
	for in, want := range map[string]string{"203.0.113.9/24": "203.0.113.0/24", "203.0.113.9": "203.0.113.9/32",
		"2001:db8::1/32": "2001:db8::/32", "::ffff:10.0.0.0/104": "10.0.0.0/8", "2001:db8::1": "2001:db8::1/128"} {
		if got, err := parseCIDR(in); err != nil || got.String() != want {
			t.Errorf("parseCIDR(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "10.0.0.0/33", "2001:db8::/129", "fe80::1%eth0", "example.com", "10.0.0"} {
		if _, err := parseCIDR(bad); err == nil {
			t.Errorf("parseCIDR(%q) passed", bad)
		}
	}
}

// TestReportsAndMutesReachTheLobbyHooks: the lobby's Report hook files a report in the
// store (the console lists it, the audit log and parlor_reports_total count it), a
// report without a reason is refused, and the Muted hook answers for a muted player.
func TestReportsAndMutesReachTheLobbyHooks(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	cfg := Defaults()
	cfg.Listen, cfg.HTTP, cfg.Web, cfg.DataDir = "127.0.0.1:0", "", "", t.TempDir()
	admin := lobby.Player{ID: "SHA256:" + strings.Repeat("a", 43), Name: "Boss", Addr: "127.0.0.1"}
	vic := "SHA256:" + strings.Repeat("v", 43)
	cfg.Admins = []string{admin.ID}
	s, err := Listen(cfg, st, log.New(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.Serve(sctx) }()
	t.Cleanup(func() { stop(); <-done })

	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	r := lobby.Report{Table: "ABCD", ByID: admin.ID, ByName: "Boss", AboutID: vic, AboutName: "Vic", Reason: "slurs",
		Chat: []lobby.ChatLine{{At: at, From: "Vic", Text: "bad words"}}, At: at, Call: "node-a.1.3"}
	if err := s.fileReport(ctx, r); err != nil {
		t.Fatal(err)
	}
	// The same call again (a cluster's session's second try) is answered ok, and kept,
	// counted and audited once.
	if err := s.fileReport(ctx, r); err != nil {
		t.Errorf("the same call's report again: %v", err)
	}
	if audit, _ := st.Audit(ctx, 0); len(audit) != 1 {
		t.Errorf("audit after a report and its call again = %+v; want one entry", audit)
	}
	r.Call, r.Reason = "", ""
	if err := s.fileReport(ctx, r); err == nil || !strings.Contains(err.Error(), "reason") {
		t.Errorf("a report without a reason: %v", err)
	}
	stored, _ := st.Reports(ctx, 0)
	if len(stored) != 1 || stored[0].Reason != "slurs" || len(stored[0].Chat) != 1 || stored[0].Chat[0] != "12:00 Vic: bad words" {
		t.Fatalf("reports stored = %+v", stored)
	}
	lines, err := s.adminRun(ctx, admin, []string{"reports"})
	if err != nil || len(lines) != 1 || !strings.Contains(lines[0], "ABCD\tBoss "+admin.ID+"\tVic "+vic+"\tslurs") {
		t.Errorf("admin reports = %q, %v", lines, err)
	}
	rec := httptest.NewRecorder()
	s.metrics.handler(func() error { return nil }).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(rec.Body.String(), "parlor_reports_total 1\n") {
		t.Error("parlor_reports_total is not 1")
	}

	if _, _, muted := s.mod.muted(vic); muted {
		t.Fatal("muted before any mute")
	}
	_ = st.SavePlayer(ctx, store.Player{ID: vic, Name: "Vic", FirstSeen: at, LastSeen: at})
	if _, err := s.adminRun(ctx, admin, []string{"mute", vic, "for", "1h", "slurs"}); err != nil {
		t.Fatal(err)
	}
	if reason, until, muted := s.mod.muted(vic); !muted || reason != "slurs" || until.IsZero() {
		t.Errorf("Muted = %q, %v, %v after a mute", reason, until, muted)
	}
}
