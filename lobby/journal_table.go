package lobby

import (
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"parlor/rules"
	"parlor/store"
)

// The table's side of the log (see journal.go): what an actor step records, how its
// answers wait for the writer, and how the table stops with or without its log.

// tableJournal is one table's side of the log. The actor owns every field except
// durable, failed and commits, which the writer sets.
type tableJournal struct {
	w         *journal
	seq       int64              // the last seq handed to the writer (or replayed)
	unsent    []store.TableEntry // this step's entries
	sinceSnap int                // entries since the last snapshot
	table     []byte             // the last tableState written, marshalled
	chatID    int                // the last chat line written
	blobs     map[string]bool    // the pack contents written since the last snapshot (journal_deck.go)
	replies   []pendingReply     // this step's answers
	waiting   []pendingReply     // answers waiting for their entries to be durable
	keep      bool               // the table stops but must stay in storage (restart, save failure)

	durable atomic.Int64
	failed  atomic.Bool
	// taken: the store refused the table's entries as another writer's (a cluster node
	// that took the table over): this copy stops as a move. Set with failed.
	taken atomic.Bool
	// unsure: with taken, the entry that may be stored after all (0: none; see
	// store.ConflictError).
	unsure  atomic.Int64
	commits chan struct{}
}

type pendingReply struct {
	seq int64
	ch  chan<- error
	err error
}

func newTableJournal(w *journal) *tableJournal {
	return &tableJournal{w: w, commits: make(chan struct{}, 1)}
}

// committed is called by the writer when entries up to seq are durable (or failed).
func (jr *tableJournal) committed(seq int64, err error) {
	if err != nil {
		jr.failed.Store(true)
	} else {
		jr.durable.Store(seq)
	}
	select {
	case jr.commits <- struct{}{}:
	default:
	}
}

// refused is called by the writer when the store refused the table's entries after
// stored (0: none of the commit) because another writer appended to its log since: the
// table was taken over, and nothing this copy writes is stored any more. unsure is the
// entry that may be stored after all (0: none); the writes after it, refused without
// being sent, do not forget it.
func (jr *tableJournal) refused(stored, unsure int64) {
	if stored > jr.durable.Load() {
		jr.durable.Store(stored)
	}
	if unsure > 0 {
		jr.unsure.CompareAndSwap(0, unsure)
	}
	jr.taken.Store(true)
	jr.failed.Store(true)
	select {
	case jr.commits <- struct{}{}:
	default:
	}
}

// commitSignal is the channel the actor waits on; nil (never ready) without a log.
func (t *Table) commitSignal() <-chan struct{} {
	if t.jr == nil {
		return nil
	}
	return t.jr.commits
}

// caughtUp reports whether everything the table did is durable, so it may be shown.
func (t *Table) caughtUp() bool {
	return t.jr == nil || t.jr.durable.Load() >= t.jr.seq
}

// answer sends the reply of a do() once the step's entries are durable.
func (t *Table) answer(ch chan<- error, err error) {
	if t.jr == nil {
		ch <- err
		return
	}
	t.jr.replies = append(t.jr.replies, pendingReply{ch: ch, err: err})
}

// record adds an entry to this step's handover.
func (t *Table) record(now time.Time, kind store.EntryKind, r record) {
	if t.jr == nil {
		return
	}
	r.At = now
	if t.call != "" {
		r.Call = t.call
	}
	data, err := json.Marshal(r)
	if err != nil {
		// Every field is a plain value or JSON the game accepted: this cannot happen.
		panic("lobby: table record does not marshal: " + err.Error())
	}
	t.jr.seq++
	t.jr.sinceSnap++
	t.jr.unsent = append(t.jr.unsent, store.TableEntry{Table: t.code, Seq: t.jr.seq, Kind: kind, At: now, Data: data})
}

// state is the table-level state as the log keeps it.
func (t *Table) logState() tableState {
	st := tableState{Game: t.spec.ID, Private: t.private, Created: t.created, State: t.state, Host: t.host, Owner: t.owner, Options: t.opts, Result: t.result, ResultOf: t.resultOf, Games: t.games}
	for i, s := range t.seats {
		ss := seatState{ID: s.player.ID, Name: s.player.Name, Guest: s.player.Guest, Bot: s.bot != nil, More: s.moreShown()}
		if g := s.inGame; g != i {
			ss.InGame = &g
		}
		st.Seats = append(st.Seats, ss)
	}
	t.deckState(&st)
	st.Blocked = t.blocked
	return st
}

// snapshot writes the whole table-level state and chat; earlier entries are dropped.
func (t *Table) snapshot(now time.Time) {
	st := t.logState()
	t.record(now, store.EntrySnapshot, record{Kind: recSnapshot, Table: &st, Chat: t.chat, ChatID: t.chatID, Blobs: t.packBlobs(true), Calls: t.calls.list()})
	t.jr.table, _ = json.Marshal(st)
	t.jr.chatID = t.chatID
	t.jr.sinceSnap = 0
}

// endStep runs after every actor step: it writes what changed, hands the step's entries
// to the writer and queues the step's answers behind them.
func (t *Table) endStep(now time.Time) {
	jr := t.jr
	if jr == nil {
		return
	}
	// Whatever members can see sets dirty (it is what makes a fan-out), and all of the
	// table-level state is visible: a clean step has nothing new but game entries.
	if jr.seq == 0 || (t.game == nil && jr.sinceSnap >= compactAfter) {
		t.snapshot(now)
	} else if t.dirty {
		st := t.logState()
		if b, _ := json.Marshal(st); string(b) != string(jr.table) {
			t.record(now, store.EntryEvent, record{Kind: recTable, Table: &st, Blobs: t.packBlobs(false)})
			jr.table = b
		}
		for _, line := range t.chat {
			if line.ID > jr.chatID {
				t.record(now, store.EntryEvent, record{Kind: recChat, Chat: []ChatLine{line}})
			}
		}
		jr.chatID = t.chatID
	}
	if jr.sinceSnap >= maxLogEntries && t.closing.IsZero() {
		t.closing = closedBy(WhyClosed, fmt.Sprintf("This table closed: its game's log reached %d moves and messages, the most parlor keeps.", maxLogEntries))
	}
	if len(jr.unsent) > 0 {
		jr.w.submit(t, jr.unsent)
		jr.unsent = nil
	}
	for _, r := range jr.replies {
		r.seq = jr.seq
		jr.waiting = append(jr.waiting, r)
	}
	jr.replies = jr.replies[:0]
	t.settle()
}

// settle sends the answers whose entries are durable. A failed write closes the table
// but keeps its log: what was durable comes back after a restart, and nothing after it
// was acknowledged to anyone. A table another writer took over stops as moved: its
// members follow it to the node that runs it now, and the calls whose entries were
// refused are told it moves (they were not applied: try again there).
func (t *Table) settle() {
	jr := t.jr
	if jr.taken.Load() {
		d, unsure := jr.durable.Load(), jr.unsure.Load()
		for _, r := range jr.waiting {
			switch {
			case r.seq <= d:
				r.ch <- r.err
			case unsure > 0 && r.seq >= unsure:
				// The step that wrote the entry whose fate is unknown: it may have
				// been applied. The steps after it were not sent.
				r.ch <- ErrUnreachable
				unsure = 0
			default:
				r.ch <- ErrMoving
			}
		}
		jr.waiting = nil
		jr.keep = true
		if t.closing.Why != WhyMoved {
			t.lobby.log.Warn("another node took the table over: this copy stops", "table", t.code)
			t.closing, t.closedBy = TakenOverNotice, nil
		}
		return
	}
	if jr.failed.Load() {
		for _, r := range jr.waiting {
			r.ch <- errNotSaved
		}
		jr.waiting = nil
		jr.keep = true
		if t.closing.IsZero() {
			t.closing = closedBy(WhyClosed, "Sorry: parlor could not save this table, so it had to close.")
		}
		return
	}
	d := jr.durable.Load()
	n := 0
	for _, r := range jr.waiting {
		if r.seq > d {
			break
		}
		r.ch <- r.err
		n++
	}
	jr.waiting = jr.waiting[n:]
}

// stopForRestart ends the actor without closing the table in storage: it waits (a
// bounded time) for its entries to be durable, shows members the final state and tells
// them the table will be back.
func (t *Table) stopForRestart() {
	if t.jr == nil {
		t.closing = t.lobby.ShutdownNotice()
		return
	}
	t.jr.keep = true
	t.endStep(t.lobby.now())
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for !t.caughtUp() && !t.jr.failed.Load() {
		select {
		case <-t.jr.commits:
			t.settle()
		case <-deadline.C:
			t.lobby.log.Warn("table log not saved before stopping", "table", t.code)
			t.closing = RestartNotice
			return
		}
	}
	t.settle()
	if t.dirty && t.caughtUp() {
		t.fanOut()
	}
	t.closing = RestartNotice
}

// closeLog runs when the actor stops: a closed table's log is removed (the writer
// commits it without anyone waiting); every answer still pending is sent.
func (t *Table) closeLog(now time.Time) {
	jr := t.jr
	if jr == nil {
		return
	}
	for _, r := range append(jr.waiting, jr.replies...) {
		r.ch <- r.err
	}
	jr.waiting, jr.replies = nil, nil
	if jr.keep {
		return
	}
	jr.unsent = nil
	t.record(now, store.EntryClosed, record{Kind: "closed"})
	jr.w.submit(t, jr.unsent)
	jr.unsent = nil
}

// loggedGame is a game whose accepted actions and state-changing ticks go to the log.
type loggedGame struct {
	rules.Game
	t *Table
}

func (g loggedGame) Apply(seat int, action json.RawMessage, now time.Time) error {
	if err := g.Game.Apply(seat, action, now); err != nil {
		return err
	}
	g.t.record(now, store.EntryEvent, record{Kind: recAct, Seat: seat, Action: action})
	return nil
}

// ApplyStandIn implements rules.StandIns for every game, so that a stand-in's actions
// are logged as such whether or not the game words them apart.
func (g loggedGame) ApplyStandIn(seat int, action json.RawMessage, now time.Time) error {
	if err := rules.ApplyBy(g.Game, seat, action, now, true); err != nil {
		return err
	}
	g.t.record(now, store.EntryEvent, record{Kind: recAct, Seat: seat, Action: action, StandIn: true})
	return nil
}

// History implements rules.Historian for every game, giving the game's own if it has one.
func (g loggedGame) History(seat int) []string { return rules.HistoryOf(g.Game, seat) }

func (g loggedGame) Tick(now time.Time) bool {
	if !g.Game.Tick(now) {
		return false
	}
	g.t.record(now, store.EntryEvent, record{Kind: recTick})
	return true
}

// logGame starts a game's part of the log: a snapshot (the log keeps one game) and the
// game's start, with the content files of the table's own deck (own, see gameContent).
// It returns g wrapped so that its moves are logged.
func (t *Table) logGame(now time.Time, setup rules.Setup, own map[string][]byte, g rules.Game) rules.Game {
	if t.jr == nil {
		return g
	}
	t.snapshot(now)
	t.record(now, store.EntryEvent, record{Kind: recGame, Game: &gameStart{
		Version: t.spec.Version, Seed: setup.Seed, Names: setup.Names, Options: setup.Options, Content: contentHash(setup.Content),
		Files: own,
	}})
	return loggedGame{Game: g, t: t}
}
