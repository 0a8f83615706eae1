package main

import (
	"fmt"
	"syscall"
)

// raiseFileLimit lifts the soft limit on open files to the hard one: every player is a
// socket here and another in the server (a child inherits the limit), so 5,000 players
// need more than the usual soft limit of 1,024. It reports a limit still too low.
func raiseFileLimit(players int) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return nil // nothing known: let the run find out
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
		_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	// A player is one socket in each process, plus the server's files and some slack.
	if need := uint64(players) + 256; lim.Cur < need {
		return fmt.Errorf("%d players need about %d open files per process; the limit is %d (raise it with ulimit -n)", players, need, lim.Cur)
	}
	return nil
}
