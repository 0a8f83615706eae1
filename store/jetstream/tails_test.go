package jetstream

import (
	"context"
	"testing"
	"time"

	"parlor/internal/natstest"
	"parlor/store"
)

// After an append, the tail a store remembers for each table is exactly where the
// stream says the table's log ends (entries before a rollup in the same batch are not
// even sent), so the next append passes JetStream's check without reading first.
func TestTailsMatchTheStream(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv := natstest.Start(t)
	s, err := Open(ctx, Config{Conn: natstest.Connect(t, srv.URL()), Prefix: "tails"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := func(code string, seq int64, kind store.EntryKind) store.TableEntry {
		return store.TableEntry{Table: code, Seq: seq, Kind: kind, Data: []byte("x")}
	}
	batches := [][]store.TableEntry{
		{e("AAAA", 1, store.EntrySnapshot), e("BBBB", 1, store.EntrySnapshot), e("AAAA", 2, store.EntryEvent)},
		{e("BBBB", 2, store.EntryEvent), e("AAAA", 3, store.EntryEvent), e("AAAA", 4, store.EntrySnapshot), e("AAAA", 5, store.EntryEvent)},
		{e("CCCC", 1, store.EntrySnapshot)},
		{e("BBBB", 3, store.EntryEvent), e("BBBB", 4, store.EntryClosed), e("CCCC", 2, store.EntryEvent)},
	}
	for i, b := range batches {
		if err := s.AppendTables(ctx, b); err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
		for _, code := range []string{"AAAA", "BBBB", "CCCC"} {
			s.mu.Lock()
			remembered, ok := s.tails[code]
			s.mu.Unlock()
			var want tail
			m, err := s.log.GetLastMsgForSubject(ctx, s.logSubject(code))
			if err == nil {
				le, err := decodeEntry(code, m.Header, m.Data)
				if err != nil {
					t.Fatal(err)
				}
				want = tail{stream: m.Sequence, seq: tailSeq(le)}
			}
			if ok && remembered != want {
				t.Errorf("after batch %d, %s: remembered tail %+v, stream says %+v", i, code, remembered, want)
			}
		}
	}
	s.mu.Lock()
	_, kept := s.tails["BBBB"]
	s.mu.Unlock()
	if kept {
		t.Error("a closed and purged table is still remembered")
	}
}
