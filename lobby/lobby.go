// Package lobby runs the tables: join codes, seats, host controls, spectators, chat,
// bots, timers, reconnects, and the fan-out of each seat's own view. Each table is one
// goroutine (an actor) that owns all of that table's state. The lobby never renders
// anything and never blocks on a slow member.
package lobby

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"time"

	"charm.land/log/v2"

	"parlor/rules"
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
}

// Hooks lets the server count what happens, for /metrics.
type Hooks struct {
	GameStarted  func(game string)
	GameFinished func(game string)
	Action       func(game string)
	FanOut       func(d time.Duration) // from the first unsent change to every member holding it
	Tables       func(open int)
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

	mu      sync.Mutex
	tables  map[string]*Table
	infos   map[string]TableInfo // newest public state of every table, for the lobby list
	seatIDs map[string][]string  // player ids seated at each table
	online  int
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
	return &Lobby{cfg: cfg, log: cfg.Logger, hooks: cfg.Hooks, ctx: ctx, tables: map[string]*Table{}, infos: map[string]TableInfo{}, seatIDs: map[string][]string{}}
}

func (l *Lobby) now() time.Time { return l.cfg.Clock.Now() }

// Now is the lobby's time, which every deadline in a game's view is measured against:
// a countdown on screen is the deadline minus Now.
func (l *Lobby) Now() time.Time { return l.now() }

func (l *Lobby) content(names []string) (map[string][]byte, error) {
	if l.cfg.Content == nil || len(names) == 0 {
		return map[string][]byte{}, nil
	}
	return l.cfg.Content(names)
}

// Connected counts a player as online until the returned function is called.
func (l *Lobby) Connected() (done func()) {
	l.mu.Lock()
	l.online++
	l.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			l.online--
			l.mu.Unlock()
		})
	}
}

// Online is how many players are connected.
func (l *Lobby) Online() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.online
}

// Tables lists the tables p may see (private ones only for an admin), waiting ones
// first, then by code.
func (l *Lobby) Tables(p Player) []TableInfo {
	l.mu.Lock()
	out := make([]TableInfo, 0, len(l.infos))
	for _, info := range l.infos {
		if !info.Private || p.Admin {
			out = append(out, info)
		}
	}
	l.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if (out[i].State == StatePlaying) != (out[j].State == StatePlaying) {
			return out[j].State == StatePlaying
		}
		return out[i].Code < out[j].Code
	})
	return out
}

// SeatedAt lists the codes of tables where the player holds a seat, to offer a way back.
func (l *Lobby) SeatedAt(playerID string) []string {
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

// publish records a table's newest public state and who sits at it.
func (l *Lobby) publish(info TableInfo, seatIDs []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, open := l.tables[info.Code]; open {
		l.infos[info.Code] = info
		l.seatIDs[info.Code] = seatIDs
	}
}

func (l *Lobby) forget(code string) {
	l.mu.Lock()
	delete(l.tables, code)
	delete(l.infos, code)
	delete(l.seatIDs, code)
	n := len(l.tables)
	l.mu.Unlock()
	if l.hooks.Tables != nil {
		l.hooks.Tables(n)
	}
}

// codeLetters leaves out I and O, which are easy to misread as 1 and 0.
const codeLetters = "ABCDEFGHJKLMNPQRSTUVWXYZ"

// NormalizeCode upper-cases and trims a typed join code; ok is false if it cannot be one.
func NormalizeCode(s string) (string, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if len(s) != 4 {
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
func (l *Lobby) Create(p Player, gameID string, opts rules.Options, private bool) (*Member, error) {
	spec, ok := rules.Lookup(gameID)
	if !ok {
		return nil, fmt.Errorf("create %q: %w", gameID, ErrUnknownGame)
	}
	opts, err := spec.CheckOptions(opts)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	if l.ctx.Err() != nil {
		l.mu.Unlock()
		return nil, fmt.Errorf("the server is shutting down")
	}
	var code string
	for {
		b := make([]byte, 4)
		for i := range b {
			b[i] = codeLetters[rand.IntN(len(codeLetters))]
		}
		if _, taken := l.tables[string(b)]; !taken {
			code = string(b)
			break
		}
	}
	t := newTable(l, code, spec, opts, private, l.now())
	t.host = p.ID
	l.tables[code] = t
	l.infos[code] = t.info()
	n := len(l.tables)
	l.wg.Add(1)
	l.mu.Unlock()
	if l.hooks.Tables != nil {
		l.hooks.Tables(n)
	}
	go func() {
		defer l.wg.Done()
		t.run(l.ctx)
	}()
	l.log.Info("table created", "table", code, "game", gameID, "private", private)
	return l.sit(p, code)
}

func (l *Lobby) table(code string) (*Table, error) {
	norm, ok := NormalizeCode(code)
	if !ok {
		return nil, fmt.Errorf("%q is not a table code: codes are four letters, like ABCD", CleanText(code, 12))
	}
	l.mu.Lock()
	t := l.tables[norm]
	l.mu.Unlock()
	if t == nil {
		return nil, fmt.Errorf("table %s: %w", norm, ErrNoTable)
	}
	return t, nil
}

// Join takes a seat at a table. A player who already holds a seat there takes it back,
// and their older connection, if any, is closed.
func (l *Lobby) Join(p Player, code string) (*Member, error) {
	return l.sit(p, code)
}

func (l *Lobby) sit(p Player, code string) (*Member, error) {
	t, err := l.table(code)
	if err != nil {
		return nil, err
	}
	var m *Member
	err = t.do(func(now time.Time) error {
		m = newMember(t, p, now)
		if i := t.seatOf(p.ID); i >= 0 && !p.Guest {
			s := t.seats[i]
			if s.member != nil {
				t.detach(s.member, "You connected again from somewhere else, so this session was closed.")
				t.system(now, "%s reconnected.", p.Name)
			} else {
				t.system(now, "%s is back.", p.Name)
			}
			s.member, m.seat = m, i
			t.attach(m, now)
			t.passHost(now)
			return nil
		}
		if t.state == StatePlaying {
			return fmt.Errorf("table %s: %w", t.code, ErrStarted)
		}
		if _, max := t.spec.PlayerRange(t.opts); len(t.seats) >= max {
			return fmt.Errorf("table %s: %w (%d of %d seats taken): you can watch it instead", t.code, ErrFull, len(t.seats), max)
		}
		t.seats = append(t.seats, &seat{player: p, member: m})
		m.seat = len(t.seats) - 1
		t.attach(m, now)
		t.system(now, "%s sits down.", p.Name)
		t.passHost(now)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Watch joins a table as a spectator, who sees only the public view.
func (l *Lobby) Watch(p Player, code string) (*Member, error) {
	t, err := l.table(code)
	if err != nil {
		return nil, err
	}
	var m *Member
	err = t.do(func(now time.Time) error {
		m = newMember(t, p, now)
		t.attach(m, now)
		return nil
	})
	return m, err
}

// Shutdown closes every table (members are told the server is going down) and waits for
// their actors to stop and every finished game to reach OnFinish's end. Cancel the
// lobby's context first.
func (l *Lobby) Shutdown(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		l.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
