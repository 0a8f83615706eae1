package server

import (
	"runtime/debug"
	"testing"
)

// gcPercentNow is the collector's GOGC in force.
func gcPercentNow() int { return gcPercent() }

// The server sets the collector's pace it is configured with, unless the operator set
// GOGC in the environment: the runtime's own knob wins.
func TestTheCollectorPaceIsSetUnlessGOGCIs(t *testing.T) {
	before := gcPercentNow()
	t.Cleanup(func() { debug.SetGCPercent(before) })

	t.Setenv("GOGC", "")
	cfg := Defaults()
	if cfg.GCPercent != DefaultGCPercent {
		t.Fatalf("Defaults().GCPercent = %d, want %d", cfg.GCPercent, DefaultGCPercent)
	}
	if got := setCollector(cfg); got != DefaultGCPercent || gcPercentNow() != DefaultGCPercent {
		t.Fatalf("setCollector: %d, GOGC now %d; want %d", got, gcPercentNow(), DefaultGCPercent)
	}

	debug.SetGCPercent(100)
	cfg.GCPercent = 0 // as Go's runtime has it
	if got := setCollector(cfg); got != 100 || gcPercentNow() != 100 {
		t.Fatalf("GCPercent 0: setCollector %d, GOGC now %d; want Go's 100 left alone", got, gcPercentNow())
	}

	t.Setenv("GOGC", "150")
	debug.SetGCPercent(150)
	cfg.GCPercent = 300
	if got := setCollector(cfg); got != 150 || gcPercentNow() != 150 {
		t.Fatalf("GOGC=150 in the environment: setCollector %d, GOGC now %d; want 150", got, gcPercentNow())
	}
}

func TestAnAbsurdCollectorPaceIsRefused(t *testing.T) {
	for _, p := range []int{-1, 5, 5000} {
		cfg := Defaults()
		cfg.GCPercent = p
		if err := cfg.Validate(); err == nil {
			t.Errorf("GCPercent %d: Validate accepted it", p)
		}
	}
}
