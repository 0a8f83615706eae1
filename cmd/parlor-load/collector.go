package main

import (
	"runtime/debug"
	"sync"
)

// quiet is the collector's pace from before the first busy phase that is still going
// (runs in one process, as the tests make, may overlap).
var quiet struct {
	sync.Mutex
	phases  int
	percent int
}

// quietCollector turns the generator's own garbage collector off for the busy phase,
// and returns what turns it back on once no busy phase is left.
//
// Why: Go collects at least every two minutes, and the generator's collection traces
// its terminals' cells (millions of them at 10,000 players): it took 6–7 s and as much
// CPU, on the cores the server shares, and the actions in those seconds were slow for
// the generator's sake, not the server's (docs/performance.md). While the tables act
// the generator allocates little (7–14 MB a second at 10,000 players, under 1 GB a
// minute), and a run ends within -limit. Not a memory limit instead: the generator's
// heap counts its terminals' parsers' buffers (4 MB each, never touched, so never in
// memory: 40 GB at 10,000 players), and a limit a few GB over that had the collector
// start at once, to keep its pace.
func quietCollector() (restore func()) {
	quiet.Lock()
	defer quiet.Unlock()
	if quiet.phases == 0 {
		quiet.percent = debug.SetGCPercent(-1)
	}
	quiet.phases++
	var once sync.Once
	return func() {
		once.Do(func() {
			quiet.Lock()
			defer quiet.Unlock()
			if quiet.phases--; quiet.phases == 0 {
				debug.SetGCPercent(quiet.percent)
			}
		})
	}
}
