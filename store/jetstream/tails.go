package jetstream

import "parlor/store"

// tail is where a table's log ends: the stream sequence of its last message (0: the
// subject is empty) and the seq of its last entry (0 after a closed entry, when the code
// may start a new log).
//
// The store remembers the tails of the tables it wrote or read, so that an append needs
// no read first: it checks the seqs against the remembered tail and sends its stream
// sequence along (Nats-Expected-Last-Subject-Sequence), and JetStream refuses the entry
// if the log moved on meanwhile, because another node wrote to the table. A node that
// takes a table over reads its log first (ReadTable), which refreshes the tail.
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
