package lobby

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"parlor/rules"
	"parlor/store"
)

// Restoring a table is replaying its log (journal.go) through the pure rules contract:
// the snapshot gives the table-level state and chat, a game entry calls Spec.New with the
// recorded seed, names, options and content (the built-in files from the assets, the
// files of the table's deck from the log, so a pack game needs no pack), and every act and tick entry calls Apply or
// Tick with its recorded time. The engines stay pure and store nothing themselves; a log
// is only replayed by the engine version that wrote it.
//
// Nobody loses a turn to the outage: each entry is replayed at its recorded time plus the
// downtime of every restart after it (now minus the last moment the server was known to
// run, and the Shift of each later "resumed" entry). The game then holds exactly the
// state it had, moved later by the downtime, so a phase with 40 s left before the crash
// has 40 s left after it, and the game goes on with the real clock. A "resumed" entry
// records the downtime, so the next restart shifts the older entries by it too.
//
// A log that does not replay — corrupt, an unknown game, another engine version, changed
// content, an action or timer the engine now refuses — closes that table: its log is
// removed, the reason is logged, and its players are told when they come back. Other
// tables are not affected, and a panic in an engine during replay is such a failure too.

// lostTable is a table that could not be restored, kept to tell its players.
type lostTable struct {
	notice string
	ids    []string
}

// restoreError separates what players are told from what the log line says: an
// engine's error text may quote a seat's secret, so it is never shown or logged.
type restoreError struct {
	public string // why, in words for players
	detail string // for the operator's log
}

func (e *restoreError) Error() string { return e.detail }

func corrupt(format string, args ...any) error {
	return &restoreError{public: "its saved state was damaged", detail: fmt.Sprintf(format, args...)}
}

// lastAliveOf reads when the previous run of the server was last known to run; New calls
// it before the writer starts noting the current run.
func lastAliveOf(tl store.TableLog) time.Time {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	at, _ := tl.LastAlive(ctx) // unknown: the downtime is measured from the log itself
	return at
}

// Restore brings back every table in the log, each with its code, seats, host, options,
// chat, scores and game, its deadlines moved by the downtime; seats wait as away until
// their players connect, and bots play on by themselves. A table whose log no longer
// replays is closed (see above). A table whose log cannot be read (or not in ctx's time)
// is left in the store for the next start, and its code kept from new tables. It returns
// how many tables came back; an error means the store's list of tables could not be read.
func (l *Lobby) Restore(ctx context.Context) (int, error) {
	if l.journal == nil {
		return 0, nil
	}
	codes, err := l.cfg.Log.OpenTables(ctx)
	if err != nil {
		return 0, fmt.Errorf("restore tables: %w", err)
	}
	l.journal.held.Store(true)
	var back []restored
	unread := map[string]bool{}
	for _, code := range codes {
		r, err := l.restoreOne(ctx, code, time.Time{})
		switch {
		case errors.Is(err, ErrLost):
		case err != nil:
			unread[code] = true
			if ctx.Err() == nil {
				l.log.Error("a table's log could not be read; it stays for the next start", "table", code, "err", err)
			}
		default:
			back = append(back, r)
		}
	}
	if len(unread) > 0 {
		if ctx.Err() != nil {
			l.log.Error("restoring tables took too long; the others stay for the next start", "restored", len(back), "left", len(unread))
		}
		l.mu.Lock()
		l.unread = unread
		l.mu.Unlock()
	}
	if err := resumedDurable(ctx, back); err != nil {
		// The server is not noted alive in this run, so the next restart measures
		// its downtime from the run before, which the restored logs still need.
		l.log.Warn("restored tables could not note their restart; the server is not noted alive", "err", err)
		return len(back), nil
	}
	l.journal.held.Store(false)
	return len(back), nil
}

// restored is a table Restore brought back and the seq of its "resumed" entry.
type restored struct {
	jr      *tableJournal
	resumed int64
}

// resumedDurable waits until every restored table's "resumed" entry is durable. The
// writer tells only each table's actor of its commits, so this polls the journals'
// atomic marks; it runs once per start, for a few milliseconds.
func resumedDurable(ctx context.Context, back []restored) error {
	for _, r := range back {
		for r.jr.durable.Load() < r.resumed {
			if r.jr.failed.Load() {
				return errors.New("a table's log could not be written")
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(2 * time.Millisecond):
			}
		}
	}
	return nil
}

// ErrLost says a table's log did not replay, so the table was closed (see lose); its
// players are told why when they come back.
var ErrLost = rules.Sentinel("lobby.lost", "the table could not be restored")

// restoreOne brings back the table with code from its log, or closes it (ErrLost).
// alive is when the server that ran it was last known to run; zero: this server's own
// previous run (l.lastAlive).
func (l *Lobby) restoreOne(ctx context.Context, code string, alive time.Time) (restored, error) {
	entries, err := l.cfg.Log.ReadTable(ctx, code)
	if err != nil {
		return restored{}, fmt.Errorf("restore table %s: %w", code, err)
	}
	now := l.now()
	if alive.IsZero() {
		alive = l.lastAlive
	}
	t, err := l.replay(code, entries, now, alive)
	if err != nil {
		l.lose(ctx, code, entries, err)
		return restored{}, ErrLost
	}
	r := restored{jr: t.jr, resumed: t.jr.seq} // read before the actor owns t
	l.mu.Lock()
	if l.shutLocked() {
		l.mu.Unlock()
		return restored{}, fmt.Errorf("restore table %s: %w", code, errShuttingDown) // its log stays for whoever runs it next
	}
	l.addLocked(t)
	l.mu.Unlock()
	l.runTable(t)
	l.log.Info("table restored", "table", code, "game", t.spec.ID, "state", t.state, "entries", len(entries))
	return r, nil
}

// replay rebuilds one table from its log.
func (l *Lobby) replay(code string, entries []store.TableEntry, now, alive time.Time) (t *Table, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, &restoreError{public: "this version of parlor could not replay it", detail: fmt.Sprintf("replay panicked: %v", r)}
		}
	}()
	recs := make([]record, len(entries))
	for i, e := range entries {
		if err := json.Unmarshal(e.Data, &recs[i]); err != nil {
			return nil, corrupt("entry %d does not decode: %v", e.Seq, err)
		}
	}
	if len(recs) == 0 || recs[0].Kind != recSnapshot || recs[0].Table == nil {
		return nil, corrupt("the log does not start with a snapshot")
	}
	if last := recs[len(recs)-1].At; alive.Before(last) {
		alive = last
	}
	// Negative when this clock is behind the log's (a lower --game-speed than the run
	// that wrote it, a system clock set back): the entries then move earlier, so the
	// timers keep the time they had left rather than gaining the gap between the clocks.
	down := now.Sub(alive)
	// shift[i] is the downtime of every restart after entry i: a resumed entry stands
	// between the runs, so its Shift applies to the entries before it.
	shift := make([]time.Duration, len(recs))
	acc := down
	for i := len(recs) - 1; i >= 0; i-- {
		shift[i] = acc
		if recs[i].Kind == recResumed {
			acc += recs[i].Shift
		}
	}
	blobs := map[string][]byte{} // pack contents, by hash (journal_deck.go)
	for i, r := range recs {
		for sum, b := range r.Blobs {
			blobs[sum] = b
		}
		if err := l.replayOne(&t, code, r, blobs, r.At.Add(shift[i])); err != nil {
			return nil, err
		}
	}
	if t.state == StatePlaying && t.game == nil {
		return nil, corrupt("a game is playing but the log has no game start")
	}
	for i, s := range t.seats {
		if s.bot != nil {
			s.bot = t.newBot(i)
		}
	}
	if t.game != nil {
		t.game = loggedGame{Game: t.game, t: t}
	}
	jr := t.jr
	jr.seq = entries[len(entries)-1].Seq
	jr.durable.Store(jr.seq)
	jr.sinceSnap = len(entries)
	jr.table, _ = json.Marshal(t.logState())
	jr.chatID = t.chatID
	jr.blobs = map[string]bool{}
	for sum := range blobs {
		jr.blobs[sum] = true
	}
	t.record(now, store.EntryEvent, record{Kind: recResumed, Shift: down})
	// Every player was disconnected by the restart: the first one back is not the host
	// just for being first (and the host then took it back, two lines in the chat).
	t.hostWait = now.Add(hostWaitAfterRestart)
	t.system(now, "parlor restarted and this table is back. Timers were paused while it was down.")
	t.endStep(now)
	return t, nil
}

// hostWaitAfterRestart is how long a restored table's host role waits for its host.
const hostWaitAfterRestart = time.Minute

// replayOne applies one record; *tp is nil until the first snapshot made the table.
// blobs holds the pack contents the log has brought up to this record.
func (l *Lobby) replayOne(tp **Table, code string, r record, blobs map[string][]byte, at time.Time) error {
	if err := l.replayRecord(tp, code, r, blobs, at); err != nil {
		return err
	}
	if t := *tp; t != nil { // the calls it knows were applied (calls.go)
		for _, id := range r.Calls {
			t.calls.add(id)
		}
		t.calls.add(r.Call)
	}
	return nil
}

func (l *Lobby) replayRecord(tp **Table, code string, r record, blobs map[string][]byte, at time.Time) error {
	t := *tp
	switch r.Kind {
	case recSnapshot, recTable:
		if r.Table == nil {
			return corrupt("a %s entry without table state", r.Kind)
		}
		if err := l.replayState(tp, code, r.Table); err != nil {
			return err
		}
		if err := (*tp).replayDeck(r.Table, blobs); err != nil {
			return err
		}
		if r.Kind == recSnapshot {
			(*tp).chat, (*tp).chatID = slices.Clone(r.Chat), r.ChatID
		}
	case recChat:
		for _, line := range r.Chat {
			t.chat = append(t.chat, line)
			t.chatID = line.ID
		}
		if len(t.chat) > chatKept {
			t.chat = append(t.chat[:0:0], t.chat[len(t.chat)-chatKept:]...)
		}
	case recGame:
		return l.replayStart(t, r.Game, at)
	case recAct:
		if t.game == nil {
			return corrupt("an action before any game started")
		}
		if err := rules.ApplyBy(t.game, r.Seat, r.Action, at, r.StandIn); err != nil {
			typ, _ := rules.ActionType(r.Action)
			return &restoreError{public: "this version of parlor plays " + t.spec.Name + " differently",
				detail: fmt.Sprintf("%s engine refuses a logged %q action of seat %d", t.spec.ID, typ, r.Seat)}
		}
	case recTick:
		if t.game == nil {
			return corrupt("a timer before any game started")
		}
		if !t.game.Tick(at) {
			return &restoreError{public: "this version of parlor plays " + t.spec.Name + " differently",
				detail: fmt.Sprintf("%s engine: a logged timer no longer changes the game", t.spec.ID)}
		}
	case recPace:
		return t.replayPace(r)
	case recResumed:
	default:
		return corrupt("unknown entry kind %q", r.Kind)
	}
	return nil
}

// replayState sets the table-level state, making the table at the first snapshot.
func (l *Lobby) replayState(tp **Table, code string, st *tableState) error {
	spec, ok := rules.Lookup(st.Game)
	if !ok {
		return &restoreError{public: "this version of parlor has no such game", detail: fmt.Sprintf("unknown game %q", st.Game)}
	}
	t := *tp
	if t == nil {
		t = newTable(l, code, spec, nil, st.Private, st.Created)
		*tp = t
	} else if t.spec != spec { // the host switched the game (switchGame)
		t.spec = spec
		if st.State == StateWaiting {
			t.game = nil
		}
	}
	switch st.State {
	case StateWaiting, StatePlaying, StateFinished:
	default:
		return corrupt("unknown table state %q", st.State)
	}
	t.opts, t.state, t.host, t.owner, t.result, t.resultOf = cloneOptions(st.Options), st.State, st.Host, st.Owner, st.Result, st.ResultOf
	t.blocked = slices.Clone(st.Blocked)
	if st.Games > 0 {
		t.games = st.Games
	}
	t.seats = t.seats[:0]
	for i, s := range st.Seats {
		seat := &seat{player: Player{ID: s.ID, Name: s.Name, Guest: s.Guest}, inGame: i, more: s.More}
		if s.InGame != nil {
			seat.inGame = *s.InGame
		}
		if s.Bot {
			seat.bot = noBot{} // made for real once the replay is done
		}
		t.seats = append(t.seats, seat)
	}
	return nil
}

// noBot marks a bot seat during replay, where bots never act (their moves are in the log).
type noBot struct{}

func (noBot) Act(rules.View, time.Time) any { return nil }

// replayStart starts the logged game again, if this build plays it the same way.
func (l *Lobby) replayStart(t *Table, g *gameStart, at time.Time) error {
	if g == nil {
		return corrupt("a game entry without its start")
	}
	if g.Version != t.spec.Version {
		return &restoreError{
			public: fmt.Sprintf("it was started by another version of %s", t.spec.Name),
			detail: fmt.Sprintf("%s engine version %d in the log, this build has %d", t.spec.ID, g.Version, t.spec.Version),
		}
	}
	content, err := l.content(t.spec.Content)
	if err != nil {
		return &restoreError{public: "its game content could not be loaded", detail: err.Error()}
	}
	for name, b := range g.Files { // the table's own deck, as the game was dealt it
		content[name] = b
	}
	if contentHash(content) != g.Content {
		return &restoreError{public: "the " + t.spec.Name + " cards changed since it started", detail: "content hash differs"}
	}
	// A log from before away players was the table's has it among the game's options.
	game, err := t.spec.New(rules.Setup{Names: g.Names, Seed: g.Seed, Options: forGame(g.Options), Content: content, Now: at})
	if err != nil {
		return &restoreError{public: "this version of parlor could not start it again", detail: fmt.Sprintf("%s New: %v", t.spec.ID, err)}
	}
	t.game, t.content = game, content
	t.games++
	for i, s := range t.seats {
		s.inGame = i
	}
	return nil
}

// contentHash identifies a game's content files, so a log is not replayed over a
// changed deck (the same seed would deal different cards).
func contentHash(content map[string][]byte) string {
	names := make([]string, 0, len(content))
	for name := range content {
		names = append(names, name)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, name := range names {
		_ = binary.Write(h, binary.BigEndian, uint64(len(name)))
		h.Write([]byte(name))
		_ = binary.Write(h, binary.BigEndian, uint64(len(content[name])))
		h.Write(content[name])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// lose closes a table whose log does not replay: the log line says why, the log is
// removed, and its players are told when they next look for it.
func (l *Lobby) lose(ctx context.Context, code string, entries []store.TableEntry, err error) {
	public := "this version of parlor could not replay it"
	var re *restoreError
	if errors.As(err, &re) {
		public = re.public
	}
	l.log.Error("table could not be restored; closing it", "table", code, "err", err)
	// The last table state that still decodes names the game and its players.
	name := "game"
	var ids []string
	var last int64
	for _, e := range entries {
		last = max(last, e.Seq)
		var r record
		if json.Unmarshal(e.Data, &r) != nil || r.Table == nil {
			continue
		}
		if spec, ok := rules.Lookup(r.Table.Game); ok {
			name = spec.Name
		}
		ids = ids[:0]
		for _, s := range r.Table.Seats {
			if !s.Bot && !s.Guest {
				ids = append(ids, s.ID)
			}
		}
	}
	notice := fmt.Sprintf("Sorry: your %s table %s could not be brought back after parlor restarted (%s), so it was closed.", name, code, public)
	l.mu.Lock()
	if l.lost == nil {
		l.lost = map[string]lostTable{}
	}
	l.lost[code] = lostTable{notice: notice, ids: ids}
	l.mu.Unlock()
	closed := store.TableEntry{Table: code, Seq: last + 1, Kind: store.EntryClosed, At: l.now(), Data: []byte(`{"kind":"closed"}`)}
	if err := l.cfg.Log.AppendTables(ctx, []store.TableEntry{closed}); err != nil {
		l.log.Error("could not remove a table that did not restore", "table", code, "err", err)
	}
}

// Lost lists what to tell a player about their tables that could not be restored.
func (l *Lobby) Lost(playerID string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, lt := range l.lost {
		if slices.Contains(lt.ids, playerID) {
			out = append(out, lt.notice)
		}
	}
	slices.Sort(out)
	return out
}

// lostNotice is why a code that belonged to a table lost in a restart finds nothing.
func (l *Lobby) lostNotice(code string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	lt, ok := l.lost[code]
	return lt.notice, ok
}
