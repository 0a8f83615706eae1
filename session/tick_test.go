package session

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"parlor/assets"
	"parlor/internal/testkit/testclock"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui/gameuitest"
)

// A second passing on a screen without a clock changes nothing and draws nothing.
func TestTickWithoutAClockDrawsNothing(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	before := h.m.View().Content
	h.clock.Advance(time.Second)
	h.m.Update(tickMsg(h.clock.Now()))
	if h.m.dirty {
		t.Fatal("a tick on the lobby marked the frame to be drawn again")
	}
	if after := h.m.View().Content; after != before {
		t.Fatalf("a tick changed the lobby:\n%s\n---\n%s", before, after)
	}
}

// A countdown redraws its own line, the title bar, and nothing else of the frame; in
// the terminal's own colours too.
func TestTickRedrawsOnlyTheClocksLine(t *testing.T) {
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256} {
		t.Run(p.String(), func(t *testing.T) { tickRedrawsOnlyTheClocksLine(t, p) })
	}
}

func tickRedrawsOnlyTheClocksLine(t *testing.T, p colorprofile.Profile) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.Update(tea.ColorProfileMsg{Profile: p})
	h.sitAt("quadrant", nil, 4)
	before := strings.Split(h.m.View().Content, "\n")
	if !strings.Contains(ansi.Strip(before[0]), "⏱") {
		t.Fatalf("no countdown in the title: %q", ansi.Strip(before[0]))
	}
	h.clock.Advance(time.Second)
	h.m.Update(tickMsg(h.clock.Now()))
	if h.m.dirty {
		t.Fatal("the tick marked the whole frame to be drawn again")
	}
	after := strings.Split(h.m.View().Content, "\n")
	if after[0] == before[0] {
		t.Fatalf("the countdown did not move: %q", ansi.Strip(after[0]))
	}
	if strings.Join(after[1:], "\n") != strings.Join(before[1:], "\n") {
		t.Fatal("the tick changed more than the title bar")
	}
	h.m.dirty, h.m.drawn = true, nil // a full drawing, every line recoloured afresh
	if full := h.m.View().Content; full != strings.Join(after, "\n") {
		t.Fatalf("the frame with the redrawn line differs from a full drawing:\n%q\n---\n%q", strings.Join(after, "\n"), full)
	}
	// A move redraws the frame, keeping the recoloured lines that did not change.
	h.press("right")
	moved := h.m.View().Content
	h.m.dirty, h.m.drawn = true, nil
	if full := h.m.View().Content; moved == strings.Join(after, "\n") || full != moved {
		t.Fatalf("after a move the frame is not what a full drawing shows:\n%q\n---\n%q", moved, full)
	}
}

// fakeTimer stands in for the session's time.AfterFunc timer: the test fires it, and it
// counts what is pending (an armed timer, a fired tick not yet taken) so that no test
// can miss a second tick.
type fakeTimer struct {
	t       *testing.T
	f       func()
	made    int           // timers made: one per session at most
	armed   bool          // it will fire
	d       time.Duration // after this long, when armed
	pending func() int    // ticks armed or on their way
}

func (ft *fakeTimer) start(d time.Duration, f func()) stopper {
	ft.made++
	if ft.made > 1 {
		ft.t.Fatal("a second tick timer was made")
	}
	ft.f = f
	ft.Reset(d)
	return ft
}

func (ft *fakeTimer) Stop() bool {
	was := ft.armed
	ft.armed = false
	return was
}

func (ft *fakeTimer) Reset(d time.Duration) bool {
	was := ft.armed
	ft.armed, ft.d = true, d
	if n := ft.pending(); n > 1 {
		ft.t.Fatalf("%d ticks pending after the timer was armed", n)
	}
	return was
}

// fire runs the timer's function, as time.AfterFunc would after ft.d.
func (ft *fakeTimer) fire() {
	ft.t.Helper()
	if !ft.armed {
		ft.t.Fatal("no tick is pending")
	}
	ft.armed = false
	ft.f()
}

// sendHarness is a session made as the server makes it, with Options.Send: the table's
// news and the ticks reach it as messages, which the test delivers like a program.
type sendHarness struct {
	*harness
	timer *fakeTimer
	sent  chan tea.Msg
	ticks int // ticks sent through Options.Send
}

func newSendHarness(t *testing.T, o Options) *sendHarness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c := testclock.New(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	l := lobby.New(ctx, lobby.Config{Content: assets.Load, Clock: c})
	sh := &sendHarness{sent: make(chan tea.Msg, 64)}
	o.Lobby, o.Now = l, c.Now
	if o.Player.ID == "" {
		o.Player = lobby.Player{ID: "SHA256:Zed", Name: "Zed"}
	}
	o.Send = func(msg tea.Msg) {
		if _, ok := msg.(tickMsg); ok {
			sh.ticks++ // on the test's goroutine: the fake timer fires there
		}
		select {
		case sh.sent <- msg:
		case <-ctx.Done():
		}
	}
	m := New(ctx, o)
	sh.timer = &fakeTimer{t: t, pending: sh.pendingTicks}
	m.ticks.start = sh.timer.start
	t.Cleanup(func() {
		m.leaveTable()
		cancel()
		_ = l.Shutdown(context.Background())
	})
	sh.harness = &harness{t: t, ctx: ctx, m: m, l: l, clock: c}
	sh.update(tea.WindowSizeMsg{Width: 80, Height: 24})
	sh.run(m.Init())
	return sh
}

// pendingTicks counts the ticks armed or sent and not yet taken by the model.
func (sh *sendHarness) pendingTicks() int {
	n := 0
	if sh.timer.armed {
		n++
	}
	for _, msg := range sh.queued() {
		if _, ok := msg.(tickMsg); ok {
			n++
		}
	}
	return n
}

// queued is what Send delivered and the model has not yet taken, left in place.
func (sh *sendHarness) queued() []tea.Msg {
	var msgs []tea.Msg
	for {
		select {
		case msg := <-sh.sent:
			msgs = append(msgs, msg)
		default:
			for _, msg := range msgs {
				sh.sent <- msg
			}
			return msgs
		}
	}
}

// update hands msg to the model, with what commands of the model return at once (the
// ticks and the table's news come through Send), and checks that at most one tick is
// pending after it.
func (sh *sendHarness) update(msg tea.Msg) {
	sh.t.Helper()
	_, cmd := sh.m.Update(msg)
	sh.run(cmd)
	if n := sh.pendingTicks(); n > 1 {
		sh.t.Fatalf("%d ticks pending after %T", n, msg)
	}
}

// run runs a command's messages into the model; commands that would wait (none with
// Send but a deadline's after) are not run.
func (sh *sendHarness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			sh.run(c)
		}
	case nil:
	default:
		sh.update(msg)
	}
}

// deliver takes Send's messages into the model until cond holds.
func (sh *sendHarness) deliver(cond func() bool) {
	sh.t.Helper()
	timeout := time.After(5 * time.Second)
	for !cond() {
		select {
		case msg := <-sh.sent:
			sh.update(msg)
		case <-timeout:
			sh.t.Fatalf("condition never met; screen:\n%s", sh.screen())
		}
	}
}

// joinByCode joins a table from the lobby by typing its code, and waits until the
// session is at it with seats taken.
func (sh *sendHarness) joinByCode(code string, seats int) {
	sh.press("tab")
	for _, r := range code {
		sh.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	sh.press("enter")
	sh.deliver(func() bool { return sh.m.screen == screenTable && len(sh.m.table.u.Table.Seats) == seats })
}

func (sh *sendHarness) press(keys ...string) {
	for _, k := range keys {
		sh.update(gameuitest.Key(k))
	}
}

// tick fires the pending tick and hands it to the model.
func (sh *sendHarness) tick() {
	sh.t.Helper()
	before := sh.ticks
	sh.timer.fire()
	if sh.ticks != before+1 {
		sh.t.Fatalf("the timer sent %d ticks, want 1", sh.ticks-before)
	}
	sh.takeTick()
}

// takeTick delivers Send's messages up to the tick on its way.
func (sh *sendHarness) takeTick() {
	sh.t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case msg := <-sh.sent:
			sh.update(msg)
			if _, ok := msg.(tickMsg); ok {
				return
			}
		case <-timeout:
			sh.t.Fatal("the tick never came")
		}
	}
}

// table makes a table of game with options, hosted by Ann with bots in the other seats;
// the session's player takes a seat through Options.Join.
func tableFor(t *testing.T, l *lobby.Lobby, game string, opts rules.Options, players int) lobby.Place {
	t.Helper()
	host, err := l.Create(lobby.Player{ID: "SHA256:Ann", Name: "Ann"}, game, opts, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lobby.Run(host, lobby.Leave{}) })
	for i := 2; i < players; i++ {
		if err := lobby.Run(host, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	return host
}

// A player at an untimed game (Quadrant without time limits, as cmd/parlor-load plays
// it) has nothing on screen that changes with the time: after the first frame no tick
// is pending, and none is sent.
func TestNoTickAtAnUntimedGame(t *testing.T) {
	sh := newSendHarness(t, Options{})
	if !sh.timer.armed || sh.timer.d != time.Second {
		t.Fatalf("the lobby's list is not refreshed each second: armed %v after %s", sh.timer.armed, sh.timer.d)
	}
	host := tableFor(t, sh.l, "quadrant", rules.Options{qd.OptPlacement: "off", qd.OptVoting: "off"}, 4)
	sh.joinByCode(host.Code(), 4)
	if sh.m.status != "" {
		t.Fatalf("a notice at the table: %q", sh.m.status)
	}
	if err := lobby.Run(host, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	sh.deliver(func() bool { return sh.m.table.showGame() })
	if !strings.Contains(sh.screen(), "Quadrant") || sh.m.hasClock() {
		t.Fatalf("not at an untimed Quadrant game:\n%s", sh.screen())
	}
	if sh.pendingTicks() != 0 || !sh.m.ticks.due.IsZero() {
		t.Fatalf("a tick is pending at an untimed game (armed %v, due %v)", sh.timer.armed, sh.m.ticks.due)
	}
	// Moves and the table's news arm nothing either.
	ticks := sh.ticks
	sh.press("right", "down")
	sh.m.View()
	if sh.timer.armed || sh.ticks != ticks {
		t.Fatalf("keys at an untimed game armed a tick")
	}
}

// A timed phase arms the tick: the countdown moves each second, with one tick pending at
// a time, until the game is over.
func TestTicksResumeWhenATimedPhaseBegins(t *testing.T) {
	sh := newSendHarness(t, Options{})
	host := tableFor(t, sh.l, testgame.ID, rules.Options{"timer": "30s", "rounds": "1"}, 2)
	sh.run(sh.m.enter(sh.l.Join(sh.m.o.Player, host.Code())))
	sh.deliver(func() bool { return len(sh.m.table.u.Table.Seats) == 2 })
	sh.m.View()
	if sh.timer.armed {
		t.Fatal("a tick is pending in a table's room with nothing that changes with the time")
	}
	if err := lobby.Run(host, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	sh.deliver(func() bool { return sh.m.table.showGame() })
	if !sh.timer.armed || sh.timer.d != time.Second {
		t.Fatalf("the countdown's phase armed no tick a second away (armed %v, %s)", sh.timer.armed, sh.timer.d)
	}
	for _, want := range []string{"0:30 left", "0:29 left", "0:28 left"} {
		if title := sh.lines()[0]; !strings.Contains(title, want) {
			t.Fatalf("the countdown shows %q, want %q", title, want)
		}
		sh.clock.Advance(time.Second)
		sh.tick()
		if !sh.timer.armed || sh.timer.d != time.Second {
			t.Fatalf("the tick did not arm the next one a second away")
		}
	}
	// The game ends: the last tick finds nothing to count down and arms no other.
	if err := lobby.Run(host, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(sh.m.table.member, lobby.ActOf(testgame.Pick(2))); err != nil {
		t.Fatal(err)
	}
	sh.deliver(func() bool { return sh.m.table.u.View.Head().Over })
	if sh.timer.armed {
		sh.tick()
	}
	if sh.timer.armed || !sh.m.ticks.due.IsZero() {
		t.Fatal("a tick is still pending after the game's end")
	}
}

// A notice arms one tick, for when it expires; the tick takes it away and arms no other.
func TestANoticeArmsTheTickThatClearsIt(t *testing.T) {
	sh := newSendHarness(t, Options{})
	host := tableFor(t, sh.l, "quadrant", rules.Options{qd.OptPlacement: "off", qd.OptVoting: "off"}, 3)
	sh.run(sh.m.enter(sh.l.Join(sh.m.o.Player, host.Code())))
	sh.deliver(func() bool { return len(sh.m.table.u.Table.Seats) == 3 })
	if sh.timer.armed {
		t.Fatal("a tick is pending in a quiet room")
	}
	sh.press("s") // only the host starts: an error notice
	if sh.m.status == "" {
		t.Fatal("no notice")
	}
	if !sh.timer.armed || sh.timer.d != statusFor {
		t.Fatalf("the notice armed no tick for its end (armed %v, %s)", sh.timer.armed, sh.timer.d)
	}
	if !strings.Contains(sh.screen(), "Only the host can do that") {
		t.Fatalf("the notice is not on screen:\n%s", sh.screen())
	}
	sh.clock.Advance(statusFor)
	sh.tick()
	if sh.m.status != "" || strings.Contains(sh.screen(), "Only the host can do that") {
		t.Fatal("the tick left the notice on screen")
	}
	if sh.timer.armed {
		t.Fatal("a tick is pending after the notice went")
	}
}

// A tick that has fired but not yet reached the model is the one pending: an update that
// wants an earlier tick meanwhile arms no second one, and the tick re-arms when taken.
func TestAFiredTickIsStillThePendingOne(t *testing.T) {
	sh := newSendHarness(t, Options{IdleTimeout: time.Hour})
	host := tableFor(t, sh.l, "quadrant", rules.Options{qd.OptPlacement: "off", qd.OptVoting: "off"}, 3)
	sh.run(sh.m.enter(sh.l.Join(sh.m.o.Player, host.Code())))
	sh.deliver(func() bool { return len(sh.m.table.u.Table.Seats) == 3 })
	if sh.timer.armed && sh.timer.d == time.Second {
		sh.tick() // the lobby's, armed before the player sat down, comes once more
	}
	if !sh.timer.armed || sh.timer.d != time.Hour {
		t.Fatalf("the idle timeout armed no tick for its end (armed %v, %s)", sh.timer.armed, sh.timer.d)
	}
	sh.timer.fire() // early, as a timer on another clock may: its tick is on its way
	sh.press("s")   // a notice wants a tick in 5 s, before the pending one's time
	if n := sh.pendingTicks(); n != 1 || sh.timer.armed {
		t.Fatalf("%d ticks pending (timer armed %v), want only the one on its way", n, sh.timer.armed)
	}
	sh.takeTick()
	if !sh.timer.armed || sh.timer.d != statusFor {
		t.Fatalf("the tick taken armed no tick for the notice (armed %v, %s)", sh.timer.armed, sh.timer.d)
	}
	// The idle timeout still ends the session when its time comes.
	sh.clock.Advance(statusFor)
	sh.tick()
	if sh.m.status != "" || !sh.timer.armed || sh.timer.d != time.Hour-statusFor {
		t.Fatalf("notice %q, armed %v after %s: want the notice gone and the idle tick armed", sh.m.status, sh.timer.armed, sh.timer.d)
	}
	sh.clock.Advance(sh.timer.d)
	sh.tick()
	if !strings.Contains(sh.m.Goodbye(), "without a key press") {
		t.Fatalf("the idle timeout did not end the session: %q", sh.m.Goodbye())
	}
}

// unhandled is a message the model does not handle, such as a terminal's mode report.
type unhandled struct{}

// A change stays to be drawn until a frame is drawn, whatever comes in between: the
// painter draws at most once per frame interval, so a table's news can be followed by
// a message the model ignores before its frame is drawn.
func TestAnIgnoredMessageKeepsAChangeToBeDrawn(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	before := h.m.View().Content
	h.press("c") // the create screen
	h.m.Update(unhandled{})
	h.m.Update(tea.ModeReportMsg{})
	got := h.m.View().Content
	if got == before {
		t.Fatal("the frame after the key is still the lobby's")
	}
	if want := strings.Join(h.lines(), "\n"); ansi.Strip(got) != want {
		t.Fatalf("the frame drawn is not the screen:\n%s\n---\n%s", ansi.Strip(got), want)
	}
}
