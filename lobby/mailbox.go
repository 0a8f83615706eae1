package lobby

import (
	"context"
	"sync"
)

// mailbox hands a member the newest table state without ever blocking the table actor:
// a put replaces the pending update, so a slow reader just skips stale frames.
type mailbox struct {
	mu      sync.Mutex
	pending *Update
	ready   chan struct{}
	closed  Closed // set once: the member is out of the table, with this reason
	// notify, if set, is told when something waits to be taken and nothing did before
	// (see Member.Notify); it runs on the table actor and must not block.
	notify func()
}

func newMailbox() *mailbox {
	return &mailbox{ready: make(chan struct{}, 1)}
}

func (m *mailbox) signal() {
	select {
	case m.ready <- struct{}{}:
	default:
	}
}

// put replaces the pending update, keeping the game's history it carried (which only a
// game's first update does) until it is taken.
func (m *mailbox) put(u Update) {
	m.mu.Lock()
	fresh := false
	if m.closed.IsZero() {
		fresh = m.pending == nil
		if !fresh && u.History == nil {
			u.History = m.pending.History
		}
		m.pending = &u
	}
	notify := m.notify
	m.mu.Unlock()
	m.signal()
	if fresh && notify != nil {
		notify()
	}
}

// close ends the mailbox with a reason the member is shown; later puts are dropped.
func (m *mailbox) close(reason Closed) {
	m.mu.Lock()
	first := m.closed.IsZero()
	if first {
		m.closed = reason
	}
	notify := m.notify
	m.mu.Unlock()
	m.signal()
	if first && notify != nil {
		notify()
	}
}

// setNotify installs f, and calls it at once if something already waits.
func (m *mailbox) setNotify(f func()) {
	m.mu.Lock()
	m.notify = f
	waiting := m.pending != nil || !m.closed.IsZero()
	m.mu.Unlock()
	if waiting {
		f()
	}
}

// take is next without waiting: the pending update if there is one (has), and the
// reason once the mailbox is closed (with the last update, if it was still pending).
func (m *mailbox) take() (u Update, has bool, closed Closed) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pending != nil {
		u, has = *m.pending, true
		m.pending = nil
	}
	return u, has, m.closed
}

// next waits for the newest update. ok is false once the mailbox is closed and drained;
// then reason says why.
func (m *mailbox) next(ctx context.Context) (u Update, ok bool, reason Closed) {
	for {
		m.mu.Lock()
		if m.pending != nil {
			u = *m.pending
			m.pending = nil
			m.mu.Unlock()
			return u, true, Closed{}
		}
		if !m.closed.IsZero() {
			reason = m.closed
			m.mu.Unlock()
			return Update{}, false, reason
		}
		m.mu.Unlock()
		select {
		case <-ctx.Done():
			return Update{}, false, closedBy(WhyGone, "disconnected")
		case <-m.ready:
		}
	}
}
