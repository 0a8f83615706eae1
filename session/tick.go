package session

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
)

// tickEvery is how often a screen with something that changes from second to second (a
// countdown, the lobby's list) is refreshed.
const tickEvery = time.Second

// tickMsg refreshes what changes with the time on screen; it carries Options.Now's time.
type tickMsg time.Time

// stopper is what the session needs of its timer: a *time.Timer, or a test's fake.
type stopper interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// ticker is a session's one timer. A tick is pending only while something on screen
// changes with the time alone, or an idle timeout is to be checked, and never more than
// one: an idle session at an untimed game does no work at all.
type ticker struct {
	start   func(d time.Duration, f func()) stopper // time.AfterFunc; a fake in tests
	timer   stopper                                 // made on first use, stopped when the session ends
	due     time.Time                               // when the pending tick is due (Options.Now); zero: none pending
	wake    chan time.Time                          // without Options.Send: where the timer leaves its tick
	waiting bool                                    // without Options.Send: a command waits on wake
}

func afterFunc(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) }

// wakeAt is when the screen may next change with the time alone, or the idle timeout
// end the session; zero when neither can happen.
func (m *Model) wakeAt(now time.Time) time.Time {
	var at time.Time
	sooner := func(t time.Time) {
		if at.IsZero() || t.Before(at) {
			at = t
		}
	}
	if m.status != "" {
		sooner(m.statusAt.Add(statusFor))
	}
	if m.o.IdleTimeout > 0 {
		sooner(m.lastKey.Add(m.o.IdleTimeout))
	}
	if m.changesEverySecond() {
		sooner(now.Add(tickEvery))
	}
	return at
}

// changesEverySecond reports whether the screen may change from one second to the next
// with no news from the table: a countdown, an away player's minutes (tickShows), or the
// lobby's list, which is read rather than sent.
func (m *Model) changesEverySecond() bool {
	return m.screen == screenLobby || m.screen == screenCreate || m.hasClock() || m.tickShows() != ""
}

// schedule makes the pending tick the one the screen needs after an update: none when
// nothing changes with the time, else one due at wakeAt. A pending tick due sooner is
// kept (it arms the next when it comes), so a stream of updates never postpones a
// countdown's second; one that has fired already is on its way and counts as pending.
func (m *Model) schedule() tea.Cmd {
	t := &m.ticks
	now := m.o.Now()
	at := m.wakeAt(now)
	if !t.due.IsZero() {
		if !at.IsZero() && !t.due.After(at) {
			return nil // the pending tick comes first
		}
		if !t.timer.Stop() {
			return nil // it has fired: its tick is on its way
		}
		t.due = time.Time{}
	}
	if at.IsZero() {
		return nil
	}
	t.due = at
	d := max(0, at.Sub(now))
	if t.timer == nil {
		t.timer = t.start(d, m.fire())
		stop := t.timer.Stop
		context.AfterFunc(m.ctx, func() { stop() }) // a timer must not keep an ended session
	} else {
		t.timer.Reset(d)
	}
	return m.waitTick()
}

// fire is what the timer runs, on its own goroutine: it sends the tick through
// Options.Send, or leaves it for waitTick's command.
func (m *Model) fire() func() {
	ctx, now, send, wake := m.ctx, m.o.Now, m.o.Send, m.ticks.wake
	return func() {
		if ctx.Err() != nil {
			return
		}
		if send != nil {
			send(tickMsg(now()))
			return
		}
		select {
		case wake <- now():
		default: // one tick waits already
		}
	}
}

// waitTick is, without Options.Send, the command that delivers the timer's tick: one
// at a time, for as long as ticks are pending.
func (m *Model) waitTick() tea.Cmd {
	if m.o.Send != nil || m.ticks.waiting {
		return nil
	}
	m.ticks.waiting = true
	ctx, wake := m.ctx, m.ticks.wake
	return func() tea.Msg {
		select {
		case now := <-wake:
			return tickMsg(now)
		case <-ctx.Done():
			return nil
		}
	}
}

// tookTick notes that the pending tick has come.
func (m *Model) tookTick() {
	m.ticks.due, m.ticks.waiting = time.Time{}, false
}
