package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
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

// TestScrapeCountsCollections: the report's collections are the servers'
// go_gc_duration_seconds_count, summed over a cluster's nodes.
func TestScrapeCountsCollections(t *testing.T) {
	page := func(collections int) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprintf(w, "# TYPE go_gc_duration_seconds summary\n"+
				"go_gc_duration_seconds{quantile=\"0.5\"} 0.0004\n"+
				"go_gc_duration_seconds_sum 0.02\n"+
				"go_gc_duration_seconds_count %d\n"+
				"go_goroutines 12\n"+
				"process_cpu_seconds_total 1.5\n"+
				"process_resident_memory_bytes 2.5e+07\n", collections)
		}
	}
	a, b := httptest.NewServer(page(3)), httptest.NewServer(page(4))
	defer a.Close()
	defer b.Close()
	s, err := scrapeAll(context.Background(), []string{a.URL, b.URL})
	if err != nil || !s.ok {
		t.Fatalf("scrape: %+v, %v", s, err)
	}
	if s.collections != 7 || s.goroutines != 24 {
		t.Errorf("collections %v and goroutines %v over two nodes; want 7 and 24", s.collections, s.goroutines)
	}
}
