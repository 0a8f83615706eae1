package server

import (
	"fmt"
	"io"
	"strings"

	"charm.land/log/v2"
)

// NewLogger is the process's logger as --log-format and --log-level ask: text for a
// terminal or `docker logs`, JSON for a log collector.
func NewLogger(cfg Config, w io.Writer) (*log.Logger, error) {
	level, err := parseLevel(cfg.LogLevel)
	if err != nil {
		return nil, err
	}
	opts := log.Options{ReportTimestamp: true, Prefix: "parlor", Level: level}
	if cfg.LogFormat == "json" {
		opts.Formatter = log.JSONFormatter
	}
	return log.NewWithOptions(w, opts), nil
}

// parseLevel is log.ParseLevel without "fatal": parlor never exits from a log call.
func parseLevel(s string) (log.Level, error) {
	l, err := log.ParseLevel(strings.TrimSpace(s))
	if err != nil || l == log.FatalLevel {
		return 0, fmt.Errorf("unknown log level %q", s)
	}
	return l, nil
}
