package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
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
//   - game: a game started, with its engine version, seed, names, options, a hash of
//     its content and the bytes of the content files that came from the table's deck.
//   - act / tick: each action the game accepted (players' and bots' alike, with seat and
//     time, and whether a bot took it for an absent player) and each tick that changed the game, with its time. The game is wrapped so
//     whatever calls Apply or Tick is logged.
//   - pace: a seat's time factor given to the running game (more.go), in order with
//     the game's actions.
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

// maxLogEntries bounds a table's log. A game's entries are kept from its start (a game
// is replayed move by move), so a player who moved a token to and fro for days would
// grow it without end, and with it every restart's time: a table whose log holds this
// many entries since its last snapshot closes. A real game makes a few thousand.
var maxLogEntries = 100_000

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
	// StandIn marks an action a bot took for the seat's absent player (rules.StandIns).
	StandIn bool          `json:"stand_in,omitempty"`
	Shift   time.Duration `json:"shift,omitempty"`
	// Factor is a pace entry's time factor for Seat (more.go).
	Factor rules.Factor `json:"factor,omitempty"`
	// Blobs holds the content of packs the table state names for the first time since
	// the last snapshot, by hash (journal_deck.go).
	Blobs map[string][]byte `json:"blobs,omitempty"`
	// Call is the id of the call that made the entry, if it may be sent again (a
	// cluster's session, calls.go); Calls, on a snapshot, the ids of the calls the table
	// applied lately. Entries written before either existed have none.
	Call  string   `json:"call,omitempty"`
	Calls []string `json:"calls,omitempty"`
}

// tableState is the table-level state a log keeps.
type tableState struct {
	Game    string        `json:"game"`
	Private bool          `json:"private,omitempty"`
	Created time.Time     `json:"created"`
	State   string        `json:"state"`
	Host    string        `json:"host"`
	Owner   string        `json:"owner,omitempty"` // the table's own host, who gets the role back
	Options rules.Options `json:"options"`
	Seats   []seatState   `json:"seats"`
	Result  *rules.Result `json:"result,omitempty"`
	// ResultOf names the game of Result (the table may have switched since).
	ResultOf string `json:"result_of,omitempty"`
	// Games are the games started here (TableInfo.GameNo); logs written before it was
	// kept count from the game they restore.
	Games int `json:"games,omitempty"`
	// The deck (deck.go): the chosen pack, alone or mixed, the packs shared with the
	// table, and the content option. Packs are named by hash (journal_deck.go).
	Deck       *packState  `json:"deck,omitempty"`
	Mix        bool        `json:"mix,omitempty"`
	Shared     []packState `json:"shared,omitempty"`
	Everything bool        `json:"everything,omitempty"`
	// Blocked are the keys the host keeps out until unblocked or the table closes.
	Blocked []blockedPlayer `json:"blocked,omitempty"`
}

type seatState struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Guest bool   `json:"guest,omitempty"`
	Bot   bool   `json:"bot,omitempty"`
	// InGame is the seat's seat in the game when it is not its own place (seat.inGame).
	InGame *int `json:"in_game,omitempty"`
	// More is the seat's time factor when it has more time (ExtraTime).
	More rules.Factor `json:"more,omitempty"`
}

// gameStart is what rules.Spec.New needs to start the same game again.
type gameStart struct {
	Version int           `json:"version"`
	Seed    uint64        `json:"seed"`
	Names   []string      `json:"names"`
	Options rules.Options `json:"options"`
	Content string        `json:"content"` // hash of the content files, so changed decks are noticed
	// Files are the content files that are not the built-in ones as they are — a pack,
	// the built-in deck beside a mixed one, a deck the content option filtered — with
	// their exact bytes, so a restored game deals the same cards even once the pack is
	// gone. The built-in files come from the assets again, checked against Content.
	Files map[string][]byte `json:"files,omitempty"`
}

// errNotSaved answers a step whose entries the store refused.
var errNotSaved = errors.New("parlor could not save that, so the table had to close")

// journal is the lobby's one writer.
type journal struct {
	log    store.TableLog
	logger *log.Logger
	now    func() time.Time

	// held keeps the writer from noting the server alive while restored tables' "resumed"
	// entries are not yet durable (Restore): a note before them would make the next
	// restart forget this restart's downtime.
	held atomic.Bool

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
	// A table whose log another writer took over sends nothing more: the store would
	// refuse it, or, reading the log's end again, take an entry numbered past the other
	// writer's, forking the table.
	batch = slices.DeleteFunc(batch, func(h handover) bool {
		if h.t.jr.taken.Load() {
			h.t.jr.refused(0, 0)
			return true
		}
		return false
	})
	if len(batch) == 0 {
		return
	}
	err := j.write(batch)
	var conflict *store.ConflictError
	if errors.As(err, &conflict) {
		// Another writer took some of these tables over: theirs stop as moved, the
		// others' commit is as the rest of the call went.
		for _, h := range batch {
			if stored, ok := conflict.Stored[h.t.code]; ok {
				h.t.jr.refused(stored, conflict.Unsure[h.t.code])
			} else {
				j.committed(h, conflict.Err)
			}
		}
		return
	}
	if errors.Is(err, store.ErrInvalid) && len(batch) > 1 {
		// The store took none of it, for one table's entry most likely (one too large):
		// each table's on its own, so that only that table closes.
		for _, h := range batch {
			j.committed(h, j.write([]handover{h}))
		}
		return
	}
	for _, h := range batch {
		j.committed(h, err)
	}
}

// write stores the entries of batch in one transaction.
func (j *journal) write(batch []handover) error {
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
	return err
}

// committed tells h's table how far its log is durable, or that it could not be saved.
func (j *journal) committed(h handover, err error) {
	h.t.jr.committed(h.entries[len(h.entries)-1].Seq, err)
}

func (j *journal) markAlive() {
	if j.held.Load() {
		return
	}
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
