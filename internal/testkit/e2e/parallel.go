package e2e

import (
	"flag"
	"strconv"
)

// MostlyWaiting is for the TestMain of a package whose parallel tests spend their time
// waiting (on game time, shutdown graces and the network) rather than computing. Unless
// the command line set -parallel, it lets n of them run at once instead of GOMAXPROCS of
// them (two on a small machine), so that their waits overlap. Call it before m.Run.
func MostlyWaiting(n int) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}
