package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"syscall"
	"time"
)

// profileEnv names the directory a child server writes its profiles to (-profile). The
// parent marks the phases with signals, so each profile holds one phase: SIGUSR1 starts a CPU profile, SIGUSR2 stops it and writes the
// goroutines and the live heap. The profiles are the logins, the idle phase and the busy one, in order.
const profileEnv = "PARLOR_LOAD_PROFILE"

// traceEnv, set, has a child server that profiles also trace its busy phase (-trace).
const traceEnv = "PARLOR_LOAD_TRACE"

// traceEnvOf is what a child's environment needs for cfg's -trace.
func traceEnvOf(cfg Config) []string {
	if !cfg.Trace {
		return nil
	}
	return []string{traceEnv + "=1"}
}

// profilePhases names the profiles in the order the parent takes them.
var profilePhases = []string{"login", "idle", "busy"}

// serveProfiles answers the parent's phase signals until the process ends; a no-op
// without profileEnv.
func serveProfiles(kind string) {
	dir := os.Getenv(profileEnv)
	if dir == "" {
		return
	}
	traceBusy := os.Getenv(traceEnv) != ""
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		n := 0
		var cpu, tr *os.File
		for sig := range sigs {
			if n >= len(profilePhases) {
				continue
			}
			base := filepath.Join(dir, fmt.Sprintf("%s-%s", kind, profilePhases[n]))
			switch {
			case sig == syscall.SIGUSR1 && cpu == nil:
				f, err := os.Create(base + ".cpu.pprof")
				if err == nil && pprof.StartCPUProfile(f) == nil {
					cpu = f
				}
				if traceBusy && profilePhases[n] == "busy" {
					if f, err := os.Create(base + ".trace.out"); err == nil && trace.Start(f) == nil {
						tr = f
					}
				}
			case sig == syscall.SIGUSR2 && cpu != nil:
				if tr != nil {
					trace.Stop()
					_ = tr.Close()
					tr = nil
				}
				pprof.StopCPUProfile()
				_ = cpu.Close()
				cpu = nil
				gc := readGC() // the phase's collector CPU, before the collection below adds to it
				if f, err := os.Create(base + ".heap.pprof"); err == nil {
					runtime.GC() // the heap as it stands, not as of the last collection
					_ = pprof.Lookup("heap").WriteTo(f, 0)
					_ = f.Close()
				}
				_ = os.WriteFile(base+".gc.txt", []byte(gc+readGC()), 0o644)
				// Written aside and renamed: the parent waits for the name (phaseDone).
				if f, err := os.Create(base + ".goroutine.tmp"); err == nil {
					_ = pprof.Lookup("goroutine").WriteTo(f, 1)
					_ = f.Close()
					_ = os.Rename(base+".goroutine.tmp", base+".goroutine.txt")
				}
				n++
			}
		}
	}()
}

// gcMetrics are what a phase's KIND-PHASE.gc.txt holds: how much a mark has to scan
// (heap, stacks, globals: a mark's length follows these, not the heap's size), and the
// CPU the collector took so far, by who did it (assists are taken from goroutines that
// allocate during a mark, so they delay whatever those goroutines were doing).
var gcMetrics = []string{
	"/gc/scan/heap:bytes", "/gc/scan/stack:bytes", "/gc/scan/globals:bytes",
	"/gc/heap/live:bytes", "/sched/goroutines:goroutines", "/gc/cycles/total:gc-cycles",
	"/cpu/classes/gc/mark/assist:cpu-seconds", "/cpu/classes/gc/mark/dedicated:cpu-seconds",
	"/cpu/classes/gc/mark/idle:cpu-seconds", "/cpu/classes/gc/pause:cpu-seconds",
	"/cpu/classes/user:cpu-seconds",
}

// readGC reads gcMetrics as lines of "name value", then a blank line.
func readGC() string {
	samples := make([]metrics.Sample, len(gcMetrics))
	for i, name := range gcMetrics {
		samples[i].Name = name
	}
	metrics.Read(samples)
	var b strings.Builder
	for _, s := range samples {
		switch s.Value.Kind() {
		case metrics.KindUint64:
			fmt.Fprintf(&b, "%s %d\n", s.Name, s.Value.Uint64())
		case metrics.KindFloat64:
			fmt.Fprintf(&b, "%s %.3f\n", s.Name, s.Value.Float64())
		}
	}
	return b.String() + "\n"
}

// phase signals a child server that profiles (-profile); a no-op for a server the run
// did not start. Ending a phase waits (a few seconds at most) until the child has
// written it, so that the server is not stopped with its last profile unwritten.
func (c *child) phase(sig syscall.Signal) {
	if c == nil || c.profiling == "" {
		return
	}
	_ = c.cmd.Process.Signal(sig)
	if sig != syscall.SIGUSR2 {
		return
	}
	if c.phases < len(profilePhases) {
		done := filepath.Join(c.profiling, fmt.Sprintf("%s-%s.goroutine.txt", c.kind, profilePhases[c.phases]))
		for i := 0; i < 100; i++ {
			if _, err := os.Stat(done); err == nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	c.phases++
}

// profileSelf starts a CPU profile of the generator itself into DIR/NAME.cpu.pprof (the
// clients' side of a phase: key exchanges, terminal emulators) and returns its stop; a
// no-op without a directory.
func profileSelf(dir, name string) (stop func()) {
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, name+".cpu.pprof"))
	if err != nil {
		return func() {}
	}
	if pprof.StartCPUProfile(f) != nil {
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
