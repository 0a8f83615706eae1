package server

import (
	"os"
	"runtime/debug"
)

// setCollector sets the collector's pace from cfg (Config.GCPercent), unless the GOGC
// environment variable is set: then the runtime already follows it. It returns the pace
// in force.
func setCollector(cfg Config) int {
	if cfg.GCPercent <= 0 || os.Getenv("GOGC") != "" {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	debug.SetGCPercent(cfg.GCPercent)
	return cfg.GCPercent
}
