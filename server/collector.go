package server

import (
	"os"
	"runtime/debug"
	rtmetrics "runtime/metrics"
)

// setCollector sets the collector's pace from cfg (Config.GCPercent), unless the GOGC
// environment variable is set: then the runtime already follows it. It returns the pace
// in force.
func setCollector(cfg Config) int {
	if cfg.GCPercent <= 0 || os.Getenv("GOGC") != "" {
		return gcPercent()
	}
	debug.SetGCPercent(cfg.GCPercent)
	return cfg.GCPercent
}

// gcPercent is the collector's pace in force, read without changing it.
func gcPercent() int {
	s := []rtmetrics.Sample{{Name: "/gc/gogc:percent"}}
	rtmetrics.Read(s)
	return int(s[0].Value.Uint64())
}
