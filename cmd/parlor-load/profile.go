package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"syscall"
	"time"
)

// profileEnv names the directory a child server writes its profiles to (-profile). The
// parent marks the phases with signals, so a profile holds one phase and not the
// logins: SIGUSR1 starts a CPU profile, SIGUSR2 stops it and writes the goroutines.
// The first profile is the idle phase, the second the busy one.
const profileEnv = "PARLOR_LOAD_PROFILE"

// profilePhases names the profiles in the order the parent takes them.
var profilePhases = []string{"idle", "busy"}

// serveProfiles answers the parent's phase signals until the process ends; a no-op
// without profileEnv.
func serveProfiles(kind string) {
	dir := os.Getenv(profileEnv)
	if dir == "" {
		return
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		n := 0
		var cpu *os.File
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
			case sig == syscall.SIGUSR2 && cpu != nil:
				pprof.StopCPUProfile()
				_ = cpu.Close()
				cpu = nil
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
