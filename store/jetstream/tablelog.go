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
	"github.com/nats-io/nuid"

	"parlor/store"
)

// Headers of a table log message; its data is the entry's data.
const (
	hdrSeq  = "Parlor-Seq"  // the entry's seq
	hdrKind = "Parlor-Kind" // event, snapshot or closed
	hdrAt   = "Parlor-At"   // the entry's time, Unix milliseconds (0: none)
	// hdrWrite identifies the AppendTables call that wrote the message, so that a retry
	// can recognise its own earlier try.
	hdrWrite = "Parlor-Write"
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

// AppendTables stores the entries and returns once JetStream acknowledged every one.
//
// All tables' entries go out together as asynchronous publishes, and the call waits for
// all their acknowledgements: a batch costs about one round trip per entry a table has
// in it, not per entry in the batch (group commit). Every message carries the stream
// sequence its table's log ends at (Nats-Expected-Last-Subject-Sequence), so JetStream
// stores a table's entries in order, without a gap, and refuses them if anyone else
// wrote to that table in between: a *store.ConflictError names those tables, and the
// other tables' entries are still sent, so that a stale writer's refusal costs no other
// table its commit.
//
// Everything that can be refused for the input — a seq not above the table's last
// stored one, an entry too large (store.CheckEntry) — is ErrInvalid and checked before
// anything is sent, so such a batch stores nothing, and the lobby writes each table's
// entries again on their own. A batch that fails for other reasons (NATS unreachable)
// may have stored some tables' entries, each table's up to the failure; the lobby closes
// every table of a batch that failed so.
func (s *Store) AppendTables(ctx context.Context, entries []store.TableEntry) error {
	if err := s.ready(ctx); err != nil {
		return fmt.Errorf("store: append table log: %w", err)
	}
	for _, e := range entries {
		if err := store.CheckEntry(e); err != nil {
			return fmt.Errorf("store: append table log: %w", err)
		}
	}
	if len(entries) == 0 {
		return nil
	}
	runs := byTable(entries)
	if err := s.knowTails(ctx, runs); err != nil {
		return fmt.Errorf("store: append table log: %w", err)
	}
	plan, err := s.plan(runs, nuid.Next())
	if err != nil {
		return fmt.Errorf("store: append table log: %w", err)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.Timeout)
		defer cancel()
	}
	err = s.send(ctx, plan)
	s.sent(ctx, plan)
	if err != nil {
		err = fmt.Errorf("store: append table log: %w", err)
	}
	var conflict *store.ConflictError
	for _, t := range plan {
		if t.conflict == nil {
			continue
		}
		if conflict == nil {
			conflict = &store.ConflictError{Stored: map[string]int64{}, Err: err}
		}
		conflict.Stored[t.code] = 0
		if t.acked > 0 {
			conflict.Stored[t.code] = t.entries[t.acked-1].Seq
		}
		if t.unsure {
			if conflict.Unsure == nil {
				conflict.Unsure = map[string]int64{}
			}
			conflict.Unsure[t.code] = t.entries[t.acked].Seq
		}
	}
	if conflict != nil {
		return conflict
	}
	return err
}

// byTable groups entries by table, each table's in order, the tables in the order they
// first appear.
func byTable(entries []store.TableEntry) [][]store.TableEntry {
	var out [][]store.TableEntry
	index := map[string]int{}
	for _, e := range entries {
		i, ok := index[e.Table]
		if !ok {
			i = len(out)
			index[e.Table] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], e)
	}
	return out
}

// knowTails reads the tails of the tables this store does not remember (a new table, or
// one written by another node before), so that plan can check every seq.
func (s *Store) knowTails(ctx context.Context, runs [][]store.TableEntry) error {
	for _, r := range runs {
		s.mu.Lock()
		_, ok := s.tails[r[0].Table]
		s.mu.Unlock()
		if !ok {
			if _, _, err := s.lastEntry(ctx, r[0].Table); err != nil {
				return err
			}
		}
	}
	return nil
}

// tableSend is what one table of a batch sends and how far it got.
type tableSend struct {
	code    string
	write   string             // the call's write id (hdrWrite)
	entries []store.TableEntry // to send, in order
	expect  uint64             // the stream sequence the table's log ends at
	acked   int                // entries JetStream acknowledged
	// conflict: another writer appended to the table's log; nothing more is sent.
	conflict error
	// unsure: with conflict, whether the entry refused may be stored after all (an
	// earlier try of it went unanswered; see storedBefore).
	unsure bool
}

// plan checks each table's seqs against its tail and says what to send. Entries before
// a table's last snapshot or closed entry in the batch are left out: that entry removes
// them as it is stored.
func (s *Store) plan(runs [][]store.TableEntry, write string) ([]*tableSend, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	plan := make([]*tableSend, 0, len(runs))
	for _, r := range runs {
		t := s.tails[r[0].Table]
		last, from := t.seq, 0
		for i, e := range r {
			if e.Seq <= last {
				return nil, fmt.Errorf("%w: table %s seq %d is already stored (the log is at %d)", store.ErrInvalid, e.Table, e.Seq, last)
			}
			last = e.Seq
			if e.Kind != store.EntryEvent {
				from = i
			}
			if e.Kind == store.EntryClosed {
				last = 0 // the code may start a new log
			}
		}
		plan = append(plan, &tableSend{code: r[0].Table, write: write, entries: r[from:], expect: t.stream})
	}
	return plan, nil
}

// maxInflight bounds the publishes awaiting acknowledgement, below the client's limit.
const maxInflight = 1000

// send publishes the plan in rounds: round k sends the k-th entry of every table that
// has one, each expecting the sequence the table's previous entry got, and waits for
// all their acknowledgements. It stops at the first round with a failure, but for a
// table refused as another writer's (its conflict is noted, and it sends no more).
func (s *Store) send(ctx context.Context, plan []*tableSend) error {
	for round := 0; ; round++ {
		var now []*tableSend
		for _, t := range plan {
			if round < len(t.entries) && t.conflict == nil {
				now = append(now, t)
			}
		}
		if len(now) == 0 {
			return nil
		}
		for part := range slices.Chunk(now, maxInflight) {
			if err := s.sendRound(ctx, part, round); err != nil {
				return err
			}
		}
	}
}

// sendRound sends one round and waits for its acknowledgements. An entry whose publish
// may simply not have arrived — no stream leader for a moment, as during a NATS leader
// election or restart, the connection lost to its server, or no acknowledgement in time —
// is sent again, with a growing pause, until ctx ends.
func (s *Store) sendRound(ctx context.Context, tables []*tableSend, round int) error {
	pause := 20 * time.Millisecond
	for try := 0; ; try++ {
		again, err := s.tryRound(ctx, tables, round, try > 0)
		if err != nil && !conflictsOnly(err) {
			return err
		}
		if len(again) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (JetStream did not answer: table %s and %d more)", ctx.Err(), again[0].code, len(again)-1)
		case <-time.After(pause):
		}
		tables, pause = again, min(2*pause, 500*time.Millisecond)
	}
}

// tryRound publishes the round's entry of each table and waits for the answers. It
// returns the tables to try again. On a second try, a refusal because the log moved on
// may only mean that the first try was stored after all: the table's last message then
// carries this call's write id, and counts as the acknowledgement.
func (s *Store) tryRound(ctx context.Context, tables []*tableSend, round int, retry bool) ([]*tableSend, error) {
	futures := make([]natsjs.PubAckFuture, 0, len(tables))
	var errs []error
	for _, t := range tables {
		m := s.entryMsg(t.entries[round])
		m.Header.Set(hdrWrite, t.write)
		m.Header.Set(natsjs.ExpectedLastSubjSeqHeader, strconv.FormatUint(t.expect, 10))
		f, err := s.js.PublishMsgAsync(m)
		if err != nil {
			errs = append(errs, fmt.Errorf("table %s: %w", t.code, err))
			break
		}
		futures = append(futures, f)
	}
	var again []*tableSend
	for i, f := range futures {
		t := tables[i]
		e := t.entries[round]
		select {
		case ack := <-f.Ok():
			t.expect, t.acked = ack.Sequence, t.acked+1
		case err := <-f.Err():
			switch {
			case retryable(err):
				again = append(again, t)
			case wrongLastSequence(err):
				was := notStored // a first try: nothing of it was sent before
				if retry {
					var rerr error
					if was, rerr = s.storedBefore(ctx, t, e); rerr != nil {
						again = append(again, t) // the first try may be stored: look again
						continue
					}
				}
				if was != stored {
					t.unsure = was == unknown
					t.conflict = fmt.Errorf("table %s seq %d: %w: %w", t.code, e.Seq, ErrConflict, err)
					errs = append(errs, t.conflict)
				}
			default:
				errs = append(errs, fmt.Errorf("table %s seq %d: %w", t.code, e.Seq, err))
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return again, errors.Join(errs...)
}

// conflictsOnly tells whether every error tryRound joined is a table refused as another
// writer's (noted on its tableSend), so that the other tables go on.
func conflictsOnly(err error) bool {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if !errors.Is(e, ErrConflict) {
				return false
			}
		}
		return true
	}
	return errors.Is(err, ErrConflict)
}

// retryable tells errors after which an entry may or may not be stored, and sending it
// again is safe (see tryRound), from refusals.
func retryable(err error) bool {
	for _, e := range []error{natsjs.ErrNoStreamResponse, natsjs.ErrAsyncPublishTimeout,
		nats.ErrNoResponders, nats.ErrTimeout, nats.ErrDisconnected} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// What a retry found of its first try (storedBefore).
type firstTry int

const (
	notStored firstTry = iota
	stored
	unknown // another writer's snapshot rolled the log up after it: it may have been there
)

// storedBefore tells whether an earlier try of e was stored without its answer reaching
// us. Such a try passed JetStream's check, so it is the table's first message after
// t.expect — not necessarily its last: another node may have claimed the table since,
// read the log with e in it, and appended after it. If so it counts as acknowledged.
// Another writer's message there means it was not stored, unless that message rolled
// the log up (a snapshot, a closed entry), which removes what was before it: then
// nobody can tell. An error means the log could not be read, which tells nothing:
// taking it for another writer's entry would stop the table's copy and answer its call
// "not applied" for an entry that may be stored.
func (s *Store) storedBefore(ctx context.Context, t *tableSend, e store.TableEntry) (firstTry, error) {
	m, err := s.log.GetMsg(ctx, t.expect+1, natsjs.WithGetMsgSubject(s.logSubject(t.code)))
	switch {
	case errors.Is(err, natsjs.ErrMsgNotFound):
		return unknown, nil // nothing after it: the log was purged as its table closed
	case err != nil:
		return notStored, err
	case m.Header.Get(hdrWrite) == t.write && m.Header.Get(hdrSeq) == strconv.FormatInt(e.Seq, 10):
		t.expect, t.acked = m.Sequence, t.acked+1
		return stored, nil
	case m.Header.Get(natsjs.MsgRollup) != "":
		return unknown, nil
	}
	return notStored, nil
}

// sent notes where each table's log now ends and purges the subject of a table whose
// last entry closed it. A table whose entries did not all get through is forgotten, so
// the next append reads its tail again.
func (s *Store) sent(ctx context.Context, plan []*tableSend) {
	var closed []string
	s.mu.Lock()
	for _, t := range plan {
		if t.acked < len(t.entries) {
			delete(s.tails, t.code)
			continue
		}
		e := t.entries[len(t.entries)-1]
		s.tails[t.code] = tail{stream: t.expect, seq: tailSeq(e)}
		if e.Kind == store.EntryClosed {
			closed = append(closed, t.code)
		}
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
		s.noteTail(code, tail{})
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
// consumer, which it deletes again. It fetches as many messages as the consumer said
// it has, so a fetch returns as soon as they are there, however slow the server.
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
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.Timeout)
		defer cancel()
	}
	var out []store.TableEntry
	for pending := cons.CachedInfo().NumPending; pending > 0; {
		batch, err := cons.Fetch(int(min(pending, readBatch)), natsjs.FetchContext(ctx))
		if err != nil {
			return nil, fmt.Errorf("fetch: %w", err)
		}
		got := 0
		for m := range batch.Messages() {
			got++
			pending--
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
			break
		}
	}
	return nil, fmt.Errorf("the log ended before stream sequence %d", upTo)
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
	kv, err := get(ctx, s.state, aliveKey)
	if errors.Is(err, store.ErrNotFound) {
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
