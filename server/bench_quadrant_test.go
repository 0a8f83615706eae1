package server_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"parlor/internal/testkit/e2e"
	"parlor/server"
)

// BenchmarkQuadrantMoveToScreen measures how long a Quadrant token move takes to reach
// the other players at the table over SSH: from the mover's key press (or JSON API act)
// to the moved token on every other player's screen, read through x/vt for terminal
// players and as the next view line for JSON API players. Each table's host is a JSON API
// player; terminal players join with "join CODE". A mover moves one step, waits until
// every other player saw it, pauses like a person holding an arrow key, and moves back.
//
//   - 7players: one full table: the API host, a terminal mover and five terminal watchers.
//   - 100tables: 100 full tables moving at once (700 players): ten tables have a
//     terminal mover and a terminal watcher, the other seats are JSON API players.
//
// It reports the p50 and p99 latency of terminal screens (tui-p50-ms, tui-p99-ms) and
// of API views (api-p50-ms, api-p99-ms). Run it with
//
//	go test -run '^$' -bench Quadrant -benchtime 1x ./server/
func BenchmarkQuadrantMoveToScreen(b *testing.B) {
	b.Run("7players", func(b *testing.B) {
		benchQuadrant(b, quadrantLoad{tables: 1, tuis: func(int) int { return 6 }, moves: 40})
	})
	b.Run("100tables", func(b *testing.B) {
		benchQuadrant(b, quadrantLoad{tables: 100, tuis: func(i int) int {
			if i%10 == 0 {
				return 2
			}
			return 0
		}, moves: 40})
	})
}

// quadrantLoad is one benchmark's shape.
type quadrantLoad struct {
	tables int
	tuis   func(table int) int // terminal players at a table (the first is the mover)
	moves  int                 // moves per table per benchmark iteration
}

const (
	quadrantSeats = 7
	movePause     = 100 * time.Millisecond // a person holding an arrow key moves about ten times a second
)

// samples collects latencies from many goroutines.
type samples struct {
	mu       sync.Mutex
	tui, api []time.Duration
}

func (s *samples) add(tui bool, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tui {
		s.tui = append(s.tui, d)
	} else {
		s.api = append(s.api, d)
	}
}

func benchQuadrant(b *testing.B, load quadrantLoad) {
	s := e2e.Start(b, func(c *server.Config) { c.MaxSessions = 0 })
	s.FromManyAddresses()

	tables := make([]*benchTable, load.tables)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8) // set tables up a few at a time
	for i := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			tables[i] = setUpBenchTable(b, s, i, load.tuis(i))
		}()
	}
	wg.Wait()
	if b.Failed() {
		return
	}

	var got samples
	b.ResetTimer()
	for range b.N {
		var run sync.WaitGroup
		for _, t := range tables {
			run.Add(1)
			go func() {
				defer run.Done()
				t.play(b, load.moves, &got)
			}()
		}
		run.Wait()
	}
	b.StopTimer()
	for _, t := range tables {
		t.stop()
	}
	report := func(name string, ds []time.Duration) {
		if len(ds) == 0 {
			return
		}
		slices.Sort(ds)
		at := func(q float64) float64 {
			return float64(ds[int(q*float64(len(ds)-1))]) / float64(time.Millisecond)
		}
		b.ReportMetric(at(0.50), name+"-p50-ms")
		b.ReportMetric(at(0.99), name+"-p99-ms")
	}
	report("tui", got.tui)
	report("api", got.api)
	b.ReportMetric(float64(len(got.tui)+len(got.api)), "samples")
}

// benchTable is one table in placement: who moves and who watches.
type benchTable struct {
	code      string
	mover     string // the moving player's name: names are one player's at a time, so each table has its own
	moverSeat int
	tuiMover  *e2e.Player // nil: the API host moves
	host      *e2e.API
	x0, y0    int // the mover's token before the benchmark
	x         int // the mover's token now

	watchers []*benchWatcher
}

// benchWatcher is one other player at the table, telling when they see each move.
type benchWatcher struct {
	tui  *e2e.Player
	api  *e2e.API
	want chan benchMove     // the move to look for
	seen chan time.Duration // how long it took
	quit chan struct{}
}

type benchMove struct {
	x  int
	at time.Time
}

func setUpBenchTable(b *testing.B, s *e2e.Server, n, tuis int) *benchTable {
	b.Helper()
	t := &benchTable{mover: fmt.Sprintf("mover%d", n)}
	hostName := fmt.Sprintf("h%d", n)
	if tuis == 0 {
		hostName = t.mover
	}
	t.host = s.API(b, hostName, e2e.NewKey(b))
	t.host.Send(map[string]any{"op": "hello", "name": hostName})
	t.host.Expect("hello")
	t.host.Send(map[string]any{"op": "create", "game": "quadrant",
		"options": map[string]string{"placement_time": "off", "voting_time": "off"}})
	t.code = fmt.Sprint(t.host.Expect("joined")["code"])

	var apis []*e2e.API
	var terms []*e2e.Player
	for seat := 1; seat < quadrantSeats; seat++ {
		name := fmt.Sprintf("t%dp%d", n, seat)
		if seat == 1 && tuis > 0 {
			name = t.mover
		}
		if seat <= tuis {
			p := s.Connect(b, name, e2e.NewKey(b), "join "+t.code, 80, 24)
			p.WaitFor("Welcome to parlor")
			p.Press("enter")
			p.WaitFor("table " + t.code)
			terms = append(terms, p)
			continue
		}
		a := s.API(b, name, e2e.NewKey(b))
		a.Send(map[string]any{"op": "hello", "name": name})
		a.Expect("hello")
		a.Send(map[string]any{"op": "join", "code": t.code})
		a.Expect("joined")
		apis = append(apis, a)
	}
	t.host.Send(map[string]any{"op": "start"})

	// Where the mover's token starts, from the host's first view.
	if tuis > 0 {
		t.moverSeat, t.tuiMover = 1, terms[0]
		terms = terms[1:]
	}
	view := t.host.Until("the placement view", func(m map[string]any) bool {
		if m["type"] == "error" {
			b.Errorf("table %s: %v", t.code, m["error"])
		}
		return m["type"] == "view" && viewPhase(m) == "placement"
	})
	x, y, ok := tokenInView(view, t.moverSeat)
	if !ok {
		b.Fatalf("table %s: no token for seat %d in %v", t.code, t.moverSeat, view)
	}
	t.x0, t.y0, t.x = x, y, x
	if t.tuiMover != nil {
		t.tuiMover.WaitFor("◀ yours")
	}

	for _, p := range terms {
		p.WaitFor("◀ yours")
		t.watchers = append(t.watchers, t.watch(p, nil))
	}
	if t.tuiMover != nil {
		apis = append([]*e2e.API{t.host}, apis...)
	}
	for _, a := range apis {
		t.watchers = append(t.watchers, t.watch(nil, a))
	}
	return t
}

// watch starts the goroutine that reports when a watcher sees the mover's token move.
func (t *benchTable) watch(p *e2e.Player, a *e2e.API) *benchWatcher {
	w := &benchWatcher{tui: p, api: a, want: make(chan benchMove, 1), seen: make(chan time.Duration, 1), quit: make(chan struct{})}
	go func() {
		var want *benchMove
		for {
			var x int
			var ok bool
			if p != nil {
				select {
				case m := <-w.want:
					want = &m
				case <-p.Changed():
				case <-w.quit:
					return
				}
				x, _, ok = findToken(p.Screen(), t.mover)
			} else {
				select {
				case m := <-w.want:
					want = &m
				case <-w.quit:
					return
				default:
				}
				line, err := a.Next()
				if err != nil {
					if err == e2e.ErrClosed {
						return
					}
					continue // no change within e2e.Wait: look for new orders again
				}
				if line["type"] != "view" {
					continue
				}
				x, _, ok = tokenInView(line, t.moverSeat)
			}
			// Orders may have come while reading: take the newest before comparing.
			select {
			case m := <-w.want:
				want = &m
			default:
			}
			if want != nil && ok && x == want.x {
				w.seen <- time.Since(want.at)
				want = nil
			}
		}
	}()
	return w
}

// play moves the mover's token moves times, one step right or left, and records how
// long each move took to reach every watcher.
func (t *benchTable) play(b *testing.B, moves int, got *samples) {
	for range moves {
		dx, key := 1, "right"
		if t.x > t.x0 || t.x >= 20 {
			dx, key = -1, "left"
		}
		t.x += dx
		at := time.Now()
		for _, w := range t.watchers {
			w.want <- benchMove{x: t.x, at: at}
		}
		if t.tuiMover != nil {
			t.tuiMover.Press(key)
		} else {
			t.host.Send(map[string]any{"op": "act", "action": map[string]any{"type": "move", "x": t.x, "y": t.y0}})
		}
		for _, w := range t.watchers {
			select {
			case d := <-w.seen:
				got.add(w.tui != nil, d)
			case <-time.After(e2e.Wait):
				b.Errorf("table %s: a watcher did not see the token at x=%d within %s", t.code, t.x, e2e.Wait)
				return
			}
		}
		time.Sleep(movePause)
	}
}

func (t *benchTable) stop() {
	for _, w := range t.watchers {
		close(w.quit)
	}
}

func viewPhase(m map[string]any) string {
	v, _ := m["view"].(map[string]any)
	p, _ := v["phase"].(string)
	return p
}

// tokenInView reads seat's token from an API view line.
func tokenInView(m map[string]any, seat int) (x, y int, ok bool) {
	v, _ := m["view"].(map[string]any)
	toks, _ := v["tokens"].([]any)
	for _, tk := range toks {
		tm, _ := tk.(map[string]any)
		if s, _ := tm["seat"].(float64); int(s) == seat {
			xf, _ := tm["x"].(float64)
			yf, _ := tm["y"].(float64)
			return int(xf), int(yf), true
		}
	}
	return 0, 0, false
}
