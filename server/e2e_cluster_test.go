package server_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"parlor/cluster"
	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/natstest"
	"parlor/lobby"
	"parlor/server"
	"parlor/store"
	"parlor/store/jetstream"
)

// testCluster is parlor nodes on one NATS server with JetStream, each with its own
// connection to the JetStream store, as separate processes would have.
type testCluster struct {
	ns    *natstest.Server
	nodes []*e2e.Server
	conns []*nats.Conn // each node's store connection
}

func startCluster(t *testing.T, n int) *testCluster {
	t.Helper()
	return startClusterWith(t, n, nil)
}

// startClusterWith is startCluster with edit applied to each node's configuration.
func startClusterWith(t *testing.T, n int, edit func(i int, cfg *server.Config)) *testCluster {
	t.Helper()
	ns := natstest.Start(t)
	c := &testCluster{ns: ns}
	stores := make([]store.Store, n)
	for i := range stores {
		nc := natstest.Connect(t, ns.URL())
		st, err := jetstream.Open(context.Background(), jetstream.Config{Conn: nc})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close() })
		c.conns, stores[i] = append(c.conns, nc), st
	}
	c.nodes = e2e.StartNodes(t, stores, func(i int, cfg *server.Config) {
		cfg.Cluster = cluster.Config{URLs: ns.URL(), Node: fmt.Sprintf("node-%d", i),
			Renew: 250 * time.Millisecond, Lease: 2 * time.Second}
		if edit != nil {
			edit(i, cfg)
		}
	})
	// A table's traffic between nodes is on its way to a screen: game time waits for it.
	watch := natstest.Connect(t, ns.URL())
	if _, err := watch.Subscribe("parlor.table.>", func(*nats.Msg) { c.nodes[0].Busy() }); err != nil {
		t.Fatal(err)
	}
	return c
}

// kill ends node i as a crash would: no goodbye, no handover, and its connections to
// NATS are gone, so it writes nothing more.
func (c *testCluster) kill(i int) {
	c.conns[i].Close()
	c.nodes[i].Node().Kill()
}

// owner is the index of the live node (not one of gone) that runs the table with code.
func (c *testCluster) owner(t *testing.T, code string, gone ...int) int {
	t.Helper()
	deadline := time.Now().Add(e2e.Wait)
	for time.Now().Before(deadline) {
		for i, n := range c.nodes {
			if !slices.Contains(gone, i) && n.Lobby().Runs(code) {
				return i
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no node runs table %s", code)
	return -1
}

// sameLobby waits until every node lists the same tables and online count.
func (c *testCluster) sameLobby(t *testing.T, live []int, codes []string, online int) {
	t.Helper()
	deadline := time.Now().Add(e2e.Wait)
	for {
		var problems []string
		for _, i := range live {
			l := c.nodes[i].Lobby()
			var got []string
			for _, info := range l.Tables(lobby.Player{}) {
				got = append(got, info.Code)
			}
			if !slices.Equal(got, codes) || l.Online() != online {
				problems = append(problems, fmt.Sprintf("node-%d lists %v with %d online", i, got, l.Online()))
			}
		}
		if len(problems) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the nodes do not show one lobby (want %v, %d online): %s", codes, online, strings.Join(problems, "; "))
		}
		c.nodes[live[0]].Pause()
	}
}

// seatSubjects records, per node, every seat subject it subscribed to while the test
// ran, from the NATS server's own list of subscriptions.
type seatSubjects struct {
	mu   sync.Mutex
	seen map[string]map[string]bool // connection name → subjects
	stop chan struct{}
	done chan struct{}
}

func watchSubscriptions(ns *natstest.Server) *seatSubjects {
	w := &seatSubjects{seen: map[string]map[string]bool{}, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for {
			w.mu.Lock()
			for name, subs := range ns.Subscriptions() {
				for _, s := range subs {
					if strings.Contains(s, ".seat.") || strings.HasSuffix(s, ".spectator") {
						if w.seen[name] == nil {
							w.seen[name] = map[string]bool{}
						}
						w.seen[name][s] = true
					}
				}
			}
			w.mu.Unlock()
			select {
			case <-w.stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return w
}

func (w *seatSubjects) result() map[string][]string {
	close(w.stop)
	<-w.done
	out := map[string][]string{}
	for name, subs := range w.seen {
		for s := range subs {
			out[name] = append(out[name], s)
		}
		slices.Sort(out[name])
	}
	return out
}

// heard counts the messages on every seat subject, as a NATS client subscribed to
// everything sees them.
func heard(t *testing.T, url string) (counts func() map[string]int) {
	t.Helper()
	nc := natstest.Connect(t, url)
	var mu sync.Mutex
	seen := map[string]int{}
	if _, err := nc.Subscribe(">", func(m *nats.Msg) {
		mu.Lock()
		seen[m.Subject]++
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	return func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int{}
		for k, v := range seen {
			out[k] = v
		}
		return out
	}
}

// Two players on different nodes meet at one table by its code, chat and play a whole
// game; a third watches from the third node. Every node shows one lobby, and a node
// subscribes to the seat subjects of its own sessions only.
func TestClusterPlayersOnTwoNodesPlayAWholeGame(t *testing.T) {
	t.Parallel() // its own servers; it waits on its game and the cluster more than it computes
	c := startCluster(t, 3)
	subs := watchSubscriptions(c.ns)
	counts := heard(t, c.ns.URL())

	ann, ben, _, code := meetAcrossNodes(t, c, "Pick")
	ben.WaitFor("table "+code, "Ann", "Ben")
	ann.WaitFor("Seats 2/4")
	cat := watchAsGuest(t, c.nodes[2], "cat", code)
	c.sameLobby(t, []int{0, 1, 2}, []string{code}, 3)

	ben.Press("enter", "hello Ann", "enter")
	ann.WaitFor("Ben: hello Ann")
	cat.WaitFor("Ben: hello Ann")

	playFirstRound(ann, ben)
	ben.Press("3")
	ben.WaitFor("You picked 3.")
	ann.Press("3")
	ann.WaitFor("Game over")
	ben.WaitFor("Game over")
	cat.WaitFor("Game over")

	checkSeatSubjects(t, subs, counts, code, 1)
}

// checkSeatSubjects checks the subjects of table code, which node-0 runs while the
// player at seat remote plays on node-1 and a spectator watches on node-2: node-1
// subscribed to that seat's subject only, node-2 to the spectator subject only and
// node-0 to none; updates went over both subjects, and no other seat's updates were
// published at all, as no other node has a session at those seats.
func checkSeatSubjects(t *testing.T, subs *seatSubjects, counts func() map[string]int, code string, remote int) {
	t.Helper()
	seat := fmt.Sprintf("parlor.table.%s.seat.%d", code, remote)
	spectator := "parlor.table." + code + ".spectator"
	got := subs.result()
	if want := []string{seat}; !slices.Equal(got["parlor node-1"], want) {
		t.Errorf("node-1 (the remote player's node) subscribed to %v, want only %v", got["parlor node-1"], want)
	}
	if want := []string{spectator}; !slices.Equal(got["parlor node-2"], want) {
		t.Errorf("node-2 (the spectator's node) subscribed to %v, want only %v", got["parlor node-2"], want)
	}
	if len(got["parlor node-0"]) != 0 {
		t.Errorf("node-0 runs the table and needs no seat subject, yet subscribed to %v", got["parlor node-0"])
	}
	seen := counts()
	if seen[seat] == 0 || seen[spectator] == 0 {
		t.Errorf("no updates went over NATS: %v", seen)
	}
	for subject, n := range seen {
		if strings.HasPrefix(subject, "parlor.table."+code+".seat.") && subject != seat {
			t.Errorf("%s, a seat no other node has a session at, was published %d times", subject, n)
		}
	}
}

// meetAcrossNodes has Ann on node-0 (which so runs the table) create a table for game
// and Ben on node-1 join it by its code.
func meetAcrossNodes(t *testing.T, c *testCluster, game string) (ann, ben *e2e.Player, annKey e2e.Key, code string) {
	t.Helper()
	ann, annKey = newPlayer(t, c.nodes[0], "Ann")
	code = createTable(t, ann, game)
	ben, _ = newPlayer(t, c.nodes[1], "Ben")
	joinTable(t, ben, code)
	ann.WaitFor("Ben sits down")
	return ann, ben, annKey, code
}

// startPick has Ann (on node 0, so node 0 runs the table) and Ben (on node 1) meet, start
// a game of Pick and play its first round.
func startPick(t *testing.T, c *testCluster) (ann, ben *e2e.Player, annKey e2e.Key, code string) {
	t.Helper()
	ann, ben, annKey, code = meetAcrossNodes(t, c, "Pick")
	ann.WaitFor("Seats 2/4")
	playFirstRound(ann, ben)
	return ann, ben, annKey, code
}

// playFirstRound has host Ann start a game of Pick with Ben and both play its first
// round: Ben picks 2, Ann 1.
func playFirstRound(ann, ben *e2e.Player) {
	ann.Press("s")
	ann.WaitFor("Round 1 of 2")
	ben.WaitFor("Round 1 of 2")
	ben.Press("2")
	ben.WaitFor("You picked 2.")
	ann.Press("1")
	ann.WaitFor("Round 2 of 2", "Last picks: [1 2]")
	ben.WaitFor("Round 2 of 2", "Last picks: [1 2]")
}

// The node running a table dies mid-game without a word: another node claims the table
// and restores it from its log, Ann connects again through another node and finds her
// seat with her last pick (which she saw acknowledged) in the game, and Ben's session on
// a surviving node, which followed the table by itself, finishes the game.
func TestClusterOwnerDiesMidGame(t *testing.T) {
	t.Parallel() // its own servers; it waits on its game and the cluster more than it computes
	c := startCluster(t, 3)
	ann, ben, annKey, code := startPick(t, c)
	ann.Press("3")
	ann.WaitFor("You picked 3.")

	c.kill(0)
	ann.Close()
	if o := c.owner(t, code, 0); o != 1 && o != 2 {
		t.Fatalf("table %s runs on node-%d", code, o)
	}
	ann2 := c.nodes[2].Connect(t, "ann", annKey, "", 80, 24)
	ann2.WaitFor("Your Pick table " + code + " is in round 2")
	ann2.Press("r")
	ann2.WaitFor("Round 2 of 2", "You picked 3.", "Last picks: [1 2]")
	c.sameLobby(t, []int{1, 2}, []string{code}, 2)

	ben.PressUntil("1", "Game over", 20)
	ann2.WaitFor("Game over")
}

// A player whose node died redials at once with "join CODE", through another node, while
// the table is still moving (its lease has not run out): the session waits for the table
// and seats them, rather than leaving them in the lobby with an error. Nothing at the table
// changes meanwhile, so only the seat taken back can show them the game.
func TestClusterJoinWhileTheTableMoves(t *testing.T) {
	t.Parallel() // its own servers; it waits on the cluster more than it computes
	c := startCluster(t, 3)
	ann, _, annKey, code := startPick(t, c)
	ann.Press("3")
	ann.WaitFor("You picked 3.")

	c.kill(0)
	ann.Close()
	ann2 := c.nodes[2].Connect(t, "ann", annKey, "join "+code, 80, 24)
	ann2.WaitFor("Round 2 of 2", "You picked 3.")
}

// The same in the linear mode: "ssh host plain join CODE" waits for the moving table.
func TestClusterPlainJoinWhileTheTableMoves(t *testing.T) {
	t.Parallel()
	c := startCluster(t, 3)
	ann, _, annKey, code := startPick(t, c)
	ann.Press("3")
	ann.WaitFor("You picked 3.")

	c.kill(0)
	ann.Close()
	r := c.nodes[2].LinearReader(t, "ann", annKey, "plain join "+code, "")
	r.Next("the table", func(l string) bool { return strings.HasPrefix(l, "You are at table") })
}

// Rolling upgrade: the node running a table is stopped (SIGTERM) mid-game. It hands the
// table over at once; Ben, on another node, plays on without doing anything else, and
// Ann, told to connect again, does so through another node and is back at the table.
func TestClusterStoppingANodeHandsItsTablesOver(t *testing.T) {
	t.Parallel() // its own servers; it waits on its game and the cluster more than it computes
	c := startCluster(t, 3)
	ann, ben, annKey, code := startPick(t, c)
	ann.Press("3")
	ann.WaitFor("You picked 3.")

	stopped := make(chan error, 1)
	go func() { stopped <- c.nodes[0].Stop() }()
	ann.WaitFor("connect again")
	if err := <-stopped; err != nil {
		t.Fatalf("stop: %v", err)
	}
	if o := c.owner(t, code, 0); o != 1 && o != 2 {
		t.Fatalf("table %s runs on node-%d", code, o)
	}
	ben.PressUntil("1", "Game over", 20)

	ann2 := c.nodes[2].Connect(t, "ann", annKey, "", 80, 24)
	ann2.WaitFor("Your Pick table " + code + " has finished its game")
	ann2.Press("r")
	ann2.WaitFor("The game is over.", "Last picks: [3 1]")
}

// Every node given the same --host-key file shows the same host key, so a player behind
// a load balancer never sees a key mismatch; the first node makes the file.
func TestNodesShareTheHostKeyFile(t *testing.T) {
	key := filepath.Join(t.TempDir(), "cluster_host_ed25519")
	a := e2e.Start(t, func(c *server.Config) { c.HostKey = key })
	b := e2e.Start(t, func(c *server.Config) { c.HostKey = key })
	if a.Fingerprint == "" || a.Fingerprint != b.Fingerprint {
		t.Fatalf("host keys differ: %q and %q", a.Fingerprint, b.Fingerprint)
	}
	if _, err := os.Stat(key); err != nil {
		t.Fatalf("the key file was not made: %v", err)
	}
	c := e2e.Start(t, nil)
	if c.Fingerprint == a.Fingerprint {
		t.Fatal("a server without --host-key uses the shared key")
	}
}
