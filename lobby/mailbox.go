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
	closed  string // set once: the member is out of the table, with this reason
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

// put replaces the pending update.
func (m *mailbox) put(u Update) {
	m.mu.Lock()
	if m.closed == "" {
		m.pending = &u
	}
	m.mu.Unlock()
	m.signal()
}

// close ends the mailbox with a reason the member is shown; later puts are dropped.
func (m *mailbox) close(reason string) {
	m.mu.Lock()
	if m.closed == "" {
		m.closed = reason
	}
	m.mu.Unlock()
	m.signal()
}

// next waits for the newest update. ok is false once the mailbox is closed and drained;
// then reason says why.
func (m *mailbox) next(ctx context.Context) (u Update, ok bool, reason string) {
	for {
		m.mu.Lock()
		if m.pending != nil {
			u = *m.pending
			m.pending = nil
			m.mu.Unlock()
			return u, true, ""
		}
		if m.closed != "" {
			reason = m.closed
			m.mu.Unlock()
			return Update{}, false, reason
		}
		m.mu.Unlock()
		select {
		case <-ctx.Done():
			return Update{}, false, "disconnected"
		case <-m.ready:
		}
	}
}
