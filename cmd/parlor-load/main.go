// Command parlor-load is parlor's load generator: N real terminal players (SSH clients
// with an 80×24 PTY whose output goes through a terminal emulator), from many loopback
// addresses, seated 7 to a table at started tables of a game, each table acting at a
// chosen rate. It reports what an operator sizes a machine by: server memory and idle
// CPU per session, CPU per action, action → all-screens latency, logins per second with
// the first screen's p99, and goroutines. With -web F a fraction F of the players are
// the same terminal players in a browser: over parlor's browser door, a WebSocket. It
// can run the same workload against a minimal wish + Bubble Tea server (-bare, or both
// with -compare) for a side-by-side ratio.
//
// With -nodes N it starts a parlor cluster instead: an embedded NATS server with
// JetStream and N parlor nodes sharing one host key, each table's screens spread over
// the nodes, so that most screens an action must reach are on another node than the
// table's owner. Server figures are then the nodes' sums; -compare runs one node first.
//
// It starts the server itself, as a child process of this same binary so that the
// server's CPU and memory are measured apart from the clients', or drives a running one
// (-target, with -metrics for its /metrics). Loopback only: it refuses other targets.
// Every run is bounded in players and time and stops by itself. See docs/performance.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"parlor/internal/testkit/sshterm"
)

func main() {
	if mode := os.Getenv(serveEnv); mode != "" {
		os.Exit(serveChild(mode))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run returns the exit code: 0 after a run, 2 for bad flags, 1 when the run failed.
func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "parlor-load: %v\n", err)
		return 2
	}
	if cfg.Profile != "" {
		if err := os.MkdirAll(cfg.Profile, 0o755); err != nil {
			fmt.Fprintf(stderr, "parlor-load: -profile: %v\n", err)
			return 1
		}
	}
	if err := raiseFileLimit(cfg.Players + cfg.Players/cfg.Seats*cfg.Watchers); err != nil {
		fmt.Fprintf(stderr, "parlor-load: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, cfg.Limit)
	defer cancel()

	log := &sshterm.LockedWriter{W: stderr} // the child servers write to it too: whole lines at a time
	var reports []*Report
	for _, c := range runsOf(cfg) {
		rep, err := Run(ctx, c, log)
		if err != nil {
			fmt.Fprintf(log, "parlor-load: %s: %v\n", (&Report{Server: c.Server, Nodes: c.Nodes}).name(), err)
			return 1
		}
		reports = append(reports, rep)
	}
	if cfg.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(reports)
		return 0
	}
	for _, r := range reports {
		r.Print(stdout)
	}
	switch {
	case len(reports) == 2 && cfg.Nodes > 0:
		printRatio(stdout, reports[1], reports[0]) // the cluster over one node
	case len(reports) == 2:
		printRatio(stdout, reports[0], reports[1]) // parlor over the bare server
	}
	return 0
}

// runsOf is the runs one command makes: cfg itself or, with -compare, parlor then the
// bare server, or with -nodes N one node then N nodes.
func runsOf(cfg Config) []Config {
	if !cfg.Compare {
		return []Config{cfg}
	}
	if cfg.Nodes > 0 {
		one := cfg
		one.Nodes = 1
		return []Config{one, cfg}
	}
	bare := cfg
	bare.Server = kindBare
	bare.Game = "" // the bare server has one kind of table
	return []Config{cfg, bare}
}

// parseFlags reads the command line into a Config and checks it.
func parseFlags(args []string, stderr io.Writer) (Config, error) {
	cfg := Defaults()
	fs := flag.NewFlagSet("parlor-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: parlor-load [flags]\n\nRuns N terminal players against a parlor server on this machine and reports\nmemory, CPU, latency and logins per session. Loopback only.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	fs.IntVar(&cfg.Players, "players", cfg.Players, "terminal players (rounded down to full tables; at most "+fmt.Sprint(MaxPlayers)+")")
	fs.IntVar(&cfg.Seats, "seats", cfg.Seats, "players per table")
	fs.StringVar(&cfg.Game, "game", cfg.Game, "game the tables play (quadrant moves tokens; other games chat)")
	fs.DurationVar(&cfg.Every, "every", cfg.Every, "each table acts once per this interval")
	fs.DurationVar(&cfg.Duration, "duration", cfg.Duration, "how long the tables act")
	fs.DurationVar(&cfg.Idle, "idle", cfg.Idle, "how long to measure idle CPU, with every player seated and nobody acting")
	fs.DurationVar(&cfg.Warmup, "warmup", cfg.Warmup, "how long the tables act, unmeasured, before the busy phase: the server's heap first grows to its working size (a minute at thousands of players)")
	fs.IntVar(&cfg.Parallel, "parallel", cfg.Parallel, "logins in flight at once (with -login-rate: at least "+fmt.Sprint(openLoopInFlight)+")")
	fs.Float64Var(&cfg.LoginRate, "login-rate", cfg.LoginRate, "start this many logins per second, however long each takes, and time each from when it was due (0: keep -parallel in flight)")
	fs.StringVar(&cfg.Server, "server", cfg.Server, "what to start: parlor or bare (a minimal wish + Bubble Tea server)")
	fs.BoolVar(&cfg.Compare, "compare", cfg.Compare, "run parlor, then the bare server, and print the ratio; with -nodes N: one node, then N nodes")
	fs.IntVar(&cfg.Nodes, "nodes", cfg.Nodes, "start a cluster of this many parlor nodes on an embedded NATS with JetStream, each table's players spread over them (0: one lone server; at most "+fmt.Sprint(MaxNodes)+")")
	fs.StringVar(&cfg.Target, "target", cfg.Target, "drive a running server at this loopback host:port instead of starting one")
	fs.StringVar(&cfg.Metrics, "metrics", cfg.Metrics, "with -target: the server's /metrics URL (loopback), for memory, CPU and goroutines")
	fs.DurationVar(&cfg.Limit, "limit", cfg.Limit, "stop the whole run after this long, whatever happens")
	fs.BoolVar(&cfg.JSON, "json", cfg.JSON, "print the report as JSON")
	fs.IntVar(&cfg.Watchers, "spectators", cfg.Watchers, "spectators per table (parlor only), watching with \"watch CODE\"; they count among the screens an action must reach")
	fs.IntVar(&cfg.FPS, "fps", cfg.FPS, "frame rate both servers cap their screens at (a server it did not start keeps its own)")
	fs.StringVar(&cfg.Profile, "profile", cfg.Profile, "write the server's CPU profile and goroutines of the login, idle and busy phases into this directory (KIND-login.cpu.pprof, KIND-idle.cpu.pprof, KIND-busy.cpu.pprof, …), and when each action of the busy phase started and how long it took (KIND-busy.latencies.tsv)")
	fs.BoolVar(&cfg.Trace, "trace", cfg.Trace, "with -profile: also write an execution trace of the server's busy phase (KIND-busy.trace.out), for go tool trace")
	fs.StringVar(&cfg.Storm, "storm", cfg.Storm, "once the games have started, kill -9 a server and time every player's return to their seat: restart (start the lone server again on the same data) or node (kill the first node of a cluster; its players redial the others)")
	fs.Float64Var(&cfg.Web, "web", cfg.Web, "the fraction (0 to 1) of the players that connect through parlor's browser door, a WebSocket as its page speaks, instead of SSH")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q (see parlor-load -h)", fs.Arg(0))
	}
	return cfg, cfg.Validate()
}
