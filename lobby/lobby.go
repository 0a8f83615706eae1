// Package lobby runs the tables: join codes, seats, host controls, spectators, chat,
// bots, timers, reconnects, and the fan-out of each seat's own view. Each table is one
// goroutine (an actor) that owns all of that table's state. The lobby never renders
// anything and never blocks on a slow member.
//
// Given a store.TableLog (Config.Log), every table writes an append-only log of what
// happens at it, through one group-committing writer, and shows nothing before it is
// written (journal.go); Restore brings every logged table back after a restart by
// replaying its log through the rules contract (restore.go).
package lobby

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"charm.land/log/v2"

	"parlor/playertext"
	"parlor/rules"
	"parlor/store"
)

// Config is what a lobby needs from the server.
type Config struct {
	Logger    *log.Logger
	Hooks     Hooks                                           // metrics; any field may be nil
	Content   func(names []string) (map[string][]byte, error) // loads game content (assets.Load)
	OnFinish  func(FinishedGame)                              // called (on its own goroutine) when a game ends; Shutdown waits for it
	Clock     Clock                                           // the time tables live by; the wall clock if nil
	Tick      time.Duration                                   // how often tables run timers and bots (default 250 ms)
	IdleClose time.Duration                                   // close a table with nobody connected this long (default 10 min)
	Packs     Packs                                           // players' content packs; nil: built-in decks only
	// Log keeps every open table across restarts (journal.go, restore.go); nil keeps
	// tables in memory only.
	Log store.TableLog
	// Cluster makes this lobby one node of a cluster (cluster.go); nil: a lone server.
	Cluster Cluster
	// SSHCommand is how players reach the server, for the messages that tell them a
	// command to run ("ssh -p 2222 HOST pack list"): the server makes it, as it knows
	// the port. Empty: "ssh HOST".
	SSHCommand string
	// Muted tells whether an admin has muted a player server-wide, why and until when
	// (zero: until lifted); a muted player's chat and game texts are refused. nil:
	// nobody is muted. It may read a store: it is never called on a table's actor.
	Muted func(playerID string) (reason string, until time.Time, muted bool)
	// Report keeps a player's report for the admins, once for its call (Report.Call: a
	// second one under the same call is answered nil and not kept again); nil: reports
	// are refused (ErrNoReports).
	Report func(ctx context.Context, r Report) error
	// FilterWords is the family filter's word list (filter.go); nil: the built-in one.
	FilterWords *WordFilter
	// Ignores remembers whom each player ignores, by key, so that an ignore outlives
	// the session and the table (moderation.go); nil: an ignore lasts as long as the
	// member. The server gives its store.
	Ignores IgnoreBook
}

// Hooks lets the server count what happens, for /metrics.
type Hooks struct {
	GameStarted  func(game string)
	GameFinished func(game string)
	Action       func(game string)
	FanOut       func(d time.Duration) // from the first unsent change to every member holding it
	Tables       func(open int)        // called under the lobby's lock: keep it quick
	Reported     func()                // a player's report was kept
}

func (h Hooks) started(g string) {
	if h.GameStarted != nil {
		h.GameStarted(g)
	}
}
func (h Hooks) finished(g string) {
	if h.GameFinished != nil {
		h.GameFinished(g)
	}
}
func (h Hooks) action(g string) {
	if h.Action != nil {
		h.Action(g)
	}
}
func (h Hooks) reported() {
	if h.Reported != nil {
		h.Reported()
	}
}
func (h Hooks) fanOut(d time.Duration) {
	if h.FanOut != nil {
		h.FanOut(d)
	}
}

// Lobby holds every open table.
type Lobby struct {
	cfg   Config
	log   *log.Logger
	hooks Hooks
	ctx   context.Context
	wg    sync.WaitGroup
	// journal is the one writer of every table's log; nil without Config.Log.
	journal   *journal
	filter    *WordFilter // the family filter's words
	lastAlive time.Time   // when the previous run was last known to run (restore.go)

	creates *addrLimits // tables created per address
	misses  *addrLimits // unknown codes tried per address

	mu      sync.Mutex
	closing bool // Shutdown has begun: no table is added any more (shutLocked)
	tables  map[string]*Table
	infos   map[string]TableInfo // newest public state of every table, for the lobby list
	seatIDs map[string][]string  // player ids seated at each table
	hosts   map[string]string    // the host's player id at each table
	online  int
	names   map[string]heldName  // the names of the players online here, by nameKey
	lost    map[string]lostTable // tables that could not be restored, by code
	// unread are the codes of tables whose log could not be read at this start: they
	// stay in the store for the next, and no new table takes their code.
	unread map[string]bool
	// lists are the lobby list as Tables returns it, public tables only and everything
	// (for admins): one shared, immutable snapshot each, made again on the first call
	// after a table changed (nil: stale), so a thousand players in the lobby do not each
	// copy and sort every table every second.
	lists [2][]TableInfo
}

// New starts an empty lobby; its tables stop when ctx ends.
func New(ctx context.Context, cfg Config) *Lobby {
	if cfg.Logger == nil {
		cfg.Logger = log.New(io.Discard)
	}
	if cfg.Clock == nil {
		cfg.Clock = WallClock{}
	}
	if cfg.Tick <= 0 {
		cfg.Tick = tickEvery
	}
	if cfg.IdleClose <= 0 {
		cfg.IdleClose = 10 * time.Minute
	}
	if cfg.SSHCommand == "" {
		cfg.SSHCommand = "ssh HOST"
	}
	if cfg.FilterWords == nil {
		cfg.FilterWords = BuiltinFilter()
	}
	l := &Lobby{
		cfg: cfg, log: cfg.Logger, hooks: cfg.Hooks, ctx: ctx, filter: cfg.FilterWords,
		creates: newAddrLimits(CreateEvery, CreateBurst), misses: newAddrLimits(MissEvery, MissBurst),
		tables: map[string]*Table{}, infos: map[string]TableInfo{}, seatIDs: map[string][]string{}, hosts: map[string]string{},
		names: map[string]heldName{},
	}
	if cfg.Log != nil {
		l.lastAlive = lastAliveOf(cfg.Log)
		l.journal = newJournal(cfg.Log, cfg.Logger, l.now)
	}
	return l
}

func (l *Lobby) now() time.Time { return l.cfg.Clock.Now() }

// Now is the lobby's time, which every deadline in a game's view is measured against:
// a countdown on screen is the deadline minus Now.
func (l *Lobby) Now() time.Time { return l.now() }

// Shown is the wall-clock time at which the lobby's game time at passes: what a player
// is shown as a time of day (see Sped).
func (l *Lobby) Shown(at time.Time) time.Time { return Shown(l.cfg.Clock, at) }

func (l *Lobby) content(names []string) (map[string][]byte, error) {
	if l.cfg.Content == nil || len(names) == 0 {
		return map[string][]byte{}, nil
	}
	return l.cfg.Content(names)
}

// Online is how many players are connected.
func (l *Lobby) Online() int {
	l.mu.Lock()
	n := l.online
	l.mu.Unlock()
	if l.cfg.Cluster != nil {
		n += l.cfg.Cluster.Online()
	}
	return n
}

// stateOrder lists tables one can join first, finished ones last.
var stateOrder = map[string]int{StateWaiting: 0, StatePlaying: 1, StateFinished: 2}

// Tables lists the tables p may see (private ones only for an admin): waiting ones
// first, then running, then finished ones, each by code. The list is a snapshot shared
// by every caller until a table changes: read it, never modify it. The same list is the
// same slice, so a caller can tell that nothing changed (SameTables).
func (l *Lobby) Tables(p Player) []TableInfo {
	which := 0
	if p.Admin {
		which = 1
	}
	l.mu.Lock()
	if l.lists[which] == nil {
		out := make([]TableInfo, 0, len(l.infos))
		for _, info := range l.infos {
			if !info.Private || p.Admin {
				out = append(out, info)
			}
		}
		sortTables(out)
		l.lists[which] = out[:len(out):len(out)] // an append by a caller copies
	}
	out := l.lists[which]
	l.mu.Unlock()
	return l.withClusterTables(p, out)
}

// SameTables reports whether two lists from Tables are the same snapshot.
func SameTables(a, b []TableInfo) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// staleLists marks the lobby list as changed; l.mu is held.
func (l *Lobby) staleLists() { l.lists = [2][]TableInfo{} }

// SeatedAt lists the codes of tables where the player holds a seat, to offer a way back.
func (l *Lobby) SeatedAt(playerID string) []string {
	codes := l.seatedHere(playerID)
	if l.cfg.Cluster != nil {
		for _, info := range l.cfg.Cluster.Seated(playerID) {
			codes = append(codes, info.Code)
		}
		sort.Strings(codes)
	}
	return codes
}

// seatedHere is SeatedAt for this node's own tables.
func (l *Lobby) seatedHere(playerID string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var codes []string
	for code, ids := range l.seatIDs {
		for _, id := range ids {
			if id == playerID {
				codes = append(codes, code)
				break
			}
		}
	}
	sort.Strings(codes)
	return codes
}

// SeatedTables is the public state of the tables where the player holds a seat, private
// ones included, so the lobby can offer the way back (after a restart, too).
func (l *Lobby) SeatedTables(playerID string) []TableInfo {
	var out []TableInfo
	for _, code := range l.seatedHere(playerID) {
		l.mu.Lock()
		info, ok := l.infos[code]
		l.mu.Unlock()
		if ok {
			out = append(out, info)
		}
	}
	if l.cfg.Cluster != nil {
		out = append(out, l.cfg.Cluster.Seated(playerID)...)
	}
	return out
}

// ShutdownNotice is what players are told when the server stops: with a table log their
// tables come back after the restart.
func (l *Lobby) ShutdownNotice() Closed {
	if l.cfg.Cluster != nil {
		return MovedNotice
	}
	if l.journal != nil {
		return RestartNotice
	}
	return shutdownNotice
}

// publish records a table's newest public state, who sits at it and who hosts it.
func (l *Lobby) publish(info TableInfo, seatIDs []string, host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, open := l.tables[info.Code]; open {
		l.infos[info.Code] = info
		l.staleLists()
		l.seatIDs[info.Code] = seatIDs
		l.hosts[info.Code] = host
	}
}

// hosted lists the codes of the open tables playerID hosts, in order; l.mu is held.
func (l *Lobby) hosted(playerID string) []string {
	var codes []string
	for code, h := range l.hosts {
		if h == playerID {
			codes = append(codes, code)
		}
	}
	slices.Sort(codes)
	return codes
}

// hostLimit is ErrHostLimit with the way out: which tables they are, and when one that
// was left goes by itself (a started game stays open when its host leaves).
func (l *Lobby) hostLimit(codes []string) error {
	return fmt.Errorf("%w (%s; join one you left by its code). A table nobody is connected to closes by itself after %s",
		ErrHostLimit, rules.List(codes), AwayFor(l.cfg.IdleClose))
}

func (l *Lobby) forget(code string) {
	l.mu.Lock()
	delete(l.tables, code)
	delete(l.infos, code)
	delete(l.seatIDs, code)
	delete(l.hosts, code)
	l.staleLists()
	l.countTablesLocked()
	l.mu.Unlock()
}

// countTablesLocked tells the Tables hook how many tables are open; l.mu is held, so
// that counts taken by tables opening and closing side by side reach it in order (the
// last one told is the number open).
func (l *Lobby) countTablesLocked() {
	if l.hooks.Tables != nil {
		l.hooks.Tables(len(l.tables))
	}
}

// codeLetters leaves out I and O, which are easy to misread as 1 and 0.
const codeLetters = "ABCDEFGHJKLMNPQRSTUVWXYZ"

// Code lengths: a public table is listed in the lobby anyway, so its code is short to
// type; a private table's code is its only protection, so it is too long to guess.
const (
	CodeLen        = 4
	PrivateCodeLen = 8
)

// codeSeparators are what a typed code may hold between its letters. One replacer for
// every join: building one per call was 6 KB of every login.
var codeSeparators = strings.NewReplacer(" ", "", "-", "")

// NormalizeCode upper-cases a typed join code and drops spaces and dashes ("abcd-efgh");
// ok is false if it cannot be one.
func NormalizeCode(s string) (string, bool) {
	s = strings.ToUpper(codeSeparators.Replace(strings.TrimSpace(s)))
	if len(s) != CodeLen && len(s) != PrivateCodeLen {
		return s, false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return s, false
		}
	}
	return s, true
}

// Create opens a table for a game, with p seated as its host.
func (l *Lobby) Create(p Player, gameID string, opts rules.Options, private bool) (Place, error) {
	spec, ok := rules.Lookup(gameID)
	if !ok {
		return nil, fmt.Errorf("create %q: %w", gameID, ErrUnknownGame)
	}
	own := rules.Options{}
	for _, k := range []string{OptDeck, OptContent} {
		if v, ok := opts[k]; ok {
			own[k] = v
		}
	}
	opts, err := checkOptions(spec, gameOptions(opts))
	if err != nil {
		return nil, err
	}
	// The content is known before the host sits, whose name the family filter checks at
	// a family table only (set again, with the deck, by the options below).
	everything := len(spec.Decks) > 0 && own[OptContent] == ContentAll
	if !everything {
		// Refused before the table opens: a table its host cannot sit at would stay
		// open, and count against their hosted tables, until it closed by itself.
		if err := l.filtered(p.Name, "your name"); err != nil {
			return nil, fmt.Errorf("%w: choose another name to host a family table", err)
		}
	}
	size := CodeLen
	if private {
		size = PrivateCodeLen
	}
	var code string // in a cluster, claimed before the lock: claiming asks the other nodes
	if l.cfg.Cluster != nil {
		if code, err = l.claimCode(size); err != nil {
			return nil, err
		}
	}
	l.mu.Lock()
	if l.shutLocked() {
		l.mu.Unlock()
		l.unclaim(code)
		return nil, errShuttingDown
	}
	if hosted := l.hosted(p.ID); !p.Admin && len(hosted) >= MaxHostedTables {
		l.mu.Unlock()
		l.unclaim(code)
		return nil, l.hostLimit(hosted)
	}
	if !p.Admin && !l.creates.allow(p.Addr, l.now()) {
		l.mu.Unlock()
		l.unclaim(code)
		return nil, ErrCreateLimit
	}
	for code == "" {
		b := make([]byte, size)
		for i := range b {
			b[i] = codeLetters[rand.IntN(len(codeLetters))]
		}
		if _, taken := l.tables[string(b)]; !taken && !l.unread[string(b)] {
			code = string(b)
			break
		}
	}
	t := newTable(l, code, spec, opts, private, l.now())
	t.host, t.owner = p.ID, p.ID
	t.everything = everything
	l.addLocked(t)
	l.mu.Unlock()
	l.runTable(t)
	l.log.Info("table created", "table", code, "game", gameID, "private", private)
	m, err := l.sit(p, t)
	if err != nil {
		return nil, err
	}
	if len(own) == 0 {
		return m, nil
	}
	if err := Run(m, SetOptions{Options: own}); err != nil {
		_ = Run(m, Leave{})
		return nil, err
	}
	return m, nil
}

// errShuttingDown refuses a table that would open while the server shuts down.
var errShuttingDown = errors.New("the server is shutting down")

// shutLocked tells whether the lobby is shutting down; the caller holds l.mu. A table
// may be added (addLocked) only while it is not: Shutdown waits for the tables added
// before it began, and one added after would run on unwaited, past the journal's end.
func (l *Lobby) shutLocked() bool { return l.closing || l.ctx.Err() != nil }

// addLocked registers t as open; the caller holds l.mu, has checked shutLocked, and
// calls runTable once it has let go.
func (l *Lobby) addLocked(t *Table) {
	l.tables[t.code] = t
	l.infos[t.code] = t.info(nil)
	l.staleLists()
	l.seatIDs[t.code] = t.seatIDs()
	l.hosts[t.code] = t.host
	l.countTablesLocked()
	l.wg.Add(1)
}

// runTable starts the actor of a table added with addLocked.
func (l *Lobby) runTable(t *Table) {
	go func() {
		defer l.wg.Done()
		t.run(l.ctx)
	}()
}

// find looks up the table a player typed the code of. Unknown codes are counted per
// address: once an address has tried too many, it may look up no code at all for a
// while, found or not, so that trying codes cannot find a private table.
func (l *Lobby) find(p Player, code string) (*Table, error) {
	norm, ok := NormalizeCode(code)
	if !ok {
		return nil, fmt.Errorf("%q is not a table code: a code is %d letters (%d for a private table), like ABCD", playertext.Short(code, 12), CodeLen, PrivateCodeLen)
	}
	now := l.now()
	if !l.misses.ready(p.Addr, now) {
		return nil, ErrCodeLimit
	}
	l.mu.Lock()
	t := l.tables[norm]
	l.mu.Unlock()
	if t == nil && l.elsewhere(norm) {
		return nil, errElsewhere
	}
	if t == nil {
		l.misses.allow(p.Addr, now)
		if notice, ok := l.lostNotice(norm); ok {
			return nil, fmt.Errorf("%s: %w", notice, ErrTableClosed)
		}
		return nil, fmt.Errorf("table %s: %w", norm, ErrNoTable)
	}
	return t, nil
}

// Join takes a seat at a table. A player who already holds a seat there takes it back,
// and their older connection, if any, is closed.
func (l *Lobby) Join(p Player, code string) (Place, error) {
	t, err := l.find(p, code)
	if err != nil {
		return l.joinElsewhere(p, code, false, err)
	}
	return l.sit(p, t)
}

// Rejoin is Join for a connection that follows its table to another node by itself
// (after the node that ran it stopped or died): it takes the player's seat back only if
// no connection of theirs holds it now. A player who connected again meanwhile keeps
// the new connection, and the following one gets ErrReplaced.
func (l *Lobby) Rejoin(p Player, code string) (Place, error) {
	t, err := l.find(p, code)
	if err != nil {
		return nil, err // the cluster asks the node that runs the table
	}
	return l.seat(p, t, true)
}

func (l *Lobby) sit(p Player, t *Table) (Place, error) { return l.seat(p, t, false) }

func (l *Lobby) seat(p Player, t *Table, rejoin bool) (Place, error) {
	// From the store, before the actor's turn; the game they are for is read on it (a
	// switch of game changes it there).
	usable, _ := l.usable(p)
	ignored := l.remembered(p)
	var m *Member
	err := t.do(func(now time.Time) error {
		m = newMember(t, p)
		m.ignored = ignored
		m.offers = packsFor(usable, t.spec)
		m.rejoin = rejoin
		return t.seatMember(m, now, false)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Watch joins a table as a spectator, who sees only the public view.
func (l *Lobby) Watch(p Player, code string) (Place, error) {
	t, err := l.find(p, code)
	if err != nil {
		return l.joinElsewhere(p, code, true, err)
	}
	ignored := l.remembered(p)
	var m *Member
	err = t.do(func(now time.Time) error {
		if err := t.mayEnter(p); err != nil {
			return err
		}
		m = newMember(t, p)
		m.ignored = ignored
		if t.seatOf(p.ID) >= 0 {
			// A player who holds a seat here does not watch their own seat go away:
			// watching is taking it back, as Join does.
			return t.seatMember(m, now, false)
		}
		t.attach(m, now)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Shutdown closes every table (members are told the server is going down) and waits for
// their actors to stop and every finished game to reach OnFinish's end. Cancel the
// lobby's context first.
func (l *Lobby) Shutdown(ctx context.Context) error {
	l.mu.Lock()
	l.closing = true // under l.mu: every table added before is counted in l.wg now
	l.mu.Unlock()
	done := make(chan struct{})
	go func() {
		l.wg.Wait()
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		select {
		case <-done: // both were ready: the tables did stop
		default:
			err = ctx.Err()
		}
	}
	// The writer commits what the tables handed it and stops; a table still running
	// after the deadline has its last entries lost, like in a crash.
	if l.journal != nil {
		l.journal.stop()
	}
	return err
}
