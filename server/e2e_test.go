package server_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/testgame"
)

// newPlayer connects with a new key and picks a name on the welcome screen.
func newPlayer(t *testing.T, s *e2e.Server, name string) (*e2e.Player, e2e.Key) {
	t.Helper()
	key := e2e.NewKey(t)
	p := s.Connect(t, strings.ToLower(name), key, "", 80, 24)
	p.WaitFor("Welcome to parlor")
	p.Press("ctrl+u", name, "enter")
	p.WaitFor("Open tables", "you are "+name)
	return p, key
}

// createTable creates a table for game (by its display name) from the lobby.
func createTable(t *testing.T, p *e2e.Player, gameName string) string {
	t.Helper()
	p.Press("c")
	p.WaitFor("Choose a game")
	p.PressUntil("right", "‹ "+gameName+" ›", 12)
	p.Press("enter")
	return p.TableCode()
}

func TestTwoPlayersMeetAtATableAndChat(t *testing.T) {
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Pick")
	ann.WaitFor("Seats 1/4", "Ann", "★host")

	ben, _ := newPlayer(t, s, "Ben")
	ben.Press("tab", strings.ToLower(code), "enter")
	ben.WaitFor("table "+code, "Ann", "Ben")
	ann.WaitFor("Seats 2/4", "Ben sits down")

	ben.Press("enter", "hello Ann", "enter")
	ann.WaitFor("Ben: hello Ann")
	ann.Press("enter")
	ann.Paste("hi \x1b[31mBen\x1b[0m\x07")
	ann.Press("enter")
	scr := ben.WaitFor("Ann: hi Ben")
	if strings.Contains(scr, "[31m") {
		t.Fatalf("escape sequence shown:\n%s", scr)
	}
}

func TestJoinAndWatchCommandsLandAtTheTable(t *testing.T) {
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Pick")

	key := e2e.NewKey(t)
	ben := s.Connect(t, "ben", key, "join "+code, 80, 24)
	ben.WaitFor("Welcome to parlor") // a first visit still picks a name
	ben.Press("enter")
	ben.WaitFor("table "+code, "← you")
	ann.WaitFor("ben sits down")

	watchAsGuest(t, s, "cat", code)
	ann.WaitFor("1 watching")

	if _, stderr, err := s.Run(t, key, "join "+code); err == nil || !strings.Contains(stderr, "use ssh -t") {
		t.Fatalf("join without a PTY: err=%v stderr=%q", err, stderr)
	}
	if _, stderr, err := s.Run(t, key, "dance"); err == nil || !strings.Contains(stderr, "unknown command") {
		t.Fatalf("unknown command: err=%v stderr=%q", err, stderr)
	}
	for _, verb := range []string{"join", "watch"} { // without the code
		if _, stderr, err := s.Run(t, key, verb); err == nil || !strings.Contains(stderr, verb+" needs a table's code") || !strings.Contains(stderr, verb+" ABCD") {
			t.Errorf("%s alone: err=%v stderr=%q", verb, err, stderr)
		}
	}
	if out, _, err := s.Run(t, key, "help"); err != nil || !strings.Contains(out, "join ABCD") {
		t.Fatalf("help: err=%v out=%q", err, out)
	}
	bad := s.Connect(t, "ben", key, "join ZZZZ", 80, 24)
	bad.WaitFor("table ZZZZ: no table has that code")
	// A terminal that cannot move its cursor gets the linear mode, not a screen it
	// garbles (its input ends at once here, and the session with it).
	for _, cmd := range []string{"", "join " + code} {
		out, stderr, err := s.RunTerm(t, key, "dumb", cmd)
		if err != nil || !strings.Contains(out, "linear mode") || strings.Contains(out, "\x1b[") {
			t.Errorf("%q on TERM=dumb: err=%v stderr=%q out=%q", cmd, err, stderr, out)
		}
	}
}

func TestReconnectWithTheSameKeyTakesTheSeatBack(t *testing.T) {
	t.Parallel() // its own server
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Pick")
	ben, key := newPlayer(t, s, "Ben")
	ben.Press("tab", code, "enter")
	ann.WaitFor("Seats 2/4")
	ann.Press("s")
	ann.WaitFor("Pick · table " + code)
	ben.WaitFor("Round 1 of 2")

	ben2 := s.Connect(t, "ben", key, "join "+code, 80, 24)
	ben2.WaitFor("Round 1 of 2", "you: Ben")
	ben.WaitFor("connected again")
	if err := ben.Ended(); err != nil {
		t.Logf("old session ended with %v", err)
	}

	ben2.Close()
	ann.Press("esc")
	ann.WaitFor("Ben (away ")
	ben3 := s.Connect(t, "ben", key, "", 80, 24)
	ben3.WaitFor("Your Pick table " + code + " is in round 1 — press r to go back.")
	ben3.Press("r")
	ben3.WaitFor("Round 1 of 2")
	ann.WaitGone("Ben (away ")
}

func TestSpectatorSeesNoSecret(t *testing.T) {
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Pick")
	ben := s.API(t, "ben", e2e.NewKey(t))
	ben.Send(map[string]any{"op": "join", "code": code})
	ben.Expect("joined")
	ann.WaitFor("Seats 2/4")
	ann.Press("s")
	ann.WaitFor("Pick a number")

	watcher := s.Connect(t, "watcher", e2e.Guest, "watch "+code, 80, 24)
	watcher.Press("enter")
	watcher.WaitFor("Pick · table "+code, "watching")
	ann.Press("2")
	ann.WaitFor(testgame.Secret)
	watcher.WaitFor("Ann has picked")
	if strings.Contains(watcher.Screen(), testgame.Secret) {
		t.Fatalf("the spectator sees a secret:\n%s", watcher.Screen())
	}
	view := ben.Until("Ann has picked", func(m map[string]any) bool {
		return m["type"] == "view" && strings.Contains(fmt.Sprint(m["view"]), "Ann has picked")
	})
	if strings.Contains(fmt.Sprint(view), testgame.Secret) {
		t.Fatalf("another player's API view holds a secret: %v", view)
	}
}

func TestTinyWindowAsksToEnlarge(t *testing.T) {
	s := e2e.Start(t, nil)
	p := s.Connect(t, "tiny", e2e.NewKey(t), "", 40, 10)
	p.WaitFor("Please enlarge your terminal to 80×24.", "It is 40×10 now.")
	p.Resize(1, 1)
	time.Sleep(100 * time.Millisecond)
	p.Resize(80, 24)
	p.WaitFor("Welcome to parlor")
}

func TestEscapeSequencesInNamesAreNeutralised(t *testing.T) {
	s := e2e.Start(t, nil)
	p := s.Connect(t, "ev\x1b[31mil\x1b]0;pwned\x07", e2e.NewKey(t), "", 80, 24)
	scr := p.WaitFor("Welcome to parlor", "evil")
	if strings.Contains(scr, "[31m") || strings.Contains(scr, "pwned") {
		t.Fatalf("name not neutralised:\n%s", scr)
	}
	p.Press("ctrl+u", "x", "enter")
	p.WaitFor("a name has 2 to 16 characters")
}
