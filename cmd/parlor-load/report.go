package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// Never is the latency of an update that some screen never showed: later than any
// measured one, so it counts in every percentile it reaches instead of being dropped.
const Never = time.Duration(math.MaxInt64)

// Percentiles summarise a set of durations.
type Percentiles struct {
	Count int           `json:"count"`
	Never int           `json:"never_shown"` // samples that were Never
	P50   time.Duration `json:"p50_ns"`
	P90   time.Duration `json:"p90_ns"`
	P99   time.Duration `json:"p99_ns"`
	Max   time.Duration `json:"max_ns"`
}

// percentilesOf reads the nearest-rank percentiles of ds from a sorted copy: ds stays in
// the order of its samples, which -profile's file pairs with their starts.
func percentilesOf(ds []time.Duration) Percentiles {
	p := Percentiles{Count: len(ds)}
	if len(ds) == 0 {
		return p
	}
	ds = slices.Sorted(slices.Values(ds))
	at := func(q float64) time.Duration {
		return ds[int(math.Ceil(q*float64(len(ds))))-1]
	}
	p.P50, p.P90, p.P99, p.Max = at(0.50), at(0.90), at(0.99), ds[len(ds)-1]
	for _, d := range ds {
		if d == Never {
			p.Never++
		}
	}
	return p
}

// Report is what one run measured. Server-side figures (Measured) need the server's
// /metrics: a run against -target without -metrics has only the client-side ones.
type Report struct {
	Server     string `json:"server"`
	Nodes      int    `json:"nodes,omitempty"` // parlor nodes of a cluster; 0 for a lone server
	Game       string `json:"game,omitempty"`
	Players    int    `json:"players"`
	Spectators int    `json:"spectators,omitempty"`
	// WebPlayers counts the players that came through the browser door (-web); the
	// others came over SSH.
	WebPlayers int           `json:"web_players"`
	Tables     int           `json:"tables"`
	Every      time.Duration `json:"every_ns"`
	Warmup     time.Duration `json:"warmup_ns,omitempty"` // how long the tables acted, unmeasured, before the busy phase
	// RemoteScreens counts the screens (of all tables) on another node than their
	// table's owner: each action must reach them across NATS.
	RemoteScreens int `json:"remote_screens,omitempty"`

	LoginsPerSecond float64     `json:"logins_per_second"`
	FirstScreen     Percentiles `json:"first_screen"` // from the dial to the first screen
	Latency         Percentiles `json:"latency"`      // from a key press to the last screen of its table showing it
	Slow            SlowActions `json:"slow"`         // the actions of Latency over 100 ms, beside the collector's marks

	Measured             bool          `json:"measured"`
	RSSPerSessionMiB     float64       `json:"rss_per_session_mib"`
	IdleCPUPerSession    time.Duration `json:"idle_cpu_per_session_ns_per_s"` // CPU time per second of wall time
	CPUPerAction         time.Duration `json:"cpu_per_action_ns"`             // above idle, for one action and its screens
	Goroutines           int           `json:"goroutines"`
	GoroutinesPerSession float64       `json:"goroutines_per_session"`
	// BusyCollections is how many collections the server's garbage collector made
	// while the tables acted (all nodes'): at thousands of players each one's mark is
	// where the latency's tail comes from (docs/performance.md, "The collector").
	BusyCollections int `json:"busy_collections"`
	// NodeSessions and NodeTables are each parlor server's open sessions and the tables
	// it runs, measured while idle (memory, CPU and goroutines above are their sums).
	NodeSessions []int `json:"node_sessions,omitempty"`
	NodeTables   []int `json:"node_tables,omitempty"`
	// The cluster's NATS server (a process of its own), apart from the nodes' figures:
	// its resident memory while idle, its CPU per second idle and per action above idle.
	NATSMeasured     bool          `json:"nats_measured,omitempty"`
	NATSRSSMiB       float64       `json:"nats_rss_mib,omitempty"`
	NATSIdleCPU      time.Duration `json:"nats_idle_cpu_ns_per_s,omitempty"`
	NATSCPUPerAction time.Duration `json:"nats_cpu_per_action_ns,omitempty"`
	// Storm is what -storm measured; the idle and busy figures above are then from after it.
	Storm *StormReport `json:"storm,omitempty"`
}

// name says what ran: "parlor", "bare", "parlor×3 nodes".
func (r *Report) name() string {
	if r.Nodes > 0 {
		return fmt.Sprintf("%s×%s", r.Server, nodes(r.Nodes))
	}
	return r.Server
}

// nodes is "1 node" or "3 nodes".
func nodes(n int) string {
	if n == 1 {
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
}

func ms(d time.Duration) string {
	if d == Never {
		return "never"
	}
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// Print writes the report for a person.
func (r *Report) Print(w io.Writer) {
	what := r.name()
	if r.Game != "" {
		what += " (" + r.Game + ")"
	}
	warm := ""
	if r.Warmup > 0 {
		warm = fmt.Sprintf(", measured after %s of it", r.Warmup)
	}
	fmt.Fprintf(w, "%s: %d players at %d tables, each table acting once per %s%s\n", what, r.Players, r.Tables, r.Every, warm)
	if r.WebPlayers > 0 {
		fmt.Fprintf(w, "  browsers        %d of the %d players through the browser door (WebSocket), %d over SSH\n", r.WebPlayers, r.Players, r.Players-r.WebPlayers)
	}
	if r.Spectators > 0 {
		fmt.Fprintf(w, "  spectators      %d (%d per table); figures per session count them too\n", r.Spectators, r.Spectators/max(r.Tables, 1))
	}
	if r.Nodes > 0 {
		fmt.Fprintf(w, "  cluster         %s on one NATS; %d of %d screens on another node than their table's owner\n",
			nodes(r.Nodes), r.RemoteScreens, r.Players+r.Spectators)
		if len(r.NodeSessions) > 0 {
			fmt.Fprintf(w, "                  sessions per node %v, tables per node %v; memory, CPU and goroutines are the nodes' sums\n", r.NodeSessions, r.NodeTables)
		}
	}
	fmt.Fprintf(w, "  logins          %.0f/s, first screen p50 %s, p99 %s\n", r.LoginsPerSecond, ms(r.FirstScreen.P50), ms(r.FirstScreen.P99))
	if st := r.Storm; st != nil {
		if st.Kind == stormRestart {
			fmt.Fprintf(w, "  storm           kill -9, then the server listened %.1f s after its start with %d tables restored\n", st.Start.Seconds(), st.Tables)
		} else {
			fmt.Fprintf(w, "  storm           kill -9 of the first node; the others hold %d tables\n", st.Tables)
		}
		fmt.Fprintf(w, "                  %d players back at their seats %.1f s later (%.0f logins/s, up to %d in flight, %d failed attempts tried again)\n",
			st.Redialled, st.Back.Seconds(), st.LoginsPerSecond, st.InFlight, st.Failed)
		fmt.Fprintf(w, "                  back p50 %s, p99 %s; first screen p50 %s, p99 %s; servers %.0f%%, clients %.0f%% of a core\n",
			ms(st.Returned.P50), ms(st.Returned.P99), ms(st.FirstScreen.P50), ms(st.FirstScreen.P99), st.ServerCPU*100, st.ClientCPU*100)
		for _, f := range st.Failures {
			fmt.Fprintf(w, "                  failed: %s\n", firstLines(f, 12))
		}
	}
	l := r.Latency
	fmt.Fprintf(w, "  action → all screens  p50 %s, p90 %s, p99 %s, max %s (%d actions, %d never shown)\n",
		ms(l.P50), ms(l.P90), ms(l.P99), ms(l.Max), l.Count, l.Never)
	r.Slow.print(w, l.Count)
	if !r.Measured {
		fmt.Fprintf(w, "  server figures: not measured (give -metrics with -target)\n")
		return
	}
	fmt.Fprintf(w, "  memory          %.2f MiB RSS per session\n", r.RSSPerSessionMiB)
	fmt.Fprintf(w, "  idle CPU        %.0f µs/s per session\n", float64(r.IdleCPUPerSession)/float64(time.Microsecond))
	fmt.Fprintf(w, "  CPU per action  %s (above idle; the action and its %d screens)\n", ms(r.CPUPerAction), (r.Players+r.Spectators)/max(r.Tables, 1))
	fmt.Fprintf(w, "  goroutines      %d (%.1f per session)\n", r.Goroutines, r.GoroutinesPerSession)
	fmt.Fprintf(w, "  collections     %d by the server while the tables acted\n", r.BusyCollections)
	if r.NATSMeasured {
		fmt.Fprintf(w, "  NATS server     %.0f MiB RSS, idle CPU %.0f ms/s, CPU per action %s (not in the figures above)\n",
			r.NATSRSSMiB, float64(r.NATSIdleCPU)/float64(time.Millisecond), ms(r.NATSCPUPerAction))
	}
}

// printRatio writes the first run's figures over the second's: parlor over the bare
// server, or a cluster over one node.
func printRatio(w io.Writer, a, b *Report) {
	ratio := func(x, y float64) string {
		if y == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2f×", x/y)
	}
	fmt.Fprintf(w, "%s / %s:\n", a.name(), b.name())
	fmt.Fprintf(w, "  latency p50 %s, p99 %s\n", ratio(float64(a.Latency.P50), float64(b.Latency.P50)), ratio(float64(a.Latency.P99), float64(b.Latency.P99)))
	fmt.Fprintf(w, "  logins/s %s\n", ratio(a.LoginsPerSecond, b.LoginsPerSecond))
	if a.Measured && b.Measured {
		fmt.Fprintf(w, "  RSS/session %s, idle CPU/session %s, CPU/action %s, goroutines/session %s\n",
			ratio(a.RSSPerSessionMiB, b.RSSPerSessionMiB),
			ratio(float64(a.IdleCPUPerSession), float64(b.IdleCPUPerSession)),
			ratio(float64(a.CPUPerAction), float64(b.CPUPerAction)),
			ratio(a.GoroutinesPerSession, b.GoroutinesPerSession))
	}
}

// firstLines is s up to its n-th line, the rest counted: a failed attempt's error
// carries the whole screen it saw.
func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n(%d more lines)", len(lines)-n)
}
