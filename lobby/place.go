package lobby

import "context"

// Place is one connection's place at a table, as a player or a spectator: what a
// session (the TUI or the JSON API) holds while it is at a table. A table on this node
// gives a *Member; in a cluster, a table another node runs gives a proxy (package
// cluster) that sends each call to the owner node and receives this seat's updates only.
// Its methods may be called from the connection's own goroutine only.
type Place interface {
	// Code is the table's join code.
	Code() string
	// Next waits for the newest update. ok is false once the place is gone; reason then
	// says why in words for the player.
	Next(ctx context.Context) (u Update, ok bool, reason Closed)
	// Notify is Next without a waiting goroutine: f is called (and must not block)
	// whenever an update or the close waits and none did before; Take then reads it.
	// Use either Next or Notify with Take, not both.
	Notify(f func())
	// Take reads what Notify announced: the newest update if one is pending (has), and
	// the reason once the place is gone (closed).
	Take() (u Update, has bool, closed Closed)
	// Call runs one table operation (see ops.go) and returns its result; Do and Run are
	// its typed forms.
	Call(req Request) (any, error)
}

var _ Place = (*Member)(nil)

// Mailbox is the newest-update-wins hand-over a Member reads from, for a Place made
// elsewhere (a cluster proxy): Put never blocks, a slow reader skips stale updates.
type Mailbox struct{ b *mailbox }

// NewMailbox makes an empty, open mailbox.
func NewMailbox() *Mailbox { return &Mailbox{b: newMailbox()} }

// Put replaces the pending update.
func (m *Mailbox) Put(u Update) { m.b.put(u) }

// Close ends the mailbox with a reason the reader is shown; later puts are dropped.
func (m *Mailbox) Close(reason Closed) { m.b.close(reason) }

// Next waits for the newest update, like Place.Next.
func (m *Mailbox) Next(ctx context.Context) (Update, bool, Closed) { return m.b.next(ctx) }

// Notify announces updates instead, like Place.Notify.
func (m *Mailbox) Notify(f func()) { m.b.setNotify(f) }

// Take reads what Notify announced, like Place.Take.
func (m *Mailbox) Take() (Update, bool, Closed) { return m.b.take() }
