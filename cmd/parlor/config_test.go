package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"parlor/lobby"
	"parlor/server"
)

const (
	fpA = "SHA256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	fpB = "SHA256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

// env turns a map into a getenv that, like os.Getenv, returns "" for anything unset.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestParseConfig(t *testing.T) {
	def := server.Defaults()
	with := func(f func(c *server.Config)) server.Config {
		c := server.Defaults()
		f(&c)
		return c
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want server.Config
	}{
		{name: "defaults", want: def},
		{
			name: "every flag",
			args: []string{"--listen", "127.0.0.1:2022", "--data=/var/lib/parlor", "--http", "off",
				"--max-sessions", "10", "--idle-timeout=5m", "--fps=15", "--game-speed=12", "--guests=false", "--admins", fpA + ", " + fpB,
				"--login-grace=5s", "--session-grace=3s", "--max-unauthenticated=50", "--per-ip-unauthenticated=4",
				"--per-ip-connections=0", "--per-ip-rate=6.5", "--per-ip-burst=3", "--proxy-protocol=10.0.0.0/8, 192.0.2.1",
				"--log-format=json", "--log-level=debug", "--web=127.0.0.1:8443", "--web-cert=c.pem", "--web-key=k.pem",
				"--web-origin=https://play.example.com", "--web-proxy=10.1.0.0/16", "--web-url=https://parlor.example.com", "--gc-percent=300"},
			want: server.Config{Listen: "127.0.0.1:2022", DataDir: "/var/lib/parlor", HTTP: "",
				Web: "127.0.0.1:8443", WebCert: "c.pem", WebKey: "k.pem", WebOrigins: []string{"https://play.example.com"},
				WebProxies: []string{"10.1.0.0/16"}, WebURL: "https://parlor.example.com",
				MaxSessions: 10, IdleTimeout: 5 * time.Minute, FrameRate: 15, Clock: lobby.Sped(12), Guests: false, Admins: []string{fpA, fpB},
				LoginGrace: 5 * time.Second, SessionGrace: 3 * time.Second, MaxUnauthenticated: 50, PerIPUnauthenticated: 4,
				PerIPConnections: 0, PerIPRate: 6.5, PerIPBurst: 3, ProxyProtocol: []string{"10.0.0.0/8", "192.0.2.1"},
				LogFormat: "json", LogLevel: "debug", GCPercent: 300},
		},
		{
			name: "every env var",
			env: map[string]string{"PARLOR_LISTEN": ":22", "PARLOR_DATA": "/data", "PARLOR_HTTP": "0.0.0.0:9222",
				"PARLOR_MAX_SESSIONS": "0", "PARLOR_IDLE_TIMEOUT": "0", "PARLOR_GUESTS": "false", "PARLOR_ADMINS": fpA + "," + fpB,
				"PARLOR_LOGIN_GRACE": "1m", "PARLOR_PER_IP_RATE": "120", "PARLOR_PROXY_PROTOCOL": "203.0.113.4", "PARLOR_LOG_FORMAT": "json",
				"PARLOR_FPS": "120", "PARLOR_GAME_SPEED": "1", "PARLOR_WEB": "off"},
			want: with(func(c *server.Config) {
				c.Listen, c.DataDir, c.HTTP, c.MaxSessions, c.IdleTimeout, c.Guests, c.Admins = ":22", "/data", "0.0.0.0:9222", 0, 0, false, []string{fpA, fpB}
				c.LoginGrace, c.PerIPRate, c.ProxyProtocol, c.LogFormat = time.Minute, 120, []string{"203.0.113.4"}, "json"
				c.FrameRate = 120
				c.Web = ""
			}),
		},
		{
			name: "flag wins over env",
			args: []string{"--listen=:3333", "--guests", "--admins=" + fpB, "--idle-timeout=1h"},
			env: map[string]string{"PARLOR_LISTEN": ":4444", "PARLOR_GUESTS": "false", "PARLOR_ADMINS": fpA,
				"PARLOR_IDLE_TIMEOUT": "2h", "PARLOR_MAX_SESSIONS": "7"},
			want: with(func(c *server.Config) {
				c.Listen, c.Guests, c.Admins, c.IdleTimeout, c.MaxSessions = ":3333", true, []string{fpB}, time.Hour, 7
			}),
		},
		{
			name: "flag wins over a bad env var",
			args: []string{"--max-sessions=3"},
			env:  map[string]string{"PARLOR_MAX_SESSIONS": "lots"},
			want: with(func(c *server.Config) { c.MaxSessions = 3 }),
		},
		{
			name: "empty flag disables http",
			args: []string{"--http="},
			env:  map[string]string{"PARLOR_HTTP": "127.0.0.1:1"},
			want: with(func(c *server.Config) { c.HTTP = "" }),
		},
		{
			name: "env off disables http",
			env:  map[string]string{"PARLOR_HTTP": "OFF"},
			want: with(func(c *server.Config) { c.HTTP = "" }),
		},
		{
			name: "empty env var is unset",
			env:  map[string]string{"PARLOR_LISTEN": "", "PARLOR_GUESTS": ""},
			want: def,
		},
		{
			name: "single dash and repeated admins",
			args: []string{"-admins", fpA, "-admins", fpB, "-guests=0"},
			want: with(func(c *server.Config) { c.Admins, c.Guests = []string{fpA, fpB}, false }),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseConfig(tc.args, env(tc.env))
			if err != nil {
				t.Fatalf("parseConfig: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want []string // every piece must appear in the message
	}{
		{name: "bad duration flag", args: []string{"--idle-timeout=soon"}, want: []string{"--idle-timeout", `"soon"`, "duration"}},
		{name: "bad int flag", args: []string{"--max-sessions", "many"}, want: []string{"max-sessions", `"many"`, "whole number"}},
		{name: "bad bool flag", args: []string{"--guests=maybe"}, want: []string{"guests", `"maybe"`, "true or false"}},
		{name: "bad duration env", env: map[string]string{"PARLOR_IDLE_TIMEOUT": "30"}, want: []string{"PARLOR_IDLE_TIMEOUT", `"30"`, "duration"}},
		{name: "bad int env", env: map[string]string{"PARLOR_MAX_SESSIONS": "1e3"}, want: []string{"PARLOR_MAX_SESSIONS", `"1e3"`}},
		{name: "bad bool env", env: map[string]string{"PARLOR_GUESTS": "yes please"}, want: []string{"PARLOR_GUESTS", "true or false"}},
		{name: "unknown flag", args: []string{"--port=22"}, want: []string{"--port"}},
		{name: "missing value", args: []string{"--listen"}, want: []string{"--listen"}},
		{name: "stray argument", args: []string{"--guests", "false"}, want: []string{`"false"`, "--guests=false"}},
		{name: "invalid listen (Validate)", args: []string{"--listen=2222"}, want: []string{"--listen", "2222"}},
		{name: "negative sessions (Validate)", env: map[string]string{"PARLOR_MAX_SESSIONS": "-1"}, want: []string{"--max-sessions"}},
		{name: "bad admin (Validate)", env: map[string]string{"PARLOR_ADMINS": "alice"}, want: []string{"--admins", "alice"}},
		{name: "bad proxy range (Validate)", args: []string{"--proxy-protocol=10.0.0.0/33"}, want: []string{"--proxy-protocol", "10.0.0.0/33"}},
		{name: "bad web address (Validate)", args: []string{"--web=8080"}, want: []string{"--web", "8080", "off"}},
		{name: "web cert without key (Validate)", args: []string{"--web-cert=c.pem"}, want: []string{"--web-cert", "--web-key", "both"}},
		{name: "bad web origin (Validate)", args: []string{"--web-origin=https://"}, want: []string{"--web-origin", "https://"}},
		{name: "bad web proxy (Validate)", env: map[string]string{"PARLOR_WEB_PROXY": "proxy.local"}, want: []string{"--web-proxy", "proxy.local"}},
		{name: "bad web url (Validate)", args: []string{"--web-url=parlor.example.com"}, want: []string{"--web-url", "https://"}},
		{name: "bad log format (Validate)", args: []string{"--log-format=xml"}, want: []string{"--log-format", "xml", "json"}},
		{name: "bad log level (Validate)", args: []string{"--log-level=loud"}, want: []string{"--log-level", "loud"}},
		{name: "zero login grace (Validate)", args: []string{"--login-grace=0"}, want: []string{"--login-grace"}},
		{name: "bad rate", args: []string{"--per-ip-rate=fast"}, want: []string{"per-ip-rate", "number"}},
		{name: "fps too low", args: []string{"--fps=4"}, want: []string{"--fps", `"4"`, "5 to 120"}},
		{name: "fps too high", args: []string{"--fps", "121"}, want: []string{"--fps", `"121"`, "5 to 120"}},
		{name: "fps zero env", env: map[string]string{"PARLOR_FPS": "0"}, want: []string{"PARLOR_FPS", `"0"`, "5 to 120"}},
		{name: "game speed zero", args: []string{"--game-speed=0"}, want: []string{"--game-speed", `"0"`, "1 (real time) to 20"}},
		{name: "game speed too high", env: map[string]string{"PARLOR_GAME_SPEED": "21"}, want: []string{"PARLOR_GAME_SPEED", `"21"`, "1 (real time) to 20"}},
		{name: "fps not a number", env: map[string]string{"PARLOR_FPS": "fast"}, want: []string{"PARLOR_FPS", `"fast"`, "frames per second"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseConfig(tc.args, env(tc.env))
			if err == nil {
				t.Fatal("parseConfig succeeded")
			}
			if errors.Is(err, flag.ErrHelp) {
				t.Fatalf("a bad value was taken for --help: %v", err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("message is not one line: %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not mention %q", msg, w)
				}
			}
		})
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "-help"} {
		_, err := parseConfig([]string{"--listen=:1", arg}, env(nil))
		var h *helpRequested
		if !errors.As(err, &h) || !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("parseConfig(%s) = %v, want a help request", arg, err)
		}
		for _, s := range settings {
			if !strings.Contains(h.usage, "--"+s.flag+" ") || !strings.Contains(h.usage, s.env) {
				t.Errorf("help lacks --%s or %s:\n%s", s.flag, s.env, h.usage)
			}
		}
		for _, w := range []string{`default ":2222"`, `default "./data"`, `default "127.0.0.1:9222"`,
			`default "500"`, `default "30m0s"`, `default "true"`, "default none", "wins over",
			`env PARLOR_FPS, default "30"`} {
			if !strings.Contains(h.usage, w) {
				t.Errorf("help lacks %q:\n%s", w, h.usage)
			}
		}
	}
}

// Every setting is in README's table of flags, with its variable, so the README cannot
// fall behind a new flag.
func TestReadmeListsEveryFlag(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range settings {
		if !bytes.Contains(readme, []byte("`--"+s.flag+"`")) || !bytes.Contains(readme, []byte("`"+s.env+"`")) {
			t.Errorf("README's flag table lacks --%s or %s", s.flag, s.env)
		}
	}
}
