package server

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"
)

// Config is everything the server needs; cmd/parlor fills it from defaults, flags and
// PARLOR_* environment variables, then calls Validate.
type Config struct {
	Listen      string        // SSH address, e.g. ":2222"
	DataDir     string        // holds the host key and the database
	HTTP        string        // /metrics and /healthz address; "" disables
	MaxSessions int           // concurrent SSH sessions; 0 means no limit
	IdleTimeout time.Duration // disconnect players who send no input this long; 0 means never
	Guests      bool          // allow key-less guests (keyboard-interactive)
	Admins      []string      // SHA256 key fingerprints with admin rights
}

// Defaults returns the configuration used when nothing is set.
func Defaults() Config {
	return Config{
		Listen:      ":2222",
		DataDir:     "./data",
		HTTP:        "127.0.0.1:9222",
		MaxSessions: 500,
		IdleTimeout: 30 * time.Minute,
		Guests:      true,
	}
}

// Validate reports every problem in c at once, in words an operator can act on.
func (c Config) Validate() error {
	var errs []error
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		errs = append(errs, fmt.Errorf("--listen %q: want host:port such as :2222 (%v)", c.Listen, err))
	}
	if c.HTTP != "" {
		if _, _, err := net.SplitHostPort(c.HTTP); err != nil {
			errs = append(errs, fmt.Errorf("--http %q: want host:port such as 127.0.0.1:9222, or empty to disable (%v)", c.HTTP, err))
		}
	}
	if strings.TrimSpace(c.DataDir) == "" {
		errs = append(errs, errors.New("--data: must name a directory"))
	}
	if c.MaxSessions < 0 {
		errs = append(errs, fmt.Errorf("--max-sessions %d: must be 0 (no limit) or more", c.MaxSessions))
	}
	if c.IdleTimeout < 0 {
		errs = append(errs, fmt.Errorf("--idle-timeout %s: must be 0 (never) or a positive duration such as 30m", c.IdleTimeout))
	}
	for _, a := range c.Admins {
		if !strings.HasPrefix(a, "SHA256:") || len(a) < 20 {
			errs = append(errs, fmt.Errorf("--admins: %q is not a SHA256 key fingerprint (ssh-keygen -lf key.pub prints one, e.g. SHA256:abc…)", a))
		}
	}
	return errors.Join(errs...)
}
