package main

import (
	"runtime/debug"
	"testing"
)

// TestQuietCollectorPutsTheCollectorBack: while a busy phase runs, the generator's
// collector is off; two busy phases may overlap (the tests run several generators in
// one process), and once the last is over the collector's pace is as it was.
func TestQuietCollectorPutsTheCollectorBack(t *testing.T) {
	// Not parallel: it sets the process's collector, and the package's generator runs
	// (parallel tests) wait until it is done.
	before := debug.SetGCPercent(150)
	t.Cleanup(func() { debug.SetGCPercent(before) })

	first := quietCollector()
	second := quietCollector()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("during a busy phase the collector's percent is %d; want -1 (off)", p)
	}
	first()
	first() // a second call does nothing
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("with one busy phase still going the collector's percent is %d; want -1", p)
	}
	second()
	if p := debug.SetGCPercent(150); p != 150 {
		t.Errorf("after the busy phases the collector's percent is %d; want 150 as before", p)
	}
}
