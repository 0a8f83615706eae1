package server_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"parlor/assets"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
	"parlor/server"
)

// Failover, as users met it: the node that runs a table dies (kill -9) mid-game right
// after one of its players was told "ok" for an action; its players come back through
// the surviving nodes — one of them on a new connection while the old one, still open on
// a surviving node, follows the table by itself — and the game goes on: the action is
// kept, the round completes when the players act, and the next one starts. Every game.
//
// PARLOR_FAILOVER_COUNT=N runs each game N times (the long mode, to find flakes).
func TestClusterFailoverResumesEveryGame(t *testing.T) {
	runs := 1
	if n, err := strconv.Atoi(os.Getenv("PARLOR_FAILOVER_COUNT")); err == nil && n > 0 {
		runs = n
	}
	for _, spec := range rules.Games() {
		if spec.ID == testgame.ID {
			continue // the platform's own test game
		}
		for run := range runs {
			t.Run(fmt.Sprintf("%s/%d", spec.ID, run), func(t *testing.T) { failover(t, spec, uint64(run)) })
		}
	}
}

// driven is one human seat, played by the game's bot deciding from the seat's own view
// and acting through the seat's place, as a person at a terminal would.
type driven struct {
	ctx  context.Context // ends with the test
	p    lobby.Player
	bot  rules.Bot
	node int

	mu     sync.Mutex
	place  lobby.Place
	view   rules.View
	closed string // why the place is out of its table
}

// follow reads place's updates until it is out of its table.
func (d *driven) follow(place lobby.Place) {
	d.mu.Lock()
	d.place, d.view, d.closed = place, nil, ""
	d.mu.Unlock()
	go func() {
		for {
			u, ok, reason := place.Next(d.ctx)
			d.mu.Lock()
			if d.place != place {
				d.mu.Unlock()
				return
			}
			if !ok {
				if d.ctx.Err() == nil {
					d.closed = reason.Text
				}
				d.mu.Unlock()
				return
			}
			if u.View != nil {
				d.view = u.View
			}
			d.mu.Unlock()
		}
	}()
}

func (d *driven) state() (lobby.Place, rules.View, string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.place, d.view, d.closed
}

// step lets the seat act once if its bot wants to; ok is true for an action the table
// acknowledged.
func (d *driven) step(now time.Time) (ok bool) {
	place, v, closed := d.state()
	if v == nil || closed != "" || v.Head().Over {
		return false
	}
	a := d.bot.Act(v, now)
	if a == nil {
		return false
	}
	return lobby.Run(place, lobby.ActOf(a)) == nil
}

func failover(t *testing.T, spec *rules.Spec, seed uint64) {
	c := startClusterWith(t, 3, func(_ int, cfg *server.Config) { cfg.Clock = lobby.Sped(10) })
	content, err := assets.Load(spec.Content)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	n, _ := spec.PlayerRange(spec.Defaults())
	n = max(n, 3)
	var players []*driven
	for i := range n {
		players = append(players, &driven{
			ctx:  ctx,
			p:    lobby.Player{ID: fmt.Sprintf("SHA256:failover-%d", i), Name: fmt.Sprintf("P%d", i)},
			bot:  spec.NewBot(rules.BotSetup{Seat: i, Seed: seed*10 + uint64(i), Options: spec.Defaults(), Content: content}),
			node: min(i, 1+(i+1)%2), // the host on node 0, the others on nodes 1 and 2
		})
	}
	host, err := c.nodes[0].Lobby().Create(players[0].p, spec.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	code := host.Code()
	players[0].follow(host)
	for _, d := range players[1:] {
		d.follow(joinVia(t, c, d.node, d.p, code))
	}
	if err := lobby.Run(host, lobby.Start{}); err != nil {
		t.Fatal(err)
	}

	// Play until the second round, then kill the owner right after an acknowledged
	// action of a player on another node.
	virtual := time.Now()
	var actor *driven
	var acked rules.Header
	deadline := time.Now().Add(60 * time.Second)
	for actor == nil {
		if time.Now().After(deadline) {
			t.Fatalf("the game did not reach its second round before the failover")
		}
		virtual = virtual.Add(time.Minute) // every bot is past its thinking time
		for _, d := range players {
			_, v, _ := d.state()
			round := 0
			if v != nil {
				round = v.Head().Round
			}
			if d.step(virtual) && d.node != 0 && round >= 2 {
				actor = d
				c.kill(0)
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	// What the actor's seat saw once its action was acknowledged: the newest update.
	time.Sleep(50 * time.Millisecond)
	if _, v, _ := actor.state(); v != nil {
		acked = v.Head()
	}
	actorSeat := slices.Index(players, actor)

	// The host, whose node died, comes back through node 1; the last player opens a new
	// connection through its own node while its old one follows the table by itself.
	players[0].node = 1
	players[0].follow(joinVia(t, c, 1, players[0].p, code))
	last := players[len(players)-1]

	last.follow(joinVia(t, c, last.node, last.p, code))

	// The game goes on: a later round starts (or the game ends), on every seat.
	target := acked.Round + 1
	deadline = time.Now().Add(60 * time.Second)
	checked := false
	for {
		virtual = virtual.Add(time.Minute)
		done := true
		for i, d := range players {
			_, v, closed := d.state()
			if closed != "" {
				t.Fatalf("P%d's place closed after the failover: %s", i, closed)
			}
			if v == nil || (v.Head().Round < target && !v.Head().Over) {
				done = false
			}
			if i == actorSeat && v != nil && !checked {
				h := v.Head()
				if h.Round == acked.Round && h.Phase == acked.Phase && slices.Contains(h.Waiting, actorSeat) && !slices.Contains(acked.Waiting, actorSeat) {
					t.Fatalf("P%d's acknowledged action is lost: the game waits for them again in round %d, %s", i, h.Round, h.Phase)
				}
				checked = true
			}
			d.step(virtual)
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			for i, d := range players {
				_, v, _ := d.state()
				if v != nil {
					h := v.Head()
					t.Logf("P%d sees round %d, %s, waiting for %v: %q", i, h.Round, h.Phase, h.Waiting, h.Prompt)
				}
			}
			t.Fatalf("the game did not go on after the failover (acknowledged in round %d, %s)", acked.Round, acked.Phase)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The old connection of the player who connected again did not take the seat back.
	if _, _, closed := last.state(); closed != "" {
		t.Fatalf("the new connection was closed: %s", closed)
	}

}

// joinVia seats p at the table with code through node i, retrying while the table moves.
func joinVia(t *testing.T, c *testCluster, i int, p lobby.Player, code string) lobby.Place {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		place, err := c.nodes[i].Lobby().Join(p, code)
		if err == nil {
			return place
		}
		if time.Now().After(deadline) || errors.Is(err, lobby.ErrTableClosed) || errors.Is(err, lobby.ErrLost) {
			t.Fatalf("%s joins %s through node-%d: %v", p.Name, code, i, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
