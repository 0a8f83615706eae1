package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/log/v2"

	"parlor/rules"
	"parlor/store"
)

// The table log. Every open table writes what happens at it to the store's TableLog, so
// that a restart can bring it back (see restore.go). What is written:
//
//   - snapshot: the whole table-level state (game, options, privacy, host, seats, state,
//     last result) and its chat; it stands for everything before it. A table's log starts
//     with one, and a new one is written when a game starts, so a log holds one game.
//   - table: the table-level state again, whenever any of it changed during a step. The
//     actor compares the state after each step that changed what members see with the
//     last one written, so every mutation is captured without a hook at each of them.
//   - chat: each new chat line.
//   - game: a game started, with its engine version, seed, names, options and a hash of
//     its content.
//   - act / tick: each action the game accepted (players' and bots' alike, with seat and
//     time) and each tick that changed the game, with its time. The game is wrapped so
//     whatever calls Apply or Tick is logged.
//   - resumed: the table came back after a restart; its Shift is the downtime added to
//     every deadline (restore.go).
//
// Durable before acknowledged: the entries of one actor step go to the lobby's single
// writer, which commits whatever every table handed it since its last commit in one
// transaction (group commit); the step's answers (an action's "ok", a join) and the next
// fan-out wait until that commit is done, while the actor goes on taking messages. No
// table ever waits on another's disk, and nobody sees a state that a crash could lose.

// Record kinds.
const (
	recSnapshot = "snapshot"
	recTable    = "table"
	recChat     = "chat"
	recGame     = "game"
	recAct      = "act"
	recTick     = "tick"
	recResumed  = "resumed"
)

// compactAfter is how many entries a table without a game writes before the next step
// writes a snapshot instead, so chat and seat changes cannot grow a log without bound.
const compactAfter = 200

// record is one entry's data. At is kept here at full precision (the store keeps
// milliseconds) so a replayed game sees exactly the times the live one saw.
type record struct {
	Kind   string          `json:"kind"`
	At     time.Time       `json:"at"`
	Table  *tableState     `json:"table,omitempty"`
	Chat   []ChatLine      `json:"chat,omitempty"`
	ChatID int             `json:"chat_id,omitempty"`
	Game   *gameStart      `json:"game,omitempty"`
	Seat   int             `json:"seat,omitempty"`
	Action json.RawMessage `json:"action,omitempty"`
	Shift  time.Duration   `json:"shift,omitempty"`
}

// tableState is the table-level state a log keeps.
type tableState struct {
	Game    string        `json:"game"`
	Private bool          `json:"private,omitempty"`
	Created time.Time     `json:"created"`
	State   string        `json:"state"`
	Host    string        `json:"host"`
	Options rules.Options `json:"options"`
	Seats   []seatState   `json:"seats"`
	Result  *rules.Result `json:"result,omitempty"`
}

type seatState struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Guest bool   `json:"guest,omitempty"`
	Bot   bool   `json:"bot,omitempty"`
}

// gameStart is what rules.Spec.New needs to start the same game again.
type gameStart struct {
	Version int           `json:"version"`
	Seed    uint64        `json:"seed"`
	Names   []string      `json:"names"`
	Options rules.Options `json:"options"`
	Content string        `json:"content"` // hash of the content files, so changed decks are noticed
}

// errNotSaved answers a step whose entries the store refused.
var errNotSaved = errors.New("parlor could not save that, so the table had to close")

// RestartNotice is what players are told when the server stops with their tables kept.
const RestartNotice = "parlor is restarting; your table will be here when it is back."

// journal is the lobby's one writer.
type journal struct {
	log    store.TableLog
	logger *log.Logger
	now    func() time.Time

	mu    sync.Mutex
	queue []handover
	wake  chan struct{}
	quit  chan struct{}
	done  chan struct{}
	once  sync.Once
}

// handover is one table step's entries, waiting for the next commit.
type handover struct {
	t       *Table
	entries []store.TableEntry
}

func newJournal(tl store.TableLog, logger *log.Logger, now func() time.Time) *journal {
	j := &journal{log: tl, logger: logger, now: now, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go j.run()
	return j
}

// submit hands entries to the writer; it never waits for the disk.
func (j *journal) submit(t *Table, entries []store.TableEntry) {
	j.mu.Lock()
	j.queue = append(j.queue, handover{t, entries})
	j.mu.Unlock()
	select {
	case j.wake <- struct{}{}:
	default:
	}
}

// aliveEvery is how often the writer notes that the server runs; a restart's downtime
// is measured from the last note, so it is at most this much too long.
const aliveEvery = time.Second

func (j *journal) run() {
	defer close(j.done)
	alive := time.NewTicker(aliveEvery)
	defer alive.Stop()
	for {
		select {
		case <-j.wake:
			j.commit()
		case <-alive.C:
			j.markAlive()
		case <-j.quit:
			j.commit()
			j.markAlive()
			return
		}
	}
}

// commit writes everything handed over since the last commit in one transaction, then
// tells each table how far its log is durable.
func (j *journal) commit() {
	j.mu.Lock()
	batch := j.queue
	j.queue = nil
	j.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	var all []store.TableEntry
	for _, h := range batch {
		all = append(all, h.entries...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	err := j.log.AppendTables(ctx, all)
	cancel()
	if err != nil {
		j.logger.Error("could not save table logs", "entries", len(all), "err", err)
	}
	for _, h := range batch {
		h.t.jr.committed(h.entries[len(h.entries)-1].Seq, err)
	}
}

func (j *journal) markAlive() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := j.log.MarkAlive(ctx, j.now()); err != nil {
		j.logger.Warn("could not note the server as alive", "err", err)
	}
}

// stop commits what is left and ends the writer; every table must have stopped.
func (j *journal) stop() {
	j.once.Do(func() { close(j.quit) })
	<-j.done
}

// tableJournal is one table's side of the log. The actor owns every field except
// durable, failed and commits, which the writer sets.
type tableJournal struct {
	w         *journal
	seq       int64              // the last seq handed to the writer (or replayed)
	unsent    []store.TableEntry // this step's entries
	sinceSnap int                // entries since the last snapshot
	table     []byte             // the last tableState written, marshalled
	chatID    int                // the last chat line written
	replies   []pendingReply     // this step's answers
	waiting   []pendingReply     // answers waiting for their entries to be durable
	keep      bool               // the table stops but must stay in storage (restart, save failure)

	durable atomic.Int64
	failed  atomic.Bool
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
	st := tableState{Game: t.spec.ID, Private: t.private, Created: t.created, State: t.state, Host: t.host, Options: t.opts, Result: t.result}
	for _, s := range t.seats {
		st.Seats = append(st.Seats, seatState{ID: s.player.ID, Name: s.player.Name, Guest: s.player.Guest, Bot: s.bot != nil})
	}
	return st
}

// snapshot writes the whole table-level state and chat; earlier entries are dropped.
func (t *Table) snapshot(now time.Time) {
	st := t.logState()
	t.record(now, store.EntrySnapshot, record{Kind: recSnapshot, Table: &st, Chat: t.chat, ChatID: t.chatID})
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
			t.record(now, store.EntryEvent, record{Kind: recTable, Table: &st})
			jr.table = b
		}
		for _, line := range t.chat {
			if line.ID > jr.chatID {
				t.record(now, store.EntryEvent, record{Kind: recChat, Chat: []ChatLine{line}})
			}
		}
		jr.chatID = t.chatID
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
// was acknowledged to anyone.
func (t *Table) settle() {
	jr := t.jr
	if jr.failed.Load() {
		for _, r := range jr.waiting {
			r.ch <- errNotSaved
		}
		jr.waiting = nil
		jr.keep = true
		if t.closing == "" {
			t.closing = "Sorry: parlor could not save this table, so it had to close."
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

func (g loggedGame) Tick(now time.Time) bool {
	if !g.Game.Tick(now) {
		return false
	}
	g.t.record(now, store.EntryEvent, record{Kind: recTick})
	return true
}

// logGame starts a game's part of the log: a snapshot (the log keeps one game) and the
// game's start. It returns g wrapped so that its moves are logged.
func (t *Table) logGame(now time.Time, setup rules.Setup, g rules.Game) rules.Game {
	if t.jr == nil {
		return g
	}
	t.snapshot(now)
	t.record(now, store.EntryEvent, record{Kind: recGame, Game: &gameStart{
		Version: t.spec.Version, Seed: setup.Seed, Names: setup.Names, Options: setup.Options, Content: contentHash(setup.Content),
	}})
	return loggedGame{Game: g, t: t}
}
