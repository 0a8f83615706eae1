package cluster_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.uber.org/goleak"

	"parlor/cluster"
	"parlor/internal/testkit/natstest"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m, natstest.IgnoreAsyncPublishRace) }

// startNode joins a node named name, with a lobby of its own, to the NATS at url.
func startNode(t testing.TB, url, name string) (*cluster.Node, *lobby.Lobby) {
	t.Helper()
	return startNodeOn(t, url, name, nil)
}

// startNodeOn is startNode with the lobby living by clock (nil: the wall clock). Its
// leases outlast the test (StartSteadyTestNode): the tests that use it are not about a
// node going away, and with StartTestNode's half-second lease a loaded machine that
// held the process still would let one node take the other for gone (one test asserts
// that node b cannot claim node a's table).
func startNodeOn(t testing.TB, url, name string, clock lobby.Clock) (*cluster.Node, *lobby.Lobby) {
	t.Helper()
	return cluster.StartSteadyTestNode(t, url, name, clock)
}

// A code claimed by one node cannot be claimed by another: Create in the directory is
// what makes join codes unique across the cluster.
func TestCodesAreUniqueAcrossNodes(t *testing.T) {
	url, _ := natstest.Run(t)
	a, _ := startNode(t, url, "a")
	b, _ := startNode(t, url, "b")
	if ok, err := a.Claim("ABCD"); !ok || err != nil {
		t.Fatalf("first claim: %v %v", ok, err)
	}
	if ok, err := b.Claim("ABCD"); ok || err != nil {
		t.Fatalf("second claim of the same code by another node: %v %v", ok, err)
	}
	if ok, err := a.Claim("ABCD"); ok || err != nil {
		t.Fatalf("second claim by the same node: %v %v", ok, err)
	}
	if ok, err := b.Claim("ABCE"); !ok || err != nil {
		t.Fatalf("another code: %v %v", ok, err)
	}
}

// A player on one node creates a table; the other node lists it, counts the player
// online, sees its code as another node's (so a join there goes to the owner), and
// refuses the player's name to someone else.
func TestOneLobbyOnTwoNodes(t *testing.T) {
	url, _ := natstest.Run(t)
	_, la := startNode(t, url, "a")
	nb, lb := startNode(t, url, "b")
	ann := lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	online := la.Connected(ann.ID)
	defer online.Done()
	if err := online.Name(ann.Name); err != nil {
		t.Fatal(err)
	}
	other := lb.Connected("guest:other")
	defer other.Done()
	same := lb.Connected(ann.ID) // Ann's second terminal, at the other node
	defer same.Done()
	m, err := la.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	defer lobby.Run(m, lobby.Leave{})
	deadline := time.Now().Add(5 * time.Second)
	for {
		tables := lb.Tables(lobby.Player{})
		if len(tables) == 1 && tables[0].Code == m.Code() && lb.Online() == 3 && nb.Elsewhere(m.Code()) &&
			len(lb.SeatedAt(ann.ID)) == 1 && errors.Is(other.Name("ann"), lobby.ErrNameInUse) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("node b lists %+v, %d online, elsewhere=%v, Ann's name to another: %v", tables, lb.Online(), nb.Elsewhere(m.Code()), other.Name("ann"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if ok, _ := nb.Claim(m.Code()); ok {
		t.Fatal("node b claimed the code of node a's table")
	}
	if err := same.Name("Ann"); err != nil {
		t.Errorf("Ann's own name at the other node: %v", err)
	}
}

// The owner's errors reach a remote session as the lobby's own sentinel errors, so the
// session can tell them apart as it does for a local table.
func TestRemoteErrorsKeepTheirMeaning(t *testing.T) {
	url, _ := natstest.Run(t)
	_, la := startNode(t, url, "a")
	_, lb := startNode(t, url, "b")
	ann := lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	m, err := la.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	defer lobby.Run(m, lobby.Leave{})
	ben := lobby.Player{ID: "SHA256:ben", Name: "Ben"}
	var remote lobby.Place
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if remote, err = lb.Join(ben, m.Code()); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("join through node b: %v", err)
	}
	defer lobby.Run(remote, lobby.Leave{})
	if err := lobby.Run(remote, lobby.Start{}); !errors.Is(err, lobby.ErrNotHost) {
		t.Errorf("start by a guest at a remote table: %v, want ErrNotHost", err)
	}
	if err := lobby.Run(remote, lobby.ActOf(testgame.Pick(1))); !errors.Is(err, lobby.ErrNoGame) {
		t.Errorf("act before the game: %v, want ErrNoGame", err)
	}
	if err := lobby.Run(remote, lobby.Kick{Seat: 7}); !errors.Is(err, lobby.ErrNotHost) {
		t.Errorf("kick: %v", err)
	}
	if err := lobby.Run(remote, lobby.Chat{Text: "hi"}); err != nil {
		t.Errorf("chat: %v", err)
	}
	u := saysLast(t, remote, "hi")
	if u.Seat != 1 || len(u.Table.Seats) != 2 {
		t.Fatalf("remote update: seat %d, seats %+v", u.Seat, u.Table.Seats)
	}
}

// saysLast reads p's updates until the newest chat line is text, and returns that update.
func saysLast(t *testing.T, p lobby.Place, text string) lobby.Update {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		u, ok, reason := p.Next(ctx)
		if !ok {
			t.Fatalf("no %q came back: %s", text, reason)
		}
		if n := len(u.Chat); n > 0 && u.Chat[n-1].Text == text {
			return u
		}
	}
}

// A player on another node than the table's, idle while the game waits for them, gets a
// bot from the host and takes the seat back with a key press (Resume through the owner).
func TestARemotePlayerTakesTheirSeatBack(t *testing.T) {
	url, _ := natstest.Run(t)
	_, la := startNode(t, url, "a")
	_, lb := startNode(t, url, "b")
	m, err := la.Create(lobby.Player{ID: "SHA256:ann", Name: "Ann"}, testgame.ID, rules.Options{lobby.OptAway: lobby.AwayTimers}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer lobby.Run(m, lobby.Leave{})
	var remote lobby.Place
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if remote, err = lb.Join(lobby.Player{ID: "SHA256:ben", Name: "Ben"}, m.Code()); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("join through node b: %v", err)
	}
	defer lobby.Run(remote, lobby.Leave{})
	if err := lobby.Run(m, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(m, lobby.StandIn{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(remote, lobby.Resume{}); err != nil {
		t.Fatal(err)
	}
	if u := saysLast(t, remote, "Ben plays again."); u.Table.Seats[1].StandIn {
		t.Fatalf("a bot still plays for Ben: %+v", u.Table.Seats[1])
	}
}
