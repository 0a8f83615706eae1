package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"syscall"
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
				if f, err := os.Create(base + ".goroutine.txt"); err == nil {
					_ = pprof.Lookup("goroutine").WriteTo(f, 1)
					_ = f.Close()
				}
				n++
			}
		}
	}()
}

// phase signals a child server that profiles (-profile); a no-op for a server the run
// did not start.
func (c *child) phase(sig syscall.Signal) {
	if c != nil && c.profiling {
		_ = c.cmd.Process.Signal(sig)
	}
}
