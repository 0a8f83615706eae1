package jetstream

import (
	"context"

	"parlor/store"
)

// tail is where a table's log ends: the stream sequence of its last message (0: the
// subject is empty) and the seq of its last entry (0 after a closed entry, when the code
// may start a new log).
//
// The store remembers the tails of the tables it wrote or read, so that an append needs
// no read first: it sends the remembered stream sequence along
// (Nats-Expected-Last-Subject-Sequence), and JetStream refuses the batch if the log moved
// on meanwhile — another node wrote to the table, or this store's memory is old. Then
// the tail is read again and the append tried once more.
type tail struct {
	stream uint64
	seq    int64
}

// tailSeq is the seq a log ending in e continues from.
func tailSeq(e store.TableEntry) int64 {
	if e.Kind == store.EntryClosed {
		return 0
	}
	return e.Seq
}

// noteTail remembers what a read saw, unless the store already knows of a later end.
func (s *Store) noteTail(code string, t tail) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.tails[code]; !ok || old.stream <= t.stream {
		s.tails[code] = t
	}
}

// readTail reads a table's tail from the stream's leader and believes it.
func (s *Store) readTail(ctx context.Context, code string) error {
	s.mu.Lock()
	delete(s.tails, code)
	s.mu.Unlock()
	_, _, err := s.lastEntry(ctx, code)
	return err
}
