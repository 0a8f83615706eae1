package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// procStat reads a process's CPU time (seconds, user and system) and resident memory
// (bytes) from /proc, for the NATS child, which has no /metrics page. (Linux only, where
// these runs take place: clock ticks are 100 a second there, and pages 4 KiB unless
// os.Getpagesize says otherwise.) It reports ok false where /proc is not there.
func procStat(pid int) (cpu, rss float64, ok bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	// The command name is in parentheses and may hold spaces: fields count after it.
	_, rest, found := strings.Cut(string(stat), ") ")
	fields := strings.Fields(rest)
	if !found || len(fields) < 22 {
		return 0, 0, false
	}
	// After the name: state(3) … utime(14) stime(15) … rss(24), numbered as in proc(5).
	utime, err1 := strconv.ParseFloat(fields[14-3], 64)
	stime, err2 := strconv.ParseFloat(fields[15-3], 64)
	pages, err3 := strconv.ParseFloat(fields[24-3], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, 0, false
	}
	const ticks = 100 // USER_HZ on Linux
	return (utime + stime) / ticks, pages * float64(os.Getpagesize()), true
}
