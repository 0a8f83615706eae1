package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Run runs one workload against one server (started here unless cfg.Target is set) and
// returns what it measured. It stops by itself: every wait is bounded, and ctx ends it.
func Run(ctx context.Context, cfg Config, log io.Writer) (*Report, error) {
	rep := &Report{Server: cfg.Server, Game: cfg.Game, Every: cfg.Every, Nodes: cfg.Nodes}
	addrs, metricsURLs := []string{cfg.Target}, []string{cfg.Metrics}
	var webs []string
	var srv *servers
	if cfg.Target == "" {
		s, err := startServers(ctx, cfg, log)
		if err != nil {
			return nil, err
		}
		defer s.stop()
		srv, addrs, metricsURLs = s, s.addrs(), s.metrics()
		webs = s.webAddrs()
	}
	measure := func() (sample, error) {
		if srv != nil {
			metricsURLs = srv.metrics() // a storm changes them
		}
		s, err := scrapeAll(ctx, metricsURLs)
		if srv != nil && srv.nats != nil {
			s.natsCPU, s.natsRSS, s.natsOK = procStat(srv.nats.cmd.Process.Pid)
		}
		return s, err
	}
	w := &workload{cfg: cfg, addrs: addrs, webs: webs, log: log}
	defer w.close()
	say := func(format string, args ...any) {
		fmt.Fprintf(log, "%s %s: %s\n", time.Now().Format("15:04:05"), rep.name(), fmt.Sprintf(format, args...))
	}

	before, err := measure()
	if err != nil {
		return nil, err
	}
	say("creating %d tables", cfg.Players/cfg.Seats)
	if err := w.createTables(ctx); err != nil {
		return nil, fmt.Errorf("creating tables: %w", err)
	}
	rep.Tables = len(w.tables)
	rep.RemoteScreens = w.remote
	rep.Players = rep.Tables * cfg.Seats
	rep.Spectators = rep.Tables * cfg.Watchers
	for _, t := range w.tables {
		for _, p := range t.players {
			if p.web != "" {
				rep.WebPlayers++
			}
		}
	}
	sessions := rep.Players + rep.Spectators
	say("logging in %d players (%d of them in a browser) and %d spectators", rep.Players, rep.WebPlayers, rep.Spectators)
	srv.phase(syscall.SIGUSR1)
	stopSelf := profileSelf(cfg.Profile, "load-"+cfg.Server+"-login")
	took, err := w.login(ctx)
	stopSelf()
	srv.phase(syscall.SIGUSR2)
	if err != nil {
		return nil, fmt.Errorf("logging in: %w", err)
	}
	rep.LoginsPerSecond = float64(sessions) / took.Seconds()
	rep.FirstScreen = percentilesOf(w.logins)
	if err := w.start(ctx); err != nil {
		return nil, fmt.Errorf("starting the games: %w", err)
	}
	if cfg.Storm != "" {
		say("storm: kill -9 %s", map[string]string{stormRestart: "the server, then start it again on the same data", stormNode: "the first node"}[cfg.Storm])
		if rep.Storm, err = w.storm(ctx, srv); err != nil {
			return nil, fmt.Errorf("storm: %w", err)
		}
		// The baseline of the per-session figures stays the one measured before any
		// session, of fresh servers; after a node's death, of the nodes left.
		if n := len(srv.children) + 1; cfg.Storm == stormNode {
			before.rss *= float64(n-1) / float64(n)
			before.goroutines *= float64(n-1) / float64(n)
		}
	}

	var watchers sync.WaitGroup
	for _, t := range w.tables {
		for _, p := range t.screens() {
			watchers.Add(1)
			go w.watch(t, p, &watchers)
		}
	}
	defer func() {
		for _, t := range w.tables {
			close(t.quit)
		}
		watchers.Wait()
	}()

	// Idle: everyone seated at a started game, nobody acting.
	sleep(ctx, time.Second) // let the start's last frames go out
	say("measuring idle for %s", cfg.Idle)
	idle0, err := measure()
	if err != nil {
		return nil, err
	}
	srv.phase(syscall.SIGUSR1)
	sleep(ctx, cfg.Idle)
	// Measured before the profile is written: writing it (a collection, the heap and
	// the goroutines of thousands of sessions) is not the server's idle cost.
	idle1, err := measure()
	if err != nil {
		return nil, err
	}
	srv.phase(syscall.SIGUSR2)
	if cfg.Warmup > 0 {
		say("warming up: acting for %s, not measured", cfg.Warmup)
		var warm samples
		w.actAll(ctx, time.Now().Add(cfg.Warmup), &warm)
		if warm.err != nil {
			return nil, fmt.Errorf("warming up: %w", warm.err)
		}
	}
	srv.phase(syscall.SIGUSR1)
	stopSelf = profileSelf(cfg.Profile, "load-"+cfg.Server+"-busy")

	say("acting for %s, each table once per %s", cfg.Duration, cfg.Every)
	busy0, err := measure() // after the idle phase's profile, whose collection is not the busy phase's
	if err != nil {
		return nil, err
	}
	restoreCollector := quietCollector()
	var got samples
	busySince := time.Now()
	until := busySince.Add(cfg.Duration)
	w.actAll(ctx, until, &got)
	restoreCollector()
	stopSelf()
	after, err := measure()
	if err != nil {
		return nil, err
	}
	srv.phase(syscall.SIGUSR2)
	if got.err != nil {
		return nil, got.err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	rep.Latency = percentilesOf(got.all)
	rep.Warmup = cfg.Warmup
	marks, traced := srv.marks()
	rep.Slow = slowActions(&got, busySince, until, marks, traced)
	if cfg.Profile != "" {
		if err := got.writeTo(filepath.Join(cfg.Profile, latenciesFile(cfg)), busySince, busySince.Sub(srv.children[0].started)); err != nil {
			return nil, fmt.Errorf("-profile: %w", err)
		}
	}

	if before.ok && idle0.ok && after.ok {
		n := float64(sessions)
		rep.Measured = true
		rep.RSSPerSessionMiB = (idle1.rss - before.rss) / n / (1 << 20)
		rep.IdleCPUPerSession = time.Duration((idle1.cpu - idle0.cpu) / idle1.at.Sub(idle0.at).Seconds() / n * 1e9)
		// From the busy phase's start: neither the idle profile's writing nor a warm-up.
		busy := after.cpu - busy0.cpu - (idle1.cpu-idle0.cpu)/idle1.at.Sub(idle0.at).Seconds()*after.at.Sub(busy0.at).Seconds()
		if rep.Latency.Count > 0 {
			rep.CPUPerAction = time.Duration(busy / float64(rep.Latency.Count) * 1e9)
		}
		rep.Goroutines = int(idle1.goroutines)
		rep.GoroutinesPerSession = (idle1.goroutines - before.goroutines) / n
		rep.NodeSessions, rep.NodeTables = idle1.sessions, idle1.tables
		rep.BusyCollections = int(after.collections - busy0.collections)
	}
	if before.natsOK && idle0.natsOK && idle1.natsOK && busy0.natsOK && after.natsOK {
		rep.NATSMeasured = true
		rep.NATSRSSMiB = idle1.natsRSS / (1 << 20)
		idle := (idle1.natsCPU - idle0.natsCPU) / idle1.at.Sub(idle0.at).Seconds()
		rep.NATSIdleCPU = time.Duration(idle * 1e9)
		if rep.Latency.Count > 0 {
			busy := after.natsCPU - busy0.natsCPU - idle*after.at.Sub(busy0.at).Seconds()
			rep.NATSCPUPerAction = time.Duration(busy / float64(rep.Latency.Count) * 1e9)
		}
	}
	return rep, nil
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
}

// sample is what a server's /metrics said at one moment.
type sample struct {
	ok         bool
	at         time.Time
	cpu        float64 // seconds
	rss        float64 // bytes
	goroutines float64
	// collections is how many collections the server's garbage collector has made so
	// far (go_gc_duration_seconds_count; 0 where it is not exported).
	collections float64
	// sessions and tables are parlor's open sessions and tables on each server (none
	// for a server without them), so a cluster run shows how it spread.
	sessions, tables []int
	// The NATS child's CPU seconds and resident bytes (natsOK: read), for a cluster.
	natsOK           bool
	natsCPU, natsRSS float64
}

// scrape reads the three numbers it needs from a Prometheus text page. (Three unlabelled
// samples: a line scan is all the parsing they need.) No URL: nothing is measured.
func scrape(ctx context.Context, url string) (sample, error) {
	if url == "" {
		return sample{}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return sample{}, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return sample{}, fmt.Errorf("metrics: %w", err)
	}
	defer res.Body.Close()
	s := sample{at: time.Now()}
	found := 0
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		var dst *float64
		switch name {
		case "parlor_sessions", "parlor_tables_open":
			if n, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil && name == "parlor_sessions" {
				s.sessions = append(s.sessions, int(n))
			} else if err == nil {
				s.tables = append(s.tables, int(n))
			}
			continue
		case "process_cpu_seconds_total":
			dst = &s.cpu
		case "process_resident_memory_bytes":
			dst = &s.rss
		case "go_goroutines":
			dst = &s.goroutines
		case "go_gc_duration_seconds_count":
			s.collections, _ = strconv.ParseFloat(strings.TrimSpace(value), 64)
			continue
		default:
			continue
		}
		if *dst, err = strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil {
			found++
		}
	}
	if found != 3 {
		return sample{}, fmt.Errorf("metrics at %s lack process_cpu_seconds_total, process_resident_memory_bytes or go_goroutines", url)
	}
	s.ok = true
	return s, nil
}

// latenciesFile names the busy phase's actions in the -profile directory (samples.writeTo):
// KIND-busy.latencies.tsv, or parlor-Nnodes-busy.latencies.tsv for a cluster of N.
func latenciesFile(cfg Config) string {
	name := cfg.Server
	if cfg.Nodes > 0 {
		name = fmt.Sprintf("%s-%dnodes", name, cfg.Nodes)
	}
	return name + "-busy.latencies.tsv"
}
