package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"parlor/internal/testkit/sshterm"
)

// StormReport is what -storm measured: how soon the players a crash cut off were back at
// the game screens of their seats.
type StormReport struct {
	Kind string `json:"kind"` // stormRestart or stormNode
	// Start is how long the restarted server took from its process's start until it
	// listened, restoring every table from its store on the way (restart only).
	Start time.Duration `json:"start_ns,omitempty"`
	// Tables is how many tables the servers had open once the storm was over (for a
	// restart, as soon as the server listened: the ones it restored).
	Tables int `json:"tables"`
	// Redialled counts the players and spectators whose connection the crash ended.
	Redialled int `json:"redialled"`
	// Back is from the moment they could come back (the restarted server listening, or
	// the node's death) until the last of them saw their seat's game screen again.
	Back time.Duration `json:"back_ns"`
	// LoginsPerSecond is Redialled over Back.
	LoginsPerSecond float64 `json:"logins_per_second"`
	// FirstScreen is each player's last, successful attempt: dial → the game screen.
	FirstScreen Percentiles `json:"first_screen"`
	// Returned is each player's time back, from the same moment as Back.
	Returned Percentiles `json:"returned"`
	// InFlight is the most logins the generator kept in flight at once: everyone
	// redials at once, so as many as the server admits at once by default
	// (--max-unauthenticated), or -parallel if more.
	InFlight int `json:"in_flight"`
	// Failed counts attempts that did not reach the game screen (refused at the door, a
	// session ended, a table not there yet); each was tried again, as people do.
	Failed int `json:"failed_attempts"`
	// Failures are the first few failed attempts' errors, for the report.
	Failures []string `json:"failures,omitempty"`
	// ServerCPU and ClientCPU are the cores the servers (their sum) and this generator
	// kept busy during the storm: on one box, the clients' work is the server's loss.
	ServerCPU float64 `json:"server_cores"`
	ClientCPU float64 `json:"client_cores"`
}

// maxFailuresKept is how many failed attempts' errors a report keeps.
const maxFailuresKept = 5

// maxRedials bounds one player's attempts to come back; beyond it the run fails.
const maxRedials = 20

// storm crashes a server (srv.crash) and brings every player it cut off back to their
// seat, each redialling with the same key and "join CODE" (or "watch CODE") as soon as
// they can, and retrying after a failed attempt with a short random pause, as a person
// or a script does after a drop. In flight at once: as many logins as the server admits
// at once by default (stormInFlight), since everyone redials at once. The players left connected (another node's) must
// see their game again too; one whose connection ended after all is redialled as well.
func (w *workload) storm(ctx context.Context, srv *servers) (*StormReport, error) {
	rep := &StormReport{Kind: w.cfg.Storm}
	restart := w.cfg.Storm == stormRestart
	killed := time.Now()
	dead, err := srv.crash(ctx, restart, w.cfg.FPS)
	if err != nil {
		return nil, err
	}
	from := killed
	if restart {
		c := srv.children[0]
		rep.Start, from = c.listened.Sub(c.started), c.listened
	}
	survivors := srv.addrs()
	w.addrs = survivors
	before, err := scrapeAll(ctx, srv.metrics())
	if err != nil {
		return nil, err
	}
	cpu0, _, _ := procStat(os.Getpid())

	var cut, others []seated
	moved := 0
	for _, t := range w.tables {
		for _, p := range t.screens() {
			if p.addr != dead.ssh {
				others = append(others, seated{t, p})
				continue
			}
			p.term.Close()
			p.addr = survivors[moved%len(survivors)] // the same address after a restart
			moved++
			cut = append(cut, seated{t, p})
		}
	}
	var (
		mu                 sync.Mutex
		firsts, returns    []time.Duration
		failed, redialled  atomic.Int64
		inFlight           = make(chan struct{}, stormInFlight(w.cfg))
		lastBack           time.Time
		errRedial, errSeen error
		failures           []string
	)
	back := func(s seated) error {
		redialled.Add(1)
		for attempt := 1; ; attempt++ {
			inFlight <- struct{}{}
			first, err := w.redial(ctx, s)
			<-inFlight
			if err == nil {
				now := time.Now()
				mu.Lock()
				firsts = append(firsts, first)
				returns = append(returns, now.Sub(from))
				if now.After(lastBack) {
					lastBack = now
				}
				mu.Unlock()
				return nil
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if failed.Add(1) <= maxFailuresKept {
				mu.Lock()
				failures = append(failures, fmt.Sprintf("%s at %s, attempt %d after %.1f s: %v", s.p.name, s.t.code, attempt, time.Since(from).Seconds(), err))
				mu.Unlock()
			}
			if attempt == maxRedials {
				return fmt.Errorf("%s at %s: %d attempts, the last: %w", s.p.name, s.t.code, attempt, err)
			}
			sleep(ctx, time.Duration(250+rand.IntN(750))*time.Millisecond)
		}
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		errRedial = parallel(ctx, len(cut), len(cut), func(i int) error { return back(cut[i]) })
	}()
	go func() {
		defer wg.Done()
		errSeen = parallel(ctx, len(others), len(others), func(i int) error {
			s := others[i]
			if _, err := waitScreen(ctx, s.p.term, "the game", gameShown(s.t.code)); err == nil {
				return nil
			}
			select {
			case <-s.p.term.Done(): // cut off after all (its table's owner died)
				s.p.term.Close()
				return back(s)
			default:
				return fmt.Errorf("%s at %s, still connected, never saw its game again", s.p.name, s.t.code)
			}
		})
	}()
	wg.Wait()
	if errRedial != nil {
		return nil, fmt.Errorf("redialling: %w", errRedial)
	}
	if errSeen != nil {
		return nil, errSeen
	}
	after, err := scrapeAll(ctx, srv.metrics())
	if err != nil {
		return nil, err
	}
	cpu1, _, _ := procStat(os.Getpid())

	rep.Redialled, rep.Failed, rep.InFlight = int(redialled.Load()), int(failed.Load()), cap(inFlight)
	rep.FirstScreen, rep.Returned, rep.Failures = percentilesOf(firsts), percentilesOf(returns), failures
	if !lastBack.IsZero() {
		rep.Back = lastBack.Sub(from)
		rep.LoginsPerSecond = float64(rep.Redialled) / rep.Back.Seconds()
	}
	tables := after.tables
	if restart {
		tables = before.tables
	}
	for _, n := range tables {
		rep.Tables += n
	}
	if wall := after.at.Sub(before.at).Seconds(); before.ok && after.ok && wall > 0 {
		rep.ServerCPU = (after.cpu - before.cpu) / wall
		rep.ClientCPU = (cpu1 - cpu0) / wall
	}
	return rep, nil
}

// stormInFlight is how many logins a storm keeps in flight: everyone whose connection
// ended redials at once, and the server lets openLoopInFlight of them log in at once by
// default, so the storm's logins are bounded by the server, not by the generator's
// closed loop of -parallel (unless that is more).
func stormInFlight(c Config) int { return max(c.Parallel, openLoopInFlight) }

// redial connects s's player again, with its key, and waits for the game screen of its
// seat (its table's game, for a spectator); it returns how long that took.
func (w *workload) redial(ctx context.Context, s seated) (time.Duration, error) {
	t, p := s.t, s.p
	start := time.Now()
	c, err := sshterm.Dial(p.addr, p.name, p.key, w.source(), dialTimeout)
	if err != nil {
		return 0, err
	}
	command := "join " + t.code
	if p.watching {
		command = "watch " + t.code
	}
	p.screen = sshterm.NewScreen(termW, termH)
	term, err := sshterm.OpenOn(c, command, termW, termH, p.screen, nil)
	if err != nil {
		_ = c.Close()
		return 0, err
	}
	if _, err := waitScreen(ctx, term, "the game", gameShown(t.code)); err != nil {
		term.Close()
		return 0, err
	}
	p.term, p.tokenRows = term, nil
	return time.Since(start), nil
}

// gameShown tells a screen at table code's game in progress: the game's status line,
// neither waiting nor the seats of a table not started.
func gameShown(code string) func(string) bool {
	return func(s string) bool {
		return strings.Contains(s, " · table "+code) && !strings.Contains(s, "· waiting") && !seatsRE.MatchString(s)
	}
}
