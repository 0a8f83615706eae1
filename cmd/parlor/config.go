package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"parlor/lobby"
	"parlor/server"
)

// setting is one configuration knob: its flag, its environment variable and how a text
// value lands in the Config. One table drives parsing, the env fallback and --help, so
// the three can never disagree.
type setting struct {
	flag, env, arg, help string
	set                  func(c *server.Config, v string) error
	show                 func(c server.Config) string // the default, as --help prints it
}

var settings = []setting{
	text("listen", "ADDR", "SSH address to listen on", func(c *server.Config) *string { return &c.Listen }),
	text("data", "DIR", "directory for the host key and the database", func(c *server.Config) *string { return &c.DataDir }),
	address("http", `address for /metrics and /healthz; "off" (or an empty flag) disables it`, func(c *server.Config) *string { return &c.HTTP }),
	address("web", `address of the browser door (a page with a terminal, the same tables as ssh); "off" (or an empty flag) disables it`,
		func(c *server.Config) *string { return &c.Web }),
	text("web-cert", "FILE", "TLS certificate (PEM) for the browser door, with --web-key; none serves plain HTTP (put a TLS proxy in front)", func(c *server.Config) *string { return &c.WebCert }),
	text("web-key", "FILE", "the TLS certificate's private key (PEM)", func(c *server.Config) *string { return &c.WebKey }),
	list("web-origin", "ORIGINS", "other origins (https://play.example.com, or *.example.com) whose pages may open a session; the door's own host always may",
		func(c *server.Config) *[]string { return &c.WebOrigins }),
	list("web-proxy", "ADDRS", "reverse proxies (addresses or CIDRs, comma-separated) trusted to name the player in X-Forwarded-For and the scheme in X-Forwarded-Proto; none means those headers are never read",
		func(c *server.Config) *[]string { return &c.WebProxies }),
	text("web-url", "URL", "the browser door's public address (https://parlor.example.com), for the links parlor gives; none: http://HOST:PORT", func(c *server.Config) *string { return &c.WebURL }),
	whole("max-sessions", "most players (logged-in connections) at once; 0 means no limit", func(c *server.Config) *int { return &c.MaxSessions }),
	whole("gc-percent", "how far the heap may grow over what is live before Go's collector runs again, as GOGC, 25 to 1000; higher collects less often (fewer pauses in busy tables) for more memory; 0 leaves GOGC's; GOGC in the environment wins",
		func(c *server.Config) *int { return &c.GCPercent }),
	duration("idle-timeout", "disconnect players idle this long; 0 means never", func(c *server.Config) *time.Duration { return &c.IdleTimeout }),
	{
		flag: "fps", env: "PARLOR_FPS", arg: "N",
		help: fmt.Sprintf("most frames per second sent to a player's screen, %d to %d: a change is drawn at once unless a frame went out less than 1/N s before; fewer cost busy tables less CPU and show quick changes later", minFPS, maxFPS),
		set: func(c *server.Config, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < minFPS || n > maxFPS {
				return fmt.Errorf("want a whole number of frames per second from %d to %d, such as %d", minFPS, maxFPS, server.DefaultFrameRate)
			}
			c.FrameRate = n
			return nil
		},
		show: func(c server.Config) string { return strconv.Itoa(cmp.Or(c.FrameRate, server.DefaultFrameRate)) },
	},
	{
		flag: "game-speed", env: "PARLOR_GAME_SPEED", arg: "N",
		help: fmt.Sprintf("run game time N times faster than the clock, 1 to %d: bots, timers, reveals and pauses pass sooner (demos and tests), while the times players see stay the clock's; a table kept in --data comes back with the time it had left whatever the speed, but every node of a cluster needs the same", lobby.MaxSpeed),
		set: func(c *server.Config, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 || n > lobby.MaxSpeed {
				return fmt.Errorf("want a whole number from 1 (real time) to %d", lobby.MaxSpeed)
			}
			c.Clock = nil
			if n > 1 {
				c.Clock = lobby.Sped(n)
			}
			return nil
		},
		show: func(c server.Config) string {
			if s, ok := c.Clock.(lobby.Sped); ok {
				return strconv.Itoa(int(s))
			}
			return "1"
		},
	},
	{
		flag: "guests", env: "PARLOR_GUESTS", arg: "BOOL",
		help: "let players without an SSH key in as guests (--guests=false to refuse)",
		set: func(c *server.Config, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return errors.New("want true or false")
			}
			c.Guests = b
			return nil
		},
		show: func(c server.Config) string { return strconv.FormatBool(c.Guests) },
	},
	list("admins", "FINGERPRINTS", "comma-separated SHA256 key fingerprints of admins: the host's controls at any table, private tables, publishing packs, no table limit", func(c *server.Config) *[]string { return &c.Admins }),
	text("filter-words", "FILE", "the family filter's word list, one word or phrase a line in any language, in place of the built-in English one: tables whose Content is family refuse names, chat, clues and stories with a listed word",
		func(c *server.Config) *string { return &c.FilterWords }),
	duration("login-grace", "time a connection has for key exchange and login", func(c *server.Config) *time.Duration { return &c.LoginGrace }),
	duration("session-grace", "time a logged-in connection may go without a session", func(c *server.Config) *time.Duration { return &c.SessionGrace }),
	whole("max-unauthenticated", "most connections still logging in, in total", func(c *server.Config) *int { return &c.MaxUnauthenticated }),
	whole("per-ip-unauthenticated", "most connections still logging in from one address", func(c *server.Config) *int { return &c.PerIPUnauthenticated }),
	whole("per-ip-connections", "most open connections from one address; 0 means no limit", func(c *server.Config) *int { return &c.PerIPConnections }),
	{
		flag: "per-ip-rate", env: "PARLOR_PER_IP_RATE", arg: "N",
		help: "new connections per minute from one address, once its burst is spent",
		set: func(c *server.Config, v string) error {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return errors.New("want a number such as 30")
			}
			c.PerIPRate = f
			return nil
		},
		show: func(c server.Config) string { return strconv.FormatFloat(c.PerIPRate, 'g', -1, 64) },
	},
	whole("per-ip-burst", "new connections one address may open at once", func(c *server.Config) *int { return &c.PerIPBurst }),
	list("proxy-protocol", "ADDRS", "load balancers (addresses or CIDRs, comma-separated) whose connections start with a PROXY header naming the player; none means PROXY headers are never read",
		func(c *server.Config) *[]string { return &c.ProxyProtocol }),
	text("host-key", "PATH", `SSH host key file, made if missing; "" is host_ed25519 in --data. Give every node of a cluster the same file`,
		func(c *server.Config) *string { return &c.HostKey }),
	text("nats", "URLS", "join a cluster: NATS servers with JetStream, comma-separated (nats://nats-1:4222,nats://nats-2:4222); none runs alone with SQLite in --data",
		func(c *server.Config) *string { return &c.Cluster.URLs }),
	text("node", "NAME", "this node's name in the cluster, unique per node (needed with --nats)", func(c *server.Config) *string { return &c.Cluster.Node }),
	text("nats-creds", "FILE", "NATS credentials file (user JWT and nkey)", func(c *server.Config) *string { return &c.Cluster.Creds }),
	text("nats-ca", "FILE", "CA certificate (PEM) the NATS servers' TLS certificates are checked against", func(c *server.Config) *string { return &c.Cluster.CA }),
	text("nats-cert", "FILE", "client certificate (PEM) for NATS with mutual TLS, with --nats-key", func(c *server.Config) *string { return &c.Cluster.Cert }),
	text("nats-key", "FILE", "the client certificate's private key (PEM)", func(c *server.Config) *string { return &c.Cluster.Key }),
	whole("nats-replicas", "copies JetStream keeps of the cluster's data: 1 (0 means 1) on one NATS server, 3 on a NATS cluster of three or more", func(c *server.Config) *int { return &c.Cluster.Replicas }),
	text("log-format", "FORMAT", "text or json", func(c *server.Config) *string { return &c.LogFormat }),
	text("log-level", "LEVEL", "debug, info, warn or error", func(c *server.Config) *string { return &c.LogLevel }),
}

// The range --fps accepts: below 5 a held key's moves visibly lag; above 120 frames
// cost CPU that no terminal shows.
const (
	minFPS = 5
	maxFPS = 120
)

// envName is a flag's environment variable: --per-ip-rate is PARLOR_PER_IP_RATE.
func envName(flag string) string {
	return "PARLOR_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// text, whole, duration and list make the settings that only parse a value into one field.
func text(flag, arg, help string, field func(*server.Config) *string) setting {
	return setting{flag: flag, env: envName(flag), arg: arg, help: help,
		set:  func(c *server.Config, v string) error { *field(c) = v; return nil },
		show: func(c server.Config) string { return *field(&c) },
	}
}

// address makes a listening address that "off" disables: an empty environment
// variable reads the same as an unset one, so "off" is the way to disable it from the
// environment.
func address(flag, help string, field func(*server.Config) *string) setting {
	a := text(flag, "ADDR", help, field)
	a.set = func(c *server.Config, v string) error {
		if strings.EqualFold(v, "off") {
			v = ""
		}
		*field(c) = v
		return nil
	}
	return a
}

func whole(flag, help string, field func(*server.Config) *int) setting {
	return setting{flag: flag, env: envName(flag), arg: "N", help: help,
		set: func(c *server.Config, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return errors.New("want a whole number such as 500")
			}
			*field(c) = n
			return nil
		},
		show: func(c server.Config) string { return strconv.Itoa(*field(&c)) },
	}
}

func duration(flag, help string, field func(*server.Config) *time.Duration) setting {
	return setting{flag: flag, env: envName(flag), arg: "DURATION", help: help,
		set: func(c *server.Config, v string) error {
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil {
				return errors.New("want a duration such as 30m, 20s or 0")
			}
			*field(c) = d
			return nil
		},
		show: func(c server.Config) string { return field(&c).String() },
	}
}

// list settings append: a flag may be given more than once.
func list(flag, arg, help string, field func(*server.Config) *[]string) setting {
	return setting{flag: flag, env: envName(flag), arg: arg, help: help,
		set: func(c *server.Config, v string) error {
			for _, a := range strings.Split(v, ",") {
				if a = strings.TrimSpace(a); a != "" {
					*field(c) = append(*field(c), a)
				}
			}
			return nil
		},
		show: func(c server.Config) string { return strings.Join(*field(&c), ",") },
	}
}

// flagValue adapts a setting to flag.Value so that the flag package parses the command
// line (both -x and --x, "--x v" and "--x=v") and names the flag in its errors.
type flagValue struct {
	s   setting
	cfg *server.Config
}

func (f flagValue) String() string {
	if f.cfg == nil { // the flag package's zero-value probe
		return ""
	}
	return f.s.show(*f.cfg)
}

func (f flagValue) Set(v string) error { return f.s.set(f.cfg, v) }

// IsBoolFlag lets a bare --guests mean --guests=true.
func (f flagValue) IsBoolFlag() bool { return f.s.flag == "guests" }

// helpRequested is what parseConfig returns for -h/--help; main prints the usage text
// to stdout and exits 0.
type helpRequested struct{ usage string }

func (h *helpRequested) Error() string { return "help requested" }
func (h *helpRequested) Unwrap() error { return flag.ErrHelp }

// versionRequested is what parseConfig returns for --version.
type versionRequested struct{}

func (versionRequested) Error() string { return "version requested" }

// dashes makes the flag package's errors spell flags the way --help does.
var dashes = strings.NewReplacer("flag -", "--", "defined: -", "defined: --", "argument: -", "argument: --")

// parseConfig builds the configuration: defaults, then PARLOR_* environment variables,
// then command-line flags, which win; then Validate. Errors are meant for an operator:
// one line per problem, naming the flag or variable.
func parseConfig(args []string, getenv func(string) string) (server.Config, error) {
	cfg := server.Defaults()
	fs := flag.NewFlagSet("parlor", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned and printed once by main
	for _, s := range settings {
		fs.Var(flagValue{s: s, cfg: &cfg}, s.flag, s.help)
	}
	version := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return server.Config{}, &helpRequested{usage: usage()}
		}
		return server.Config{}, errors.New(dashes.Replace(err.Error()))
	}
	if *version {
		return server.Config{}, versionRequested{}
	}
	if fs.NArg() > 0 {
		// The usual slip is "--guests false": a bool flag takes its value after "=".
		return server.Config{}, fmt.Errorf("unexpected argument %q: parlor takes only flags (write --guests=false, not --guests false)", fs.Arg(0))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })

	// Flags were applied while parsing; an environment variable fills in only what no
	// flag set. (Lists append to their default, which is empty.)
	for _, s := range settings {
		v := getenv(s.env)
		if given[s.flag] || v == "" {
			continue
		}
		if err := s.set(&cfg, v); err != nil {
			return server.Config{}, fmt.Errorf("invalid value %q for %s: %v", v, s.env, err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return server.Config{}, err
	}
	return cfg, nil
}

// usage is the --help text: every flag with its variable and its default.
func usage() string {
	var b strings.Builder
	b.WriteString(`Usage: parlor [flags]

parlor is an SSH server for party games: players connect with "ssh -p PORT host".

Every flag can also be set by its environment variable. A flag given on the command
line wins over the environment variable, which wins over the default.

Flags:
`)
	def := server.Defaults()
	for _, s := range settings {
		d := s.show(def)
		if d == "" {
			d = "none"
		} else {
			d = strconv.Quote(d)
		}
		fmt.Fprintf(&b, "  --%s %s\n", s.flag, s.arg)
		fmt.Fprintf(&b, "        %s\n        env %s, default %s\n", s.help, s.env, d)
	}
	b.WriteString("  --version\n        print the version and exit\n")
	b.WriteString("  -h, --help\n        show this help\n")
	return b.String()
}
