package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"parlor/assets"
	"parlor/internal/testkit/e2e"
	"parlor/lobby"
	"parlor/rules"
	"parlor/rules/topfive"
)

// TestTablesSurviveARestart plays part of a Top Five game with three SSH clients against
// the real program, stops the process — kill -9, or SIGTERM as a deploy does — starts it
// again on the same data folder, and the same keys find their table and finish the game.
// The ranking Ann was told "ok" for before the stop is still hers after it.
//
// The server runs game time 20 times faster than the clock (--game-speed), so the six
// rounds' reveals and results pauses take seconds; with no ranking time limit and no bot
// taking over away seats, only the players' own moves end a phase, however slowly the
// machine runs the test.
func TestTablesSurviveARestart(t *testing.T) {
	for _, stop := range []struct {
		name string
		sig  syscall.Signal
	}{{"kill -9", syscall.SIGKILL}, {"SIGTERM", syscall.SIGTERM}} {
		// Each plays a game with its own server and data: side by side, they take the
		// time of one (the game's reveal pace, not the CPU, sets it).
		t.Run(stop.name, func(t *testing.T) {
			t.Parallel()
			restartDuringAGame(t, stop.sig)
		})
	}
}

func restartDuringAGame(t *testing.T, sig syscall.Signal) {
	data := filepath.Join(t.TempDir(), "data")
	p := startParlor(t, data)
	srv := e2e.Attach(t, p.addr)
	names := []string{"Ann", "Ben", "Cat"}
	keys := []e2e.Key{e2e.NewKey(t), e2e.NewKey(t), e2e.NewKey(t)}
	content, err := assets.Load(topfive.Spec.Content)
	if err != nil {
		t.Fatal(err)
	}
	var players []*apiPlayer
	for i, name := range names {
		bot := topfive.NewBot(rules.BotSetup{Seat: i, Seed: uint64(i + 1), Options: topfive.Spec.Defaults(), Content: content})
		pl := &apiPlayer{api: srv.API(t, strings.ToLower(name), keys[i]), bot: bot, clock: time.Now()}
		pl.api.Send(map[string]any{"op": "hello", "name": name})
		pl.api.Expect("hello")
		players = append(players, pl)
	}
	ann := players[0]
	ann.api.Send(map[string]any{"op": "create", "game": topfive.ID, "options": map[string]string{
		topfive.OptPace: "1s", topfive.OptTimer: "off", lobby.OptAway: lobby.AwayTimers}})
	code := ann.api.Expect("joined")["code"].(string)
	for _, pl := range players[1:] {
		pl.api.Send(map[string]any{"op": "join", "code": code})
		pl.api.Expect("joined")
	}
	ann.api.Send(map[string]any{"op": "start"})
	ann.expectOK(t)
	// Play until Ann has a ranking acknowledged in round 2. Ben and Cat do not act in round
	// 2 before the restart: with no timer nothing else ends the round, so Ann's ranking is
	// still the round's after it, however slow the machine (at --game-speed 20 a reveal
	// lasts 50 ms, and a round the three of them finished had moved on before the kill).
	for _, pl := range players[1:] {
		pl.holdAt = 2
	}
	for i := 0; !(ann.view.Round >= 2 && ann.lastOK != nil && ann.view.Mine != nil); i++ {
		if i > 2000 {
			t.Fatalf("round 2 never came; Ann sees %+v", ann.view.Header)
		}
		for _, pl := range players {
			pl.step(t)
		}
	}
	acknowledged := *ann.view.Mine

	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	if sig == syscall.SIGTERM {
		bye := ann.api.Expect("bye")
		if reason, _ := bye["reason"].(string); !strings.Contains(reason, "your table will be here when it is back") {
			t.Errorf("on SIGTERM Ann was told %q", reason)
		}
	}
	p.wait(t)

	p = startParlor(t, data)
	srv = e2e.Attach(t, p.addr)
	// In the lobby Ann is told her table waits for her, and goes back with r.
	tui := srv.Connect(t, "ann", keys[0], "", 80, 24)
	tui.WaitFor(fmt.Sprintf("Your Top Five table %s is in round", code), "press r to go back")
	tui.Press("r")
	tui.WaitFor("table " + code)
	tui.Close()
	for i, pl := range players {
		pl.api = srv.API(t, strings.ToLower(names[i]), keys[i])
		pl.api.Send(map[string]any{"op": "join", "code": code})
		pl.api.Expect("joined")
		pl.view, pl.lastOK, pl.holdAt = topfive.View{}, nil, 0
	}
	for ann.view.Game == "" {
		ann.step(t)
	}
	if ann.view.Round < 2 || ann.view.Mine == nil || !reflect.DeepEqual(*ann.view.Mine, acknowledged) {
		t.Fatalf("after the restart Ann's acknowledged ranking is gone: round %d, mine %+v, want %+v", ann.view.Round, ann.view.Mine, acknowledged)
	}
	for i := 0; !ann.view.Over; i++ {
		if i > 5000 {
			t.Fatalf("the game never ended; Ann sees %+v", ann.view.Header)
		}
		for _, pl := range players {
			pl.step(t)
		}
	}
	if len(ann.view.Winners) == 0 {
		t.Errorf("the game ended without winners: %+v", ann.view)
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	p.wait(t)
}

// apiPlayer is an API client whose moves a Top Five bot chooses from its own view. The
// bot's clock runs ahead on every call so that it never waits to look human.
type apiPlayer struct {
	api    *e2e.API
	bot    rules.Bot
	clock  time.Time
	view   topfive.View
	lastOK map[string]any
	holdAt int // if not 0, the bot does not act from this round on
}

// read takes in the lines that have arrived, keeping the newest view.
func (p *apiPlayer) read(t *testing.T, wait time.Duration) map[string]any {
	t.Helper()
	m, ok := p.api.Poll(wait)
	if !ok {
		return nil
	}
	if m["type"] == "view" {
		raw, _ := json.Marshal(m["view"])
		var v topfive.View
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("view does not decode: %v", err)
		}
		p.view = v
	}
	return m
}

// expectOK reads until the answer to the last request, which must be "ok".
func (p *apiPlayer) expectOK(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(e2e.Wait); time.Now().Before(deadline); {
		m := p.read(t, 100*time.Millisecond)
		switch {
		case m == nil:
		case m["type"] == "ok":
			p.lastOK = m
			return
		case m["type"] == "error":
			t.Fatalf("request refused: %v", m["error"])
		}
	}
	t.Fatal("no answer")
}

// step reads what has arrived and, if the bot wants to act, acts; a refused action
// (a stale view) is fine, as it is for a person.
func (p *apiPlayer) step(t *testing.T) {
	t.Helper()
	for p.read(t, 10*time.Millisecond) != nil {
	}
	if p.view.Game == "" || p.holdAt > 0 && p.view.Round >= p.holdAt {
		return
	}
	p.clock = p.clock.Add(10 * time.Second)
	a := p.bot.Act(p.view, p.clock)
	if a == nil {
		return
	}
	p.api.Send(map[string]any{"op": "act", "action": a})
	for deadline := time.Now().Add(e2e.Wait); time.Now().Before(deadline); {
		m := p.read(t, 100*time.Millisecond)
		if m != nil && (m["type"] == "ok" || m["type"] == "error") {
			p.lastOK = nil
			if m["type"] == "ok" {
				p.lastOK = m
			}
			return
		}
	}
	t.Fatal("no answer to an action")
}

// process is one run of parlor.
type process struct {
	cmd    *exec.Cmd
	addr   string
	exited chan error
}

var listening = regexp.MustCompile(`ssh=(127\.0\.0\.1:\d+)`)

func startParlor(t *testing.T, data string) *process {
	t.Helper()
	cmd := parlorCmd(t, "--listen=127.0.0.1:0", "--http=off", "--web=off", "--data="+data, "--game-speed=20")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, exited: make(chan error, 1)}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.exited
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
			if testing.Verbose() {
				t.Log(sc.Text())
			}
		}
		p.exited <- cmd.Wait()
		close(p.exited)
	}()
	select {
	case p.addr = <-addr:
	case <-time.After(60 * time.Second):
		t.Fatal("parlor did not start listening")
	}
	return p
}

// wait waits for the process to end, however it was stopped.
func (p *process) wait(t *testing.T) {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Fatal("parlor did not stop")
	}
}
