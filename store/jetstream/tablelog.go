package jetstream

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"

	"parlor/store"
)

// Headers of a table log message; its data is the entry's data.
const (
	hdrSeq  = "Parlor-Seq"  // the entry's seq
	hdrKind = "Parlor-Kind" // event, snapshot or closed
	hdrAt   = "Parlor-At"   // the entry's time, Unix milliseconds (0: none)
)

var kindNames = map[store.EntryKind]string{
	store.EntryEvent:    "event",
	store.EntrySnapshot: "snapshot",
	store.EntryClosed:   "closed",
}

func (s *Store) logSubject(code string) string {
	return s.cfg.Prefix + ".log." + tableToken(code)
}

// entryMsg is the message that stores e.
func (s *Store) entryMsg(e store.TableEntry) *nats.Msg {
	m := nats.NewMsg(s.logSubject(e.Table))
	m.Header.Set(hdrSeq, strconv.FormatInt(e.Seq, 10))
	m.Header.Set(hdrKind, kindNames[e.Kind])
	m.Header.Set(hdrAt, strconv.FormatInt(store.ToMillis(e.At), 10))
	if e.Kind != store.EntryEvent {
		// The stream drops the subject's earlier messages as it stores this one.
		m.Header.Set(natsjs.MsgRollup, natsjs.MsgRollupSubject)
	}
	m.Data = e.Data
	return m
}

// decodeEntry reads a stored message back; the data is the message's own copy.
func decodeEntry(code string, h nats.Header, data []byte) (store.TableEntry, error) {
	e := store.TableEntry{Table: code, Data: data}
	if e.Data == nil {
		e.Data = []byte{}
	}
	var err error
	if e.Seq, err = strconv.ParseInt(h.Get(hdrSeq), 10, 64); err != nil {
		return e, fmt.Errorf("table %s: bad %s header: %w", code, hdrSeq, err)
	}
	ms, err := strconv.ParseInt(h.Get(hdrAt), 10, 64)
	if err != nil {
		return e, fmt.Errorf("table %s seq %d: bad %s header: %w", code, e.Seq, hdrAt, err)
	}
	e.At = store.FromMillis(ms)
	kind := h.Get(hdrKind)
	for k, name := range kindNames {
		if name == kind {
			e.Kind = k
			return e, nil
		}
	}
	return e, fmt.Errorf("table %s seq %d: unknown kind %q", code, e.Seq, kind)
}

// AppendTables stores the entries, each table's in order. The entries of one table are
// stored all or none; a batch of up to maxBatch entries is one atomic JetStream batch,
// so it is stored whole or not at all, and a longer one is split between tables. It
// returns once JetStream acknowledged everything. A seq that is not above the table's
// last stored one is ErrInvalid; another writer's entry in between is ErrConflict.
func (s *Store) AppendTables(ctx context.Context, entries []store.TableEntry) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: append table log: %w", err)
	}
	for _, e := range entries {
		if err := store.CheckEntry(e); err != nil {
			return fmt.Errorf("store: append table log: %w", err)
		}
	}
	for _, chunk := range chunks(entries) {
		if err := s.appendChunk(ctx, chunk); err != nil {
			return fmt.Errorf("store: append table log: %w", err)
		}
	}
	return nil
}

// run is consecutive entries of one table in a batch.
type run []store.TableEntry

// chunks groups entries by table, in the order the tables first appear, and packs the
// groups into chunks of at most maxBatch entries without splitting a group, unless the
// group alone is longer.
func chunks(entries []store.TableEntry) [][]run {
	var order []string
	byTable := map[string]run{}
	for _, e := range entries {
		if _, ok := byTable[e.Table]; !ok {
			order = append(order, e.Table)
		}
		byTable[e.Table] = append(byTable[e.Table], e)
	}
	var out [][]run
	var cur []run
	size := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur, size = nil, 0
	}
	for _, code := range order {
		for r := range slices.Chunk(byTable[code], maxBatch) {
			if size+len(r) > maxBatch {
				flush()
			}
			cur = append(cur, r)
			size += len(r)
		}
	}
	flush()
	return out
}

// appendChunk publishes one chunk as one batch. Each table's first message carries the
// stream sequence its log ends at, as this store last saw it; if another store wrote
// there since, JetStream refuses the whole batch, and the chunk is tried once more with
// the tails read again.
func (s *Store) appendChunk(ctx context.Context, chunk []run) error {
	for attempt := 0; ; attempt++ {
		msgs, counts, err := s.chunkMsgs(chunk)
		if err != nil {
			return err
		}
		last, err := s.publish(ctx, msgs)
		if err == nil {
			s.appended(ctx, chunk, counts, last)
			return nil
		}
		if !wrongLastSequence(err) {
			return err
		}
		if attempt > 0 {
			return fmt.Errorf("%w: %w", ErrConflict, err)
		}
		for _, r := range chunk {
			if err := s.readTail(ctx, r[0].Table); err != nil {
				return err
			}
		}
	}
}

// chunkMsgs builds a chunk's messages, checking each table's seqs against its tail, and
// says how many messages each run got. Entries before a run's last snapshot or closed
// entry are not sent: that entry would remove them as it is stored, and JetStream only
// takes a rollup as the first message of its subject in a batch.
func (s *Store) chunkMsgs(chunk []run) ([]*nats.Msg, []int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var msgs []*nats.Msg
	counts := make([]int, len(chunk))
	for i, r := range chunk {
		t := s.tails[r[0].Table]
		last := t.seq
		from := 0
		for j, e := range r {
			if e.Seq <= last {
				return nil, nil, fmt.Errorf("%w: table %s seq %d is already stored (the log is at %d)", store.ErrInvalid, e.Table, e.Seq, last)
			}
			last = e.Seq
			if e.Kind != store.EntryEvent {
				from = j
			}
			if e.Kind == store.EntryClosed {
				last = 0 // the code may start a new log
			}
		}
		for j, e := range r[from:] {
			m := s.entryMsg(e)
			if j == 0 {
				m.Header.Set(natsjs.ExpectedLastSubjSeqHeader, strconv.FormatUint(t.stream, 10))
			}
			msgs = append(msgs, m)
		}
		counts[i] = len(r) - from
	}
	return msgs, counts, nil
}

// appended notes where each table of a stored chunk now ends (the batch's messages have
// consecutive stream sequences, the last one lastSeq) and purges the subject of a table
// whose last entry closed it.
func (s *Store) appended(ctx context.Context, chunk []run, counts []int, lastSeq uint64) {
	seq := lastSeq
	for _, n := range counts {
		seq -= uint64(n)
	}
	var closed []string
	s.mu.Lock()
	for i, r := range chunk {
		seq += uint64(counts[i])
		e := r[len(r)-1]
		if e.Kind == store.EntryClosed {
			s.tails[e.Table] = tail{stream: seq} // until the purge below
			closed = append(closed, e.Table)
			continue
		}
		s.tails[e.Table] = tail{stream: seq, seq: e.Seq}
	}
	s.mu.Unlock()
	for _, code := range closed {
		s.purgeClosed(ctx, code)
	}
}

// purgeClosed removes a closed table's last message, the closed entry that rolled its
// log up. Only up to that message: a new table with the same code may already have
// written after it. If the purge fails the closed entry stays, which readers skip.
func (s *Store) purgeClosed(ctx context.Context, code string) {
	s.mu.Lock()
	t, ok := s.tails[code]
	s.mu.Unlock()
	if !ok || t.seq != 0 {
		return
	}
	err := s.log.Purge(ctx, natsjs.WithPurgeSubject(s.logSubject(code)), natsjs.WithPurgeSequence(t.stream+1))
	if err != nil {
		return
	}
	s.mu.Lock()
	if s.tails[code] == t {
		delete(s.tails, code) // the subject is empty now
	}
	s.mu.Unlock()
}

// wrongLastSequence tells a refused expected-last-sequence check from other errors.
func wrongLastSequence(err error) bool {
	var apiErr *natsjs.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	return apiErr.ErrorCode == natsjs.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == natsjs.JSErrCodeStreamWrongLastSequenceConstant
}

// OpenTables lists the codes of the tables that have a log, sorted.
func (s *Store) OpenTables(ctx context.Context) ([]string, error) {
	if err := s.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: open tables: %w", err)
	}
	prefix := s.cfg.Prefix + ".log."
	info, err := s.log.Info(ctx, natsjs.WithSubjectFilter(prefix+"*"))
	if err != nil {
		return nil, fmt.Errorf("store: open tables: %w", err)
	}
	codes := []string{}
	for subj, n := range info.State.Subjects {
		code, err := tableCode(strings.TrimPrefix(subj, prefix))
		if err != nil {
			return nil, fmt.Errorf("store: open tables: %w", err)
		}
		if n == 1 {
			// A log of one message may be a closed entry whose purge failed.
			last, _, err := s.lastEntry(ctx, code)
			if err != nil {
				return nil, fmt.Errorf("store: open tables: %w", err)
			}
			if last == nil || last.Kind == store.EntryClosed {
				continue
			}
		}
		codes = append(codes, code)
	}
	slices.Sort(codes)
	return codes, nil
}

// lastEntry reads a table's last message, and its stream sequence, from the stream's
// leader; nil if the table has none.
func (s *Store) lastEntry(ctx context.Context, code string) (*store.TableEntry, uint64, error) {
	m, err := s.log.GetLastMsgForSubject(ctx, s.logSubject(code))
	if errors.Is(err, natsjs.ErrMsgNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("table %s: last entry: %w", code, err)
	}
	e, err := decodeEntry(code, m.Header, m.Data)
	if err != nil {
		return nil, 0, err
	}
	s.noteTail(code, tail{stream: m.Sequence, seq: tailSeq(e)})
	return &e, m.Sequence, nil
}

// readBatch is how many messages one read asks for.
const readBatch = 256

// ReadTable returns the table's log from its newest snapshot on, in seq order. A log
// that ends with its snapshot (as every table's does right after a game starts) costs
// one request; a longer one is read through a short-lived consumer on the stream's
// leader, which holds every acknowledged entry.
func (s *Store) ReadTable(ctx context.Context, code string) ([]store.TableEntry, error) {
	if err := s.ready(ctx); err != nil {
		return nil, fmt.Errorf("store: read table %s: %w", code, err)
	}
	last, upTo, err := s.lastEntry(ctx, code)
	switch {
	case err != nil:
		return nil, fmt.Errorf("store: read table %s: %w", code, err)
	case last == nil || last.Kind == store.EntryClosed:
		return []store.TableEntry{}, nil
	case last.Kind == store.EntrySnapshot:
		return []store.TableEntry{*last}, nil
	}
	all, err := s.readSubject(ctx, code, upTo)
	if err != nil {
		return nil, fmt.Errorf("store: read table %s: %w", code, err)
	}
	// The rollups leave nothing before the newest snapshot, but a closed entry whose
	// purge failed may still stand before a new log of the same code.
	from := 0
	for i, e := range all {
		switch e.Kind {
		case store.EntrySnapshot:
			from = i
		case store.EntryClosed:
			from = i + 1
		}
	}
	return all[from:], nil
}

// readSubject reads a table's messages up to stream sequence upTo through an ephemeral
// consumer, which it deletes again.
func (s *Store) readSubject(ctx context.Context, code string, upTo uint64) ([]store.TableEntry, error) {
	cons, err := s.log.CreateConsumer(ctx, natsjs.ConsumerConfig{
		FilterSubject:     s.logSubject(code),
		DeliverPolicy:     natsjs.DeliverAllPolicy,
		AckPolicy:         natsjs.AckNonePolicy,
		MemoryStorage:     true,
		Replicas:          1,
		InactiveThreshold: time.Minute, // in case the delete below does not get through
	})
	if err != nil {
		return nil, fmt.Errorf("consumer: %w", err)
	}
	defer func() {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.Timeout)
		_ = s.log.DeleteConsumer(dctx, cons.CachedInfo().Name) // else it expires by itself
		cancel()
	}()
	var out []store.TableEntry
	for {
		batch, err := cons.FetchNoWait(readBatch)
		if err != nil {
			return nil, fmt.Errorf("fetch: %w", err)
		}
		got := 0
		for m := range batch.Messages() {
			got++
			meta, err := m.Metadata()
			if err != nil {
				return nil, err
			}
			e, err := decodeEntry(code, m.Headers(), m.Data())
			if err != nil {
				return nil, err
			}
			out = append(out, e)
			if meta.Sequence.Stream >= upTo {
				return out, nil
			}
		}
		if err := batch.Error(); err != nil {
			return nil, fmt.Errorf("fetch: %w", err)
		}
		if got == 0 {
			return nil, fmt.Errorf("the log ended before stream sequence %d", upTo)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
}

// MarkAlive records that the server was running at t. The mark is shared by the
// cluster: a whole-cluster restart measures its downtime from the last node alive.
func (s *Store) MarkAlive(ctx context.Context, t time.Time) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: mark alive: %w", err)
	}
	if _, err := s.state.PutString(ctx, aliveKey, strconv.FormatInt(store.ToMillis(t), 10)); err != nil {
		return fmt.Errorf("store: mark alive: %w", err)
	}
	return nil
}

const aliveKey = "alive"

// LastAlive is the latest time given to MarkAlive; zero if never.
func (s *Store) LastAlive(ctx context.Context) (time.Time, error) {
	if err := s.ready(ctx); err != nil {
		return time.Time{}, fmt.Errorf("store: last alive: %w", err)
	}
	kv, err := s.state.Get(ctx, aliveKey)
	if errors.Is(err, natsjs.ErrKeyNotFound) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("store: last alive: %w", err)
	}
	ms, err := strconv.ParseInt(string(kv.Value()), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: last alive: %w", err)
	}
	return store.FromMillis(ms), nil
}
