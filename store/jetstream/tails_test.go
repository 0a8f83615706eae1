package jetstream

import (
	"context"
	"errors"
	"testing"
	"time"

	natsjs "github.com/nats-io/nats.go/jetstream"

	"parlor/internal/testkit/natstest"
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

// A retried entry that JetStream had stored from the first try (its answer lost) counts
// as acknowledged; the same refusal on a first try, or for another call's entry, is a
// conflict.
func TestRetryRecognisesItsOwnEntry(t *testing.T) {
	ctx, s := retryStore(t, "retry")
	plan, ack := firstTryStored(t, ctx, s, "AAAA", "call-1")

	first := *plan[0]
	if _, err := s.tryRound(ctx, []*tableSend{&first}, 0, false); !errors.Is(err, ErrConflict) {
		t.Errorf("a first try finding the log moved on: err = %v, want ErrConflict", err)
	}
	other := *plan[0]
	other.write = "call-2"
	if _, err := s.tryRound(ctx, []*tableSend{&other}, 0, true); !errors.Is(err, ErrConflict) {
		t.Errorf("a retry finding another call's entry: err = %v, want ErrConflict", err)
	}
	own := *plan[0]
	if again, err := s.tryRound(ctx, []*tableSend{&own}, 0, true); err != nil || len(again) != 0 {
		t.Fatalf("a retry finding its own entry: again %d, err %v", len(again), err)
	}
	if own.acked != 1 || own.expect != ack.Sequence {
		t.Errorf("retry counted as acked %d at %d, want 1 at %d", own.acked, own.expect, ack.Sequence)
	}

	// Another node claimed the table, read the log with the first try in it, and
	// appended after it before the retry was refused: the first try is still stored.
	next := s.entryMsg(store.TableEntry{Table: "AAAA", Seq: 2, Kind: store.EntryEvent, Data: []byte("y")})
	next.Header.Set(hdrWrite, "claimer")
	if _, err := s.js.PublishMsg(ctx, next); err != nil {
		t.Fatal(err)
	}
	late := *plan[0]
	if again, err := s.tryRound(ctx, []*tableSend{&late}, 0, true); err != nil || len(again) != 0 {
		t.Fatalf("a retry finding its own entry under another writer's: again %d, err %v", len(again), err)
	}
	if late.acked != 1 || late.expect != ack.Sequence {
		t.Errorf("retry under another writer's counted as acked %d at %d, want 1 at %d", late.acked, late.expect, ack.Sequence)
	}
	stranger := *plan[0]
	stranger.write = "call-2"
	if _, err := s.tryRound(ctx, []*tableSend{&stranger}, 0, true); !errors.Is(err, ErrConflict) {
		t.Errorf("a retry finding another call's entry under another writer's: err = %v, want ErrConflict", err)
	}
}

// A stream whose reads of one message fail while failing is set, as during a NATS leader
// election.
type flakyReads struct {
	natsjs.Stream
	failing bool
}

func (f *flakyReads) GetMsg(ctx context.Context, seq uint64, opts ...natsjs.GetMsgOpt) (*natsjs.RawStreamMsg, error) {
	if f.failing {
		return nil, natsjs.ErrNoStreamResponse
	}
	return f.Stream.GetMsg(ctx, seq, opts...)
}

// A retry refused because the log moved on, whose check for its first try cannot read
// the log, is not taken for another writer's: that would stop the table's copy and
// answer its call "moving" (not applied) for an entry that may be stored. It is tried
// again, and counts as acknowledged once the read finds the first try.
func TestARetryThatCannotReadTheLogTriesAgain(t *testing.T) {
	ctx, s := retryStore(t, "flaky")
	plan, ack := firstTryStored(t, ctx, s, "AAAA", "call-1")
	flaky := &flakyReads{Stream: s.log, failing: true}
	s.log = flaky
	own := plan[0]
	again, err := s.tryRound(ctx, []*tableSend{own}, 0, true)
	if err != nil || own.conflict != nil || len(again) != 1 {
		t.Fatalf("a retry that could not read the log: again %d, err %v, conflict %v; want it tried again", len(again), err, own.conflict)
	}
	flaky.failing = false
	if again, err := s.tryRound(ctx, again, 0, true); err != nil || len(again) != 0 {
		t.Fatalf("the retry once the log reads: again %d, err %v", len(again), err)
	}
	if own.acked != 1 || own.expect != ack.Sequence {
		t.Errorf("counted as acked %d at %d, want 1 at %d", own.acked, own.expect, ack.Sequence)
	}
}

// A retried entry whose first try may be stored, and which finds another writer's
// snapshot first after where it expected the log to end, cannot tell whether it is
// stored: the snapshot rolled the table's log up, taking the first try with it if it
// was there (a node that claimed the table, restored it with the first try in it, and
// started the next game). It is refused, and the store says its fate is unknown
// (Unsure), so that its call is not answered "not applied". Another writer's event
// there is a sure refusal: the first try, stored, would be before it.
func TestARetryUnderAnotherWritersSnapshotIsUnsure(t *testing.T) {
	ctx, s := retryStore(t, "unsure")
	for _, c := range []struct {
		code  string
		kind  store.EntryKind
		first bool // the first try was stored
		want  bool // Unsure
	}{
		{"AAAA", store.EntrySnapshot, true, true},
		{"BBBB", store.EntrySnapshot, false, true},
		{"CCCC", store.EntryEvent, false, false},
	} {
		var plan []*tableSend
		if c.first {
			plan, _ = firstTryStored(t, ctx, s, c.code, "call-"+c.code)
		} else {
			plan = planOne(t, ctx, s, c.code, "call-"+c.code)
		}
		other := s.entryMsg(store.TableEntry{Table: c.code, Seq: 2, Kind: c.kind, Data: []byte("theirs")})
		other.Header.Set(hdrWrite, "claimer")
		if _, err := s.js.PublishMsg(ctx, other); err != nil {
			t.Fatal(err)
		}
		own := plan[0]
		if _, err := s.tryRound(ctx, []*tableSend{own}, 0, true); !errors.Is(err, ErrConflict) {
			t.Errorf("%s: err = %v, want ErrConflict", c.code, err)
		}
		if own.unsure != c.want {
			t.Errorf("%s (another writer's %v after it, first try stored: %v): unsure = %v, want %v", c.code, c.kind, c.first, own.unsure, c.want)
		}
	}
}

// retryStore opens a store on a NATS server of its own, for the tests of retries.
func retryStore(t *testing.T, prefix string) (context.Context, *Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	srv := natstest.Start(t)
	s, err := Open(ctx, Config{Conn: natstest.Connect(t, srv.URL()), Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return ctx, s
}

// planOne plans the first entry of table code (a snapshot, seq 1) under the call's
// write id.
func planOne(t *testing.T, ctx context.Context, s *Store, code, write string) []*tableSend {
	t.Helper()
	e := store.TableEntry{Table: code, Seq: 1, Kind: store.EntrySnapshot, Data: []byte("x")}
	if err := s.knowTails(ctx, [][]store.TableEntry{{e}}); err != nil {
		t.Fatal(err)
	}
	plan, err := s.plan([][]store.TableEntry{{e}}, write)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// firstTryStored plans as planOne does, and stores the plan's first try as if its
// acknowledgement had been lost: the retries then find the log moved on.
func firstTryStored(t *testing.T, ctx context.Context, s *Store, code, write string) ([]*tableSend, *natsjs.PubAck) {
	t.Helper()
	plan := planOne(t, ctx, s, code, write)
	m := s.entryMsg(plan[0].entries[0])
	m.Header.Set(hdrWrite, write)
	ack, err := s.js.PublishMsg(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	return plan, ack
}
