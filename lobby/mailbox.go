package lobby

import (
	"context"
	"sync"
)

// mailbox hands a member the newest table state without ever blocking the table actor:
// a put replaces the pending update (a slow reader just skips stale frames), but notices
// (errors and messages meant for this member) are kept in order until read.
type mailbox struct {
	mu      sync.Mutex
	pending *Update
	last    Update // the newest state, resent with notices that arrive alone
	notices []string
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
		m.pending, m.last = &u, u
	}
	m.mu.Unlock()
	m.signal()
}

// notice queues a message for this member only (at most 20 are kept).
func (m *mailbox) notice(text string) {
	m.mu.Lock()
	if m.closed == "" {
		m.notices = append(m.notices, text)
		if len(m.notices) > 20 {
			m.notices = m.notices[len(m.notices)-20:]
		}
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
		if m.pending != nil || len(m.notices) > 0 {
			u = m.last
			u.Notices = m.notices
			m.pending, m.notices = nil, nil
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
