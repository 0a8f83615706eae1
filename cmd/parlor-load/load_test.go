package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"parlor/server"
)

// TestMain doubles as the child server: parlor-load starts its server by running its own
// binary again, which under go test is this test binary.
func TestMain(m *testing.M) {
	if mode := os.Getenv(serveEnv); mode != "" {
		os.Exit(serveChild(mode))
	}
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("parlor/internal/testkit/sshterm.answer"))
}

// TestTinyComparedRun runs the generator at its smallest size against parlor and the
// bare server, as an operator would with -compare -json -profile -trace, and checks
// every figure it reports is there and sane, and that the profiles, the busy phase's
// execution trace and every action's latency were written for both.
func TestTinyComparedRun(t *testing.T) {
	t.Parallel() // its own servers; the run's phases are timed, not CPU-bound
	var out, log bytes.Buffer
	dir := t.TempDir()
	code := run([]string{"-compare", "-json", "-players", "7", "-login-rate", "40",
		"-every", "250ms", "-duration", "2s", "-idle", "500ms", "-warmup", "1s", "-limit", "3m", "-profile", dir, "-trace"}, &out, &log)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, log.String())
	}
	var reps []Report
	if err := json.Unmarshal(out.Bytes(), &reps); err != nil {
		t.Fatalf("%v in %s", err, out.String())
	}
	if len(reps) != 2 || reps[0].Server != kindParlor || reps[1].Server != kindBare {
		t.Fatalf("want a parlor then a bare report, got %+v", reps)
	}
	for _, r := range reps {
		checkFigures(t, r, 7, 1)
		// The second of warm-up acted too, but only the busy phase's 2 s are measured:
		// at most one action per 250 ms, the one at its start included.
		if r.Warmup != time.Second || r.Latency.Count > 9 {
			t.Errorf("%s: warm-up %s, %d actions measured; want 1s and at most 9 (the busy phase's)", r.Server, r.Warmup, r.Latency.Count)
		}
		if _, err := os.Stat(filepath.Join(dir, r.Server+"-busy.cpu.pprof")); err != nil {
			t.Errorf("%s: no busy profile: %v", r.Server, err)
		}
		if tr, err := os.ReadFile(filepath.Join(dir, r.Server+"-busy.trace.out")); err != nil || !bytes.HasPrefix(tr, []byte("go 1.")) || len(tr) < 1000 {
			t.Errorf("%s: no execution trace of the busy phase (%d bytes, %v)", r.Server, len(tr), err)
		}
		checkLatencies(t, filepath.Join(dir, r.Server+"-busy.latencies.tsv"), r.Latency.Count, 2*time.Second)
	}
}

// checkLatencies checks a busy phase's latencies file: a heading, then one line per
// action, in the order they started, within the phase, each with its latency.
func checkLatencies(t *testing.T, path string, count int, phase time.Duration) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Error(err)
		return
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != count+2 || !strings.HasPrefix(lines[0], "# ") || !strings.HasPrefix(lines[1], "# ") {
		t.Errorf("%s: %d lines; want two lines of heading and %d actions:\n%s", path, len(lines), count, data)
		return
	}
	var uptime float64
	if _, err := fmt.Sscanf(lines[0], "# the busy phase began %f s after the server started", &uptime); err != nil || uptime <= 0 {
		t.Errorf("%s: heading %q; want the server's uptime at the start of the phase", path, lines[0])
	}
	last := -1.0
	for _, l := range lines[2:] {
		at, lat, ok := strings.Cut(l, "\t")
		s, err1 := strconv.ParseFloat(at, 64)
		ms, err2 := strconv.ParseFloat(lat, 64)
		if !ok || err1 != nil || err2 != nil || s < last || s > phase.Seconds() || ms <= 0 {
			t.Errorf("%s: line %q; want seconds into the phase, in order, and milliseconds", path, l)
			return
		}
		last = s
	}
}

// checkFigures checks that r has every figure a run reports, sane, for players at
// tables, and that every action was shown on every screen.
func checkFigures(t *testing.T, r Report, players, tables int) {
	t.Helper()
	if r.Players != players || r.Tables != tables {
		t.Errorf("%s: %d players at %d tables; want %d at %d", r.Server, r.Players, r.Tables, players, tables)
	}
	l := r.Latency
	if l.Count < 3 || l.Never != 0 || l.P50 <= 0 || l.P50 > l.P90 || l.P90 > l.P99 || l.P99 > l.Max || l.Max == Never {
		t.Errorf("%s: latency %+v; want a few actions, all shown, ordered percentiles", r.Server, l)
	}
	if f := r.FirstScreen; f.Count != players || f.P50 <= 0 || f.P99 < f.P50 || r.LoginsPerSecond <= 0 {
		t.Errorf("%s: first screens %+v at %.1f logins/s; want %d logins", r.Server, f, r.LoginsPerSecond, players)
	}
	// parlor-load started the server, so it read its collector's trace (gctrace.go).
	if sl := r.Slow; !sl.Traced || sl.Over > l.Count || sl.Near > sl.Over {
		t.Errorf("%s: slow actions %+v of %d; want the server's trace read", r.Server, sl, l.Count)
	}
	// CPU per action is idle CPU subtracted from busy CPU, both read in 10 ms clock
	// ticks: at this size it is noise, and may even come out below zero.
	if !r.Measured || r.RSSPerSessionMiB <= 0 || r.IdleCPUPerSession < 0 ||
		r.Goroutines < players || r.GoroutinesPerSession <= 0 {
		t.Errorf("%s: server figures %+v; want memory, CPU and goroutines per session", r.Server, r)
	}
	// Six per session (docs/performance.md, "Goroutines per session"), and two per
	// table (its actor and its journal's writer). The count is the server's now less
	// its count before the first login, so it also holds the few the server starts
	// for itself meanwhile: a renderer per processor, the idle profile's writer, the
	// metrics scrape's connection, a frame's timer in flight. At seven players those
	// few were 0.6 a session, and a busy machine (CI) once made them 1.0: so they have
	// a budget of their own, and one more goroutine per session still fails.
	if r.Server == kindParlor {
		own := runtime.GOMAXPROCS(0) + 6
		if got, budget := r.GoroutinesPerSession*float64(players), float64(6*players+2*tables+own); got > budget {
			t.Errorf("parlor holds %.2f goroutines per session (%.0f in all); want 6, two per table and at most %d of the server's own (%d)",
				r.GoroutinesPerSession, got, own, int(budget))
		}
	}
}

// TestTinyWebRun seats half the players through the browser door, among them one
// table's host (whose browser is linked to the SSH key that made the table): every
// figure is reported, the report counts the browser players, and every action, a
// browser player's too, reached every screen, the browsers' and the terminals'.
func TestTinyWebRun(t *testing.T) {
	t.Parallel() // its own server; the run's phases are timed, not CPU-bound
	var out, log bytes.Buffer
	code := run([]string{"-web", "0.5", "-json", "-players", "14", "-every", "250ms", "-duration", "2s",
		"-idle", "500ms", "-limit", "3m"}, &out, &log)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, log.String())
	}
	var reps []Report
	if err := json.Unmarshal(out.Bytes(), &reps); err != nil || len(reps) != 1 {
		t.Fatalf("want one report: %v in %s", err, out.String())
	}
	r := reps[0]
	checkFigures(t, r, 14, 2)
	if r.WebPlayers != 7 {
		t.Errorf("%d players in a browser; want 7 of 14", r.WebPlayers)
	}
	// Each table's players act in turn, 8 times in 2 s: all 14 have acted.
	if r.Latency.Count < 14 {
		t.Errorf("%d actions; want every player to have acted", r.Latency.Count)
	}
}

// The players in a browser are -web's share of them, spread over the tables: the
// second player of each pair at one half, a host among them.
func TestWebPlayersAreTheirShare(t *testing.T) {
	for _, c := range []struct {
		f        float64
		n, want  int
		firstWeb int
	}{{0, 14, 0, -1}, {0.5, 14, 7, 1}, {1, 14, 14, 0}, {0.3, 1000, 300, 3}} {
		got, first := 0, -1
		for j := range c.n {
			if webPlayer(j, c.f) {
				got++
				if first < 0 {
					first = j
				}
			}
		}
		if got != c.want || first != c.firstWeb {
			t.Errorf("-web %g of %d: %d in a browser, the first %d; want %d, the first %d", c.f, c.n, got, first, c.want, c.firstWeb)
		}
	}
}

func TestTargetsMustBeLoopback(t *testing.T) {
	for _, args := range [][]string{
		{"-target", "10.0.0.1:22"},
		{"-target", "192.168.1.10:2222"},
		{"-target", "[2001:db8::1]:22"},
		{"-target", "127.0.0.1:2222", "-metrics", "http://10.1.2.3:9222/metrics"},
		{"-target", "127.0.0.1"},
		{"-metrics", "http://127.0.0.1:9222/metrics"},
		{"-players", "100000"},
	} {
		var errw bytes.Buffer
		if _, err := parseFlags(args, &errw); err == nil {
			t.Errorf("%q accepted", args)
		} else if strings.Contains(args[1], "10.") && !strings.Contains(err.Error(), "not a loopback address") {
			t.Errorf("%q: error %q does not say why", args, err)
		}
	}
	for _, args := range [][]string{
		{"-target", "127.0.0.1:2222"},
		{"-target", "127.9.9.9:2222", "-metrics", "http://127.0.0.1:9222/metrics"},
		{"-target", "[::1]:2222"},
		{"-target", "localhost:2222"},
	} {
		var errw bytes.Buffer
		if _, err := parseFlags(args, &errw); err != nil {
			t.Errorf("%q refused: %v", args, err)
		}
	}
}

func TestFlagsThatDoNotGoTogether(t *testing.T) {
	for _, args := range [][]string{
		{"-spectators", "2", "-compare"},
		{"-spectators", "2", "-server", "bare"},
		{"-spectators", "-1"},
		{"-players", "10000", "-spectators", "7"},
		{"-fps", "0"},
		{"-warmup", "-1s"},
		{"-fps", "500"},
		{"-profile", "/tmp/p", "-target", "127.0.0.1:2222"},
		{"-trace"},
		{"-login-rate", "-1"},
		{"-login-rate", "100000"},
		{"-storm", "flood"},
		{"-storm", "restart", "-nodes", "2"},
		{"-storm", "restart", "-compare"},
		{"-storm", "restart", "-server", "bare"},
		{"-storm", "restart", "-target", "127.0.0.1:2222"},
		{"-storm", "node"},
		{"-storm", "node", "-nodes", "1"},
		{"-storm", "node", "-nodes", "3", "-compare"},
		{"-web", "1.5"},
		{"-web", "-0.5"},
		{"-web", "0.5", "-server", "bare"},
		{"-web", "0.5", "-compare"},
		{"-web", "1", "-storm", "restart"},
		{"-web", "1", "-target", "127.0.0.1:2222"},
	} {
		var errw bytes.Buffer
		if _, err := parseFlags(args, &errw); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
	var errw bytes.Buffer
	if c, err := parseFlags([]string{"-spectators", "3", "-fps", "20", "-profile", "/tmp/p", "-login-rate", "300"}, &errw); err != nil || c.Watchers != 3 || c.FPS != 20 || c.LoginRate != 300 {
		t.Errorf("spectators, frame rate, profile and login rate: %+v, %v", c, err)
	}
	if c, err := parseFlags([]string{"-web", "0.5", "-nodes", "2", "-compare"}, &errw); err != nil || c.Web != 0.5 {
		t.Errorf("browsers on a cluster compared with one node: %+v, %v", c, err)
	}
}

// paced starts the i-th call i/rate after the first, never before it is due, each told
// when it was due, while no more than the limit run at once.
func TestPacedStartsEachOnItsSchedule(t *testing.T) {
	const n, rate, limit = 12, 400.0, 3
	var mu sync.Mutex
	dues := make([]time.Time, n)
	running, most := 0, 0
	err := paced(context.Background(), n, rate, limit, func(i int, due time.Time) error {
		if now := time.Now(); now.Before(due) {
			t.Errorf("login %d started at %v, before it was due at %v", i, now, due)
		}
		mu.Lock()
		dues[i] = due
		running++
		most = max(most, running)
		mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range dues {
		if want := time.Duration(float64(i) / rate * float64(time.Second)); dues[i].Sub(dues[0]) != want {
			t.Errorf("login %d due %v after the first, want %v", i, dues[i].Sub(dues[0]), want)
		}
	}
	if most > limit {
		t.Errorf("%d ran at once, more than the limit of %d", most, limit)
	}
}

// A token is read from its panel line only: parlor's and the bare server's, not a name
// elsewhere on the screen, nor a name that only begins with the one looked for.
func TestTokenXReadsThePanelLine(t *testing.T) {
	screens := []struct {
		name, screen string
		x            int
		ok           bool
	}{
		{"t0s1", " Quadrant · table ABCD · round 1 of 3   you: t0s1\n T t0s1      +12, -3 ×2 moving", 12, true},
		{"t0s1", "  A t0s10     +4, +0    \n  B t0s1      -7, +1    ", -7, true},
		{"ann", "A ann              +0, -2 ", 0, true},
		{"ann", "you: ann \nwaiting for ann to move", 0, false},
		{"ann", "a ann +1, +1 ", 0, false},
		{"ann", "A ann +1 -1 ", 0, false},
	}
	for _, s := range screens {
		if x, ok := tokenX(s.name, s.screen); x != s.x || ok != s.ok {
			t.Errorf("tokenX(%q, %q) = %d, %v; want %d, %v", s.name, s.screen, x, ok, s.x, s.ok)
		}
	}
}

// TestLatenciesKeepTheirTimes: the -profile file pairs each action's latency with its
// own start, also after the report's percentiles are read from the same samples.
func TestLatenciesKeepTheirTimes(t *testing.T) {
	start := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	var s samples
	// Latencies that fall as the phase goes on: sorting them would turn them round.
	for i := range 10 {
		s.add(start.Add(time.Duration(i)*time.Second), time.Duration(100-i)*time.Millisecond)
	}
	if p := percentilesOf(s.all); p.Max != 100*time.Millisecond || p.P50 != 95*time.Millisecond {
		t.Fatalf("percentiles %+v; want max 100 ms and p50 95 ms", p)
	}
	path := filepath.Join(t.TempDir(), "busy.latencies.tsv")
	if err := s.writeTo(path, start, time.Minute); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")[2:]
	for i, l := range lines {
		if want := fmt.Sprintf("%d.000\t%d.0", i, 100-i); l != want {
			t.Errorf("line %d is %q; want %q (the action started at %d s took %d ms)", i, l, want, i, 100-i)
		}
	}
}

// An open loop keeps no more logins in flight than a parlor server lets log in at once
// (--max-unauthenticated): past that the server refuses them at the door, and a run at
// a rate the box could not keep up with ended there ("logging in: ssh handshake ...
// connection reset by peer") instead of reporting how late the first screens were.
// (That paced holds to its limit, and times each login from when it was due, is
// TestPacedStartsEachOnItsSchedule.)
func TestAnOpenLoopStaysWithinTheServersDoor(t *testing.T) {
	door := server.Defaults().MaxUnauthenticated
	if got := loginsInFlight(Config{Parallel: 32, LoginRate: 300}); got > door || got < 32 {
		t.Errorf("an open loop keeps %d logins in flight; the server admits %d", got, door)
	}
	if got := loginsInFlight(Config{Parallel: 32}); got != 32 {
		t.Errorf("a closed loop keeps %d logins in flight; want -parallel's 32", got)
	}
}

// TestTinyStorm kills the lone server with SIGKILL once two tables play, starts it again
// on the same data, and checks that every player came back to the game screen of their
// seat, that the restarted server restored both tables, and that the games then went on:
// every action of the busy phase reached every screen.
func TestTinyStorm(t *testing.T) {
	t.Parallel() // its own servers; the run's phases are timed, not CPU-bound
	r, st := stormRun(t, "-storm", "restart", "-json", "-players", "14", "-spectators", "1",
		"-every", "250ms", "-duration", "2s", "-idle", "500ms", "-limit", "3m")
	if st.Kind != stormRestart || st.Tables != 2 || st.Redialled != 16 || st.Start <= 0 {
		t.Errorf("storm %+v; want a restart that restored 2 tables and 16 sessions redialled", st)
	}
	if st.InFlight != openLoopInFlight {
		t.Errorf("storm kept up to %d logins in flight; want the server's default admission, %d", st.InFlight, openLoopInFlight)
	}
	if st.Returned.Count != 16 || st.FirstScreen.Count != 16 || st.Back < st.Returned.Max || st.LoginsPerSecond <= 0 {
		t.Errorf("storm returns %+v, first screens %+v, back in %s; want all 16, the last at Back", st.Returned, st.FirstScreen, st.Back)
	}
	if l := r.Latency; l.Count < 3 || l.Never != 0 {
		t.Errorf("after the storm: latency %+v; want actions, every one shown on every screen", l)
	}
}

// TestTinyNodeStorm kills the first node of a two-node cluster: the players it served
// redial the other node, which takes over the dead node's table, and every game goes on.
func TestTinyNodeStorm(t *testing.T) {
	t.Parallel()
	r, st := stormRun(t, "-storm", "node", "-nodes", "2", "-json", "-players", "14",
		"-every", "250ms", "-duration", "2s", "-idle", "500ms", "-limit", "3m")
	// Seat k of table i is on node (i+k) mod 2: 7 of the 14 players were on the first node.
	if st.Kind != stormNode || st.Tables != 2 || st.Redialled < 7 || st.Returned.Count != st.Redialled {
		t.Errorf("storm %+v; want the survivor holding both tables and at least 7 players back", st)
	}
	if l := r.Latency; l.Count < 3 || l.Never != 0 {
		t.Errorf("after the storm: latency %+v; want actions, every one shown on every screen", l)
	}
}

// stormRun runs the generator with args (-json and a -storm among them) and returns its
// one report and the storm's.
func stormRun(t *testing.T, args ...string) (Report, *StormReport) {
	t.Helper()
	var out, log bytes.Buffer
	if code := run(args, &out, &log); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log.String())
	}
	var reps []Report
	if err := json.Unmarshal(out.Bytes(), &reps); err != nil {
		t.Fatalf("%v in %s", err, out.String())
	}
	if len(reps) != 1 || reps[0].Storm == nil {
		t.Fatalf("want one report with a storm, got %s", out.String())
	}
	return reps[0], reps[0].Storm
}
