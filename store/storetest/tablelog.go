package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"parlor/store"
)

// tableLogTests is the part of the suite about the table log.
var tableLogTests = []struct {
	name string
	fn   func(t *testing.T, s store.Store)
}{
	{"TableLogEmpty", testTableLogEmpty},
	{"TableLogAppendAndRead", testTableLogAppendAndRead},
	{"TableLogSnapshotDropsEarlier", testTableLogSnapshot},
	{"TableLogClosedRemovesTable", testTableLogClosed},
	{"TableLogBatchIsAtomic", testTableLogAtomic},
	{"TableLogInvalid", testTableLogInvalid},
	{"TableLogResultsAreCopies", testTableLogCopies},
	{"TableLogAlive", testTableLogAlive},
	{"TableLogCancelledAndClosed", testTableLogCancelledAndClosed},
	{"TableLogConcurrent", testTableLogConcurrent},
}

func entry(table string, seq int64, kind store.EntryKind, data string) store.TableEntry {
	return store.TableEntry{Table: table, Seq: seq, Kind: kind, At: base.Add(time.Duration(seq) * time.Second), Data: []byte(data)}
}

func mustAppend(t *testing.T, s store.Store, es ...store.TableEntry) {
	t.Helper()
	if err := s.AppendTables(context.Background(), es); err != nil {
		t.Fatalf("AppendTables: %v", err)
	}
}

func mustRead(t *testing.T, s store.Store, code string) []store.TableEntry {
	t.Helper()
	es, err := s.ReadTable(context.Background(), code)
	if err != nil {
		t.Fatalf("ReadTable(%s): %v", code, err)
	}
	return es
}

func mustOpen(t *testing.T, s store.Store) []string {
	t.Helper()
	codes, err := s.OpenTables(context.Background())
	if err != nil {
		t.Fatalf("OpenTables: %v", err)
	}
	return codes
}

// seqs and datas summarise a log for comparisons.
func seqs(es []store.TableEntry) []int64 {
	out := []int64{}
	for _, e := range es {
		out = append(out, e.Seq)
	}
	return out
}

func testTableLogEmpty(t *testing.T, s store.Store) {
	if codes := mustOpen(t, s); len(codes) != 0 {
		t.Errorf("OpenTables of an empty store = %v", codes)
	}
	if es := mustRead(t, s, "ABCD"); len(es) != 0 {
		t.Errorf("ReadTable of an unknown table = %v", es)
	}
	mustAppend(t, s) // an empty batch is fine
}

func testTableLogAppendAndRead(t *testing.T, s store.Store) {
	// Two tables interleaved in one batch, and a second batch: each log comes back alone,
	// in seq order, with its times normalised and its data intact (any bytes).
	mustAppend(t, s,
		entry("ABCD", 1, store.EntrySnapshot, `{"created":true}`),
		entry("WXYZ", 1, store.EntrySnapshot, "\x00\xff binary"),
		entry("ABCD", 2, store.EntryEvent, `{"act":1}`),
	)
	mustAppend(t, s, entry("ABCD", 3, store.EntryEvent, `{"act":2}`), entry("WXYZ", 2, store.EntryEvent, ""))
	if got, want := mustOpen(t, s), []string{"ABCD", "WXYZ"}; !reflect.DeepEqual(got, want) {
		t.Errorf("OpenTables = %v, want %v", got, want)
	}
	es := mustRead(t, s, "ABCD")
	if got, want := seqs(es), []int64{1, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ABCD seqs = %v, want %v", got, want)
	}
	for _, e := range es {
		if e.Table != "ABCD" {
			t.Errorf("entry %d has table %q", e.Seq, e.Table)
		}
		checkTime(t, fmt.Sprintf("entry %d At", e.Seq), e.At, ms(base.Add(time.Duration(e.Seq)*time.Second)))
	}
	if es[0].Kind != store.EntrySnapshot || es[1].Kind != store.EntryEvent || string(es[2].Data) != `{"act":2}` {
		t.Errorf("ABCD log = %+v", es)
	}
	w := mustRead(t, s, "WXYZ")
	if len(w) != 2 || string(w[0].Data) != "\x00\xff binary" || len(w[1].Data) != 0 {
		t.Errorf("WXYZ log = %+v", w)
	}
}

func testTableLogSnapshot(t *testing.T, s store.Store) {
	mustAppend(t, s, entry("ABCD", 1, store.EntrySnapshot, "a"), entry("ABCD", 2, store.EntryEvent, "b"), entry("EFGH", 1, store.EntrySnapshot, "other"))
	// A snapshot and what follows it in the same batch: only the earlier entries go.
	mustAppend(t, s, entry("ABCD", 3, store.EntryEvent, "c"), entry("ABCD", 4, store.EntrySnapshot, "d"), entry("ABCD", 5, store.EntryEvent, "e"))
	es := mustRead(t, s, "ABCD")
	if got, want := seqs(es), []int64{4, 5}; !reflect.DeepEqual(got, want) {
		t.Fatalf("seqs after a snapshot = %v, want %v", got, want)
	}
	if string(es[0].Data) != "d" || es[0].Kind != store.EntrySnapshot {
		t.Errorf("snapshot entry = %+v", es[0])
	}
	if got := seqs(mustRead(t, s, "EFGH")); !reflect.DeepEqual(got, []int64{1}) {
		t.Errorf("another table's snapshot touched EFGH: %v", got)
	}
}

func testTableLogClosed(t *testing.T, s store.Store) {
	mustAppend(t, s, entry("ABCD", 1, store.EntrySnapshot, "a"), entry("EFGH", 1, store.EntrySnapshot, "b"))
	mustAppend(t, s, entry("ABCD", 2, store.EntryEvent, "c"), entry("ABCD", 3, store.EntryClosed, ""))
	if got, want := mustOpen(t, s), []string{"EFGH"}; !reflect.DeepEqual(got, want) {
		t.Errorf("OpenTables after a close = %v, want %v", got, want)
	}
	if es := mustRead(t, s, "ABCD"); len(es) != 0 {
		t.Errorf("a closed table still has a log: %v", seqs(es))
	}
	// The code may be used again by a new table.
	mustAppend(t, s, entry("ABCD", 1, store.EntrySnapshot, "new"))
	if es := mustRead(t, s, "ABCD"); len(es) != 1 || string(es[0].Data) != "new" {
		t.Errorf("reused code's log = %+v", es)
	}
}

func testTableLogAtomic(t *testing.T, s store.Store) {
	mustAppend(t, s, entry("ABCD", 1, store.EntrySnapshot, "a"))
	// The second entry repeats a stored seq: nothing of the batch may be kept.
	err := s.AppendTables(context.Background(), []store.TableEntry{
		entry("EFGH", 1, store.EntrySnapshot, "x"),
		entry("ABCD", 1, store.EntryEvent, "dup"),
	})
	if !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("a duplicate seq: err = %v, want ErrInvalid", err)
	}
	if got := mustOpen(t, s); !reflect.DeepEqual(got, []string{"ABCD"}) {
		t.Errorf("a failed batch was partly kept: tables %v", got)
	}
	if es := mustRead(t, s, "ABCD"); len(es) != 1 || string(es[0].Data) != "a" {
		t.Errorf("a failed batch changed ABCD: %+v", es)
	}
}

func testTableLogInvalid(t *testing.T, s store.Store) {
	for _, e := range []store.TableEntry{
		{Seq: 1, Data: []byte("x")},
		{Table: "ABCD", Seq: 0},
		{Table: "ABCD", Seq: 1, Kind: store.EntryKind(9)},
		{Table: "ABCD", Seq: 1, Data: make([]byte, store.MaxEntryBytes+1)}, // larger than a NATS message
	} {
		if err := s.AppendTables(context.Background(), []store.TableEntry{e}); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("AppendTables(%s %d, %d bytes): err = %v, want ErrInvalid", e.Table, e.Seq, len(e.Data), err)
		}
	}
	if got := mustOpen(t, s); len(got) != 0 {
		t.Errorf("invalid entries were stored: %v", got)
	}
}

func testTableLogCopies(t *testing.T, s store.Store) {
	e := entry("ABCD", 1, store.EntrySnapshot, "abc")
	mustAppend(t, s, e)
	e.Data[0] = 'X'
	es := mustRead(t, s, "ABCD")
	if string(es[0].Data) != "abc" {
		t.Fatalf("the store kept the caller's slice: %q", es[0].Data)
	}
	es[0].Data[0] = 'Y'
	if again := mustRead(t, s, "ABCD"); string(again[0].Data) != "abc" {
		t.Errorf("ReadTable returned the store's own slice: %q", again[0].Data)
	}
}

func testTableLogAlive(t *testing.T, s store.Store) {
	ctx := context.Background()
	at, err := s.LastAlive(ctx)
	if err != nil || !at.IsZero() {
		t.Fatalf("LastAlive of a new store = %v, %v; want zero", at, err)
	}
	for _, when := range []time.Time{base, base.Add(time.Minute)} {
		if err := s.MarkAlive(ctx, when); err != nil {
			t.Fatalf("MarkAlive: %v", err)
		}
		at, err := s.LastAlive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		checkTime(t, "LastAlive", at, ms(when))
	}
}

func testTableLogCancelledAndClosed(t *testing.T, s store.Store) {
	mustAppend(t, s, entry("ABCD", 1, store.EntrySnapshot, "a"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := func(ctx context.Context) map[string]error {
		m := map[string]error{}
		m["AppendTables"] = s.AppendTables(ctx, []store.TableEntry{entry("ABCD", 2, store.EntryEvent, "b")})
		_, m["OpenTables"] = s.OpenTables(ctx)
		_, m["ReadTable"] = s.ReadTable(ctx, "ABCD")
		m["MarkAlive"] = s.MarkAlive(ctx, base)
		_, m["LastAlive"] = s.LastAlive(ctx)
		return m
	}
	for name, err := range calls(ctx) {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: err = %v, want context.Canceled", name, err)
		}
	}
	if es := mustRead(t, s, "ABCD"); len(es) != 1 {
		t.Errorf("a cancelled append happened: %v", seqs(es))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for name, err := range calls(context.Background()) {
		if !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s after Close: err = %v, want ErrClosed", name, err)
		}
	}
}

// testTableLogConcurrent is meant for -race: writers append to their own tables while
// readers list and read, and every entry arrives.
func testTableLogConcurrent(t *testing.T, s store.Store) {
	const workers, rounds = 6, 20
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*2)
	for w := range workers {
		wg.Go(func() {
			code := fmt.Sprintf("T%03d", w)
			for r := range rounds {
				kind := store.EntryEvent
				if r == 0 {
					kind = store.EntrySnapshot
				}
				if err := s.AppendTables(ctx, []store.TableEntry{entry(code, int64(r+1), kind, "x")}); err != nil {
					errs <- err
				}
				if _, err := s.OpenTables(ctx); err != nil {
					errs <- err
				}
				if _, err := s.ReadTable(ctx, fmt.Sprintf("T%03d", (w+1)%workers)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for w := range workers {
		if es := mustRead(t, s, fmt.Sprintf("T%03d", w)); len(es) != rounds {
			t.Errorf("table %d has %d entries, want %d", w, len(es), rounds)
		}
	}
}
