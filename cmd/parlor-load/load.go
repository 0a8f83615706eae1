package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"parlor/internal/testkit/sshterm"
	"parlor/server"
)

const (
	termW, termH = 80, 24
	dialTimeout  = 20 * time.Second
	// lateAfter is when an update that has not reached every screen stops being waited
	// for: it is counted as never shown (late beyond measure), and the table acts again.
	lateAfter = 10 * time.Second
	// stepWait bounds each setup step (a screen to appear) of one player.
	stepWait = 60 * time.Second
)

// player is one terminal client at a table.
type player struct {
	name string
	key  sshterm.Key
	addr string // the server (node) this player connects to
	// web is the browser door this player connects to instead of addr (-web); "" for
	// an SSH player.
	web string
	// browser and link are a web host's browser key and the code that links it to
	// their SSH key, which holds their seat (web.go).
	browser browserKey
	link    string
	term    *sshterm.Terminal
	// screen is the player's terminal, made before the logins are counted: a
	// player's terminal window is open before they connect.
	screen *sshterm.Screen

	seen     int64 // the id of the last expectation this screen has met
	watching bool  // a spectator
	// tokenRows holds the row each mover's token was last found on this screen: the
	// watcher reads that row alone first (watch's goroutine only).
	tokenRows map[string]int
}

// tokenOf finds the token of t's player mover on the player's screen, on the row it
// was last seen on or else anywhere (and then notes the rows of every player's token
// it finds). Reading the whole screen at every change of every watcher while an action
// was due was a quarter of the generator's CPU at 5,000 players; a token's row stays
// put, so one row of 80 cells does.
func (p *player) tokenOf(t *table, mover string) (int, bool) {
	if y, ok := p.tokenRows[mover]; ok {
		if x, ok := tokenX(mover, p.term.Row(y)); ok {
			return x, true
		}
	}
	if p.tokenRows == nil {
		p.tokenRows = map[string]int{}
	}
	x, found := 0, false
	for y, line := range strings.Split(p.term.Screen(), "\n") {
		for _, other := range t.players {
			if ox, ok := tokenX(other.name, line); ok {
				p.tokenRows[other.name] = y
				if other.name == mover {
					x, found = ox, true
				}
			}
		}
	}
	return x, found
}

// table is one table's players; seat 0 is the host.
type table struct {
	code     string
	players  []*player
	watchers []*player // spectators
	expect   atomic.Pointer[expectation]
	quit     chan struct{}
	// ownRow is the row of each mover's own token on its screen (act's; watch reads
	// tokenRows), kept from the warm-up to the busy phase: a mover that acted in the
	// warm-up reads no whole screen in it (10,000 at 10,000 players, a second of the
	// generator's CPU on the cores the server shares).
	ownRow map[*player]int
}

// expectation is what every screen at a table must show after an action.
type expectation struct {
	id    int64
	shows func(watcher *player) bool // on the watcher's watch goroutine
	at    time.Time
	seen  chan time.Duration // one per screen that showed it
}

// workload is one run against one server.
type workload struct {
	cfg    Config
	addrs  []string // the servers: one, or every node of a cluster
	webs   []string // their browser doors, for -web
	log    io.Writer
	tables []*table
	ids    atomic.Int64
	conns  atomic.Uint32 // for source addresses

	mu     sync.Mutex
	logins []time.Duration // connect → first screen, per player
	remote int             // screens on another node than their table's owner
}

// seatAddr is the server of the screen at position k (players, then spectators) of
// table i: round robin over the nodes, starting at the node of the table's host, which
// creates the table and so owns it. With 7 seats over 3 nodes, 4 of a table's 7 screens
// are on other nodes than the owner, so nearly every action's slowest screen is remote.
func (w *workload) seatAddr(i, k int) string {
	return w.addrs[(i+k)%len(w.addrs)]
}

// source is the loopback address the next client dials from: 127.3.x.y, five clients
// each, so no address meets the server's per-address limits (8 logging in at once, 20
// new connections in a burst), as real players from their own addresses would not.
func (w *workload) source() net.IP {
	n := w.conns.Add(1) / 5
	return net.IPv4(127, 3, byte(n/250), byte(n%250+1))
}

// waitScreen waits until the terminal's screen satisfies ok, and returns it.
func waitScreen(ctx context.Context, t *sshterm.Terminal, what string, ok func(string) bool) (string, error) {
	deadline := time.NewTimer(stepWait)
	defer deadline.Stop()
	for {
		if scr := t.Screen(); ok(scr) {
			return scr, nil
		}
		select {
		case <-t.Changed():
		case <-time.After(50 * time.Millisecond): // Changed has one reader; look now and then too
		case <-t.Done():
			return "", fmt.Errorf("the session ended while waiting for %s; the screen shows:\n%s", what, t.Screen())
		case <-deadline.C:
			return "", fmt.Errorf("waited %s for %s; the screen shows:\n%s", stepWait, what, t.Screen())
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

func contains(texts ...string) func(string) bool {
	return func(s string) bool {
		for _, t := range texts {
			if !strings.Contains(s, t) {
				return false
			}
		}
		return true
	}
}

// createTables opens one table per seven players; on parlor a host creates each over
// the JSON API (so options need no key strokes) and later takes the seat back from a
// terminal with the same key.
func (w *workload) createTables(ctx context.Context) error {
	n := w.cfg.Players / w.cfg.Seats
	w.tables = make([]*table, n)
	return parallel(ctx, n, w.cfg.Parallel, func(i int) error {
		t := &table{quit: make(chan struct{})}
		for s := 0; s < w.cfg.Seats; s++ {
			key, err := sshterm.NewKey()
			if err != nil {
				return err
			}
			p := &player{name: fmt.Sprintf("t%ds%d", i, s), key: key, addr: w.seatAddr(i, s),
				screen: sshterm.NewScreen(termW, termH)}
			if webPlayer(i*w.cfg.Seats+s, w.cfg.Web) {
				p.web = w.webs[(i+s)%len(w.webs)] // seatAddr's node
				if s == 0 {
					if p.browser, err = newBrowserKey(); err != nil {
						return err
					}
				}
			}
			t.players = append(t.players, p)
		}
		for s := 0; s < w.cfg.Watchers; s++ {
			key, err := sshterm.NewKey()
			if err != nil {
				return err
			}
			t.watchers = append(t.watchers, &player{name: fmt.Sprintf("t%dw%d", i, s), key: key, addr: w.seatAddr(i, w.cfg.Seats+s),
				watching: true, screen: sshterm.NewScreen(termW, termH)})
		}
		remote := 0
		for _, p := range t.screens() {
			if p.addr != t.players[0].addr {
				remote++
			}
		}
		w.mu.Lock()
		w.remote += remote
		w.mu.Unlock()
		w.tables[i] = t
		if w.cfg.Server == kindBare {
			t.code = fmt.Sprintf("B%03d", i)
			return nil
		}
		code, err := w.createOverAPI(t.players[0])
		t.code = code
		return err
	})
}

// command dials as p and opens a session for a command without a terminal (api,
// link); closing the client ends both.
func (w *workload) command(p *player) (*gossh.Client, *gossh.Session, error) {
	c, err := sshterm.Dial(p.addr, p.name, p.key, w.source(), dialTimeout)
	if err != nil {
		return nil, nil, err
	}
	sess, err := c.NewSession()
	if err != nil {
		_ = c.Close()
		return nil, nil, err
	}
	return c, sess, nil
}

func (w *workload) createOverAPI(host *player) (string, error) {
	c, sess, err := w.command(host)
	if err != nil {
		return "", err
	}
	defer c.Close()
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	if err := sess.Start("api"); err != nil {
		return "", err
	}
	req := map[string]any{"op": "create", "game": w.cfg.Game}
	if w.cfg.Game == "quadrant" {
		// Tokens move only in placement: with no time limits it lasts the whole run.
		req["options"] = map[string]string{"placement_time": "off", "voting_time": "off"}
	}
	line, _ := json.Marshal(req)
	if _, err := in.Write(append(line, '\n')); err != nil {
		return "", err
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m struct{ Type, Code, Error string }
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch m.Type {
		case "joined":
			if host.web != "" { // their browser is to take the seat back: link it
				host.link, err = w.linkCode(host)
			}
			return m.Code, err
		case "error":
			return "", fmt.Errorf("create %s: %s", w.cfg.Game, m.Error)
		}
	}
	return "", fmt.Errorf("create %s: the API closed without a table", w.cfg.Game)
}

// login connects every player with "join CODE", recording how long each took from the
// dial to its first screen, and brings each to its seat. Hosts come first: the seat
// they created over the API keeps the host role only while no one else has sat down.
func (w *workload) login(ctx context.Context) (time.Duration, error) {
	var hosts, others []seated
	for _, t := range w.tables {
		hosts = append(hosts, seated{t, t.players[0]})
		for _, p := range t.screens()[1:] {
			others = append(others, seated{t, p})
		}
	}
	rand.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
	start := time.Now()
	for _, group := range [][]seated{hosts, others} {
		var err error
		if w.cfg.LoginRate > 0 {
			err = paced(ctx, len(group), w.cfg.LoginRate, loginsInFlight(w.cfg), func(i int, due time.Time) error { return w.sitDown(ctx, group[i], due) })
		} else {
			err = parallel(ctx, len(group), loginsInFlight(w.cfg), func(i int) error { return w.sitDown(ctx, group[i], time.Now()) })
		}
		if err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

// With -login-rate, logins start on a schedule (an open loop): a server that falls
// behind meets more logins at once, as it would from real players, and each login's
// first screen is timed from when it was due, so time spent waiting to start counts
// (no coordinated omission). openLoopInFlight bounds the logins in flight all the same:
// as many as a parlor server lets log in at once (--max-unauthenticated), since it
// refuses more at the door, and a refused login ended the run (it was 1,024, and a run
// on a slow hour of a 2-core box stopped there). maxLoginRate bounds the rate.
var openLoopInFlight = server.Defaults().MaxUnauthenticated

const maxLoginRate = 5000

// loginsInFlight is how many logins c keeps in flight at once: -parallel, and in an
// open loop at least openLoopInFlight.
func loginsInFlight(c Config) int {
	if c.LoginRate > 0 {
		return max(c.Parallel, openLoopInFlight)
	}
	return c.Parallel
}

// paced runs f(i, due) for i in [0, n), the i-th due i/rate seconds after the start,
// with at most limit running at once; it returns the first error.
func paced(ctx context.Context, n int, rate float64, limit int, f func(i int, due time.Time) error) error {
	start := time.Now()
	return parallel(ctx, n, limit, func(i int) error {
		// parallel starts them in order; each waits for its own time.
		due := start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
		select {
		case <-time.After(time.Until(due)):
		case <-ctx.Done():
			return ctx.Err()
		}
		return f(i, due)
	})
}

// seated is a player and their table.
type seated struct {
	t *table
	p *player
}

// sitDown logs one player in, timing the first screen from at.
func (w *workload) sitDown(ctx context.Context, s seated, at time.Time) error {
	t, p := s.t, s.p
	if err := w.open(ctx, t, p); err != nil {
		return err
	}
	first := "table " + t.code
	if w.cfg.Server == kindParlor {
		first = "Welcome to parlor" // a first visit picks a name
	}
	if _, err := waitScreen(ctx, p.term, "the first screen", contains(first)); err != nil {
		return fmt.Errorf("%s: %w", p.name, err)
	}
	w.mu.Lock()
	w.logins = append(w.logins, time.Since(at))
	w.mu.Unlock()
	if w.cfg.Server == kindParlor {
		// Take the suggested name, the SSH user name; a browser has none to suggest.
		keys := []string{"enter"}
		if p.web != "" {
			keys = []string{"ctrl+u", p.name, "enter"}
		}
		for _, k := range keys {
			if err := p.term.Press(k); err != nil {
				return err
			}
		}
		here := "← you"
		if p.watching {
			here = "watching"
		}
		_, err := waitScreen(ctx, p.term, "the table", contains("table "+t.code, here))
		return err
	}
	return nil
}

// open connects p's terminal to t: over SSH with "join CODE" (or "watch CODE"), or
// through the browser door at /t/CODE.
func (w *workload) open(ctx context.Context, t *table, p *player) error {
	if p.web != "" {
		c, err := dialWeb(ctx, p.web, w.source(), termW, termH, p.hello(t))
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		p.term = openWeb(c, p.screen)
		return nil
	}
	c, err := sshterm.Dial(p.addr, p.name, p.key, w.source(), dialTimeout)
	if err != nil {
		return err
	}
	command := "join " + t.code
	if p.watching {
		command = "watch " + t.code
	}
	if p.term, err = sshterm.OpenOn(c, command, termW, termH, p.screen, nil); err != nil {
		_ = c.Close()
		return err
	}
	return nil
}

var seatsRE = regexp.MustCompile(`Seats (\d+)/`)

// start has each host start its game once every seat is taken, and waits until every
// screen shows the game.
func (w *workload) start(ctx context.Context) error {
	if w.cfg.Server == kindBare {
		return nil
	}
	full := fmt.Sprintf("Seats %d/", w.cfg.Seats)
	return parallel(ctx, len(w.tables), w.cfg.Parallel, func(i int) error {
		t := w.tables[i]
		host := t.players[0]
		if _, err := waitScreen(ctx, host.term, "every seat taken", contains(full)); err != nil {
			return err
		}
		if err := host.term.Press("s"); err != nil {
			return err
		}
		for _, p := range t.screens() {
			if _, err := waitScreen(ctx, p.term, "the game", gameShown(t.code)); err != nil {
				return fmt.Errorf("%s at %s: %w", p.name, t.code, err)
			}
		}
		return nil
	})
}

// tokenX finds name's token in a token panel line, "A name  +3, -1 ", and gives its
// x. Read by hand, not by a regular expression: it runs on every screen change of
// every player while an action is due, on the cores the server being measured uses,
// and the expression was a tenth of the generator's CPU.
func tokenX(name, screen string) (int, bool) {
	for from := 0; ; {
		i := strings.Index(screen[from:], " "+name+" ")
		if i < 0 {
			return 0, false
		}
		i += from
		from = i + 1
		if i == 0 || screen[i-1] < 'A' || screen[i-1] > 'Z' {
			continue // not after a token's letter
		}
		rest := strings.TrimLeft(screen[i+len(name)+2:], " ")
		x, rest, ok := signed(rest)
		if !ok || !strings.HasPrefix(rest, ",") {
			continue
		}
		if _, rest, ok = signed(strings.TrimLeft(rest[1:], " ")); ok && strings.HasPrefix(rest, " ") {
			return x, true
		}
	}
}

// signed reads a number with its sign, "+3" or "-12", from the start of s.
func signed(s string) (n int, rest string, ok bool) {
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return 0, s, false
	}
	end := 1
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(s[:end])
	return n, s[end:], err == nil
}

// screens is every terminal at the table: the players, then the spectators.
func (t *table) screens() []*player {
	return append(t.players[:len(t.players):len(t.players)], t.watchers...)
}

// movesTokens tells whether an action is a token move (Quadrant, bare) or a chat line.
func (w *workload) movesTokens() bool {
	return w.cfg.Server == kindBare || w.cfg.Game == "quadrant"
}

// watch reports, for each screen of a table, when it first meets the table's current
// expectation. One goroutine per player: it is the only reader of Changed.
func (w *workload) watch(t *table, p *player, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case <-p.term.Changed():
		case <-t.quit:
			return
		case <-p.term.Done():
			return
		}
		e := t.expect.Load()
		if e == nil || e.id == p.seen || !e.shows(p) {
			continue
		}
		p.seen = e.id
		e.seen <- time.Since(e.at)
	}
}

// ownTokenX is the column of p's own token, read from the row it was on last time
// (rows[p]) and looked for on the whole screen only when it is not there: reading the
// whole 80×24 screen before every action was a tenth of the generator's CPU at 10,000
// players, on the cores the server shares.
func ownTokenX(p *player, rows map[*player]int) (int, bool) {
	if y, ok := rows[p]; ok {
		if x, ok := tokenX(p.name, p.term.Row(y)); ok {
			return x, true
		}
	}
	for y, line := range strings.Split(p.term.Screen(), "\n") {
		if x, ok := tokenX(p.name, line); ok {
			rows[p] = y
			return x, true
		}
	}
	return 0, false
}

// actAll has every table act until until, each on its own goroutine, and waits for
// them: the last actions' screens too.
func (w *workload) actAll(ctx context.Context, until time.Time, s *samples) {
	var tables sync.WaitGroup
	for _, t := range w.tables {
		tables.Add(1)
		go func() {
			defer tables.Done()
			w.act(ctx, t, until, s)
		}()
	}
	tables.Wait()
}

// act is one table's loop: once per Every, the next player acts, and the time until
// the last screen showed it is one sample (never shown within lateAfter: late).
func (w *workload) act(ctx context.Context, t *table, until time.Time, s *samples) {
	// Tables start at random points of the interval, as real tables would.
	next := time.Now().Add(rand.N(w.cfg.Every))
	mover := 0
	if t.ownRow == nil {
		t.ownRow = map[*player]int{}
	}
	for {
		select {
		case <-time.After(time.Until(next)):
		case <-ctx.Done():
			return
		}
		if time.Now().After(until) {
			return
		}
		next = next.Add(w.cfg.Every)
		p := t.players[mover]
		mover = (mover + 1) % len(t.players)
		e := &expectation{id: w.ids.Add(1), seen: make(chan time.Duration, len(t.screens()))}
		var keys []string
		if w.movesTokens() {
			x, ok := ownTokenX(p, t.ownRow)
			if !ok {
				s.fail(fmt.Errorf("%s: no token of %s on its screen:\n%s", t.code, p.name, p.term.Screen()))
				return
			}
			key, want := "right", x+1
			if x > 0 {
				key, want = "left", x-1
			}
			keys = []string{key}
			e.shows = func(w *player) bool { nx, ok := w.tokenOf(t, p.name); return ok && nx == want }
		} else {
			mark := fmt.Sprintf("m%d!", e.id)
			keys = []string{"/", mark, "enter"}
			e.shows = func(w *player) bool { return strings.Contains(w.term.Screen(), mark) }
		}
		e.at = time.Now()
		t.expect.Store(e)
		for _, k := range keys {
			if err := p.term.Press(k); err != nil {
				s.fail(err)
				return
			}
		}
		var slowest time.Duration
		late := time.After(lateAfter)
		for range t.screens() {
			select {
			case d := <-e.seen:
				slowest = max(slowest, d)
			case <-late:
				slowest = Never
			case <-ctx.Done():
				return
			}
			if slowest == Never {
				break
			}
		}
		s.add(e.at, slowest)
	}
}

// samples collects action latencies from every table, and when each action started.
type samples struct {
	mu  sync.Mutex
	all []time.Duration
	at  []time.Time
	err error
}

func (s *samples) add(at time.Time, d time.Duration) {
	s.mu.Lock()
	s.all = append(s.all, d)
	s.at = append(s.at, at)
	s.mu.Unlock()
}

// writeTo writes every action, in the order they started, as a line of tab-separated
// seconds since start and latency in milliseconds ("never": not shown within lateAfter):
// to lay beside the server's collections (GODEBUG=gctrace=1) or a runtime trace, and see
// which moments the slow actions fall in. The heading says how long the server had run
// at start (uptime): gctrace counts its seconds from the server's start.
func (s *samples) writeTo(path string, start time.Time, uptime time.Duration) error {
	order := make([]int, len(s.all))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return s.at[a].Compare(s.at[b]) })
	var b strings.Builder
	fmt.Fprintf(&b, "# the busy phase began %.3f s after the server started (GODEBUG=gctrace=1 times count from there)\n", uptime.Seconds())
	fmt.Fprintf(&b, "# seconds since the busy phase began\taction → all screens, ms\n")
	for _, i := range order {
		lat := "never"
		if s.all[i] != Never {
			lat = strconv.FormatFloat(float64(s.all[i])/float64(time.Millisecond), 'f', 1, 64)
		}
		fmt.Fprintf(&b, "%.3f\t%s\n", s.at[i].Sub(start).Seconds(), lat)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func (s *samples) fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
}

// parallel runs f(0..n-1), at most limit at once; the first error stops new work.
func parallel(ctx context.Context, n, limit int, f func(i int) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, limit)
	for i := 0; i < n; i++ {
		mu.Lock()
		stop := first != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := f(i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return first
}

// close hangs up every player.
func (w *workload) close() {
	for _, t := range w.tables {
		if t == nil {
			continue
		}
		for _, p := range t.players {
			if p.term != nil {
				p.term.Close()
			}
		}
	}
}
