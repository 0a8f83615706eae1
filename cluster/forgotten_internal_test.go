package cluster

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"parlor/internal/testkit/natstest"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
)

// Found by the soak (internal/soak): a node cut off from NATS for longer than a lease
// is taken for gone, and the owners of the tables its players sit at disconnect them
// (their seats are away). The news goes out on the seats' subjects, which the cut-off
// node does not hear; once back, its sessions waited for updates that never came and
// every action they sent was refused as "the table has closed", while the game waited
// for their away seats. Now such a session sits again — when its node checks after the
// gap, or when the owner refuses one of its calls — and plays on.
func TestASessionTheOwnerForgotSitsAgain(t *testing.T) {
	url, _ := natstest.Run(t)
	// The test drops Ann's session itself and has node b check: its nodes keep their
	// leases, or a stall of the process would have node b claim the table (and close
	// it) or node a drop Ann on its own, and her session id would change underfoot.
	a, la := StartSteadyTestNode(t, url, "a", nil)
	b, lb := StartSteadyTestNode(t, url, "b", nil)
	host, err := la.Create(lobby.Player{ID: "SHA256:host", Name: "Host"}, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	defer lobby.Run(host, lobby.Leave{})
	code := host.Code()
	ann := lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	var place lobby.Place
	for deadline := time.Now().Add(10 * time.Second); place == nil; time.Sleep(20 * time.Millisecond) {
		if place, err = lb.Join(ann, code); err != nil && time.Now().After(deadline) {
			t.Fatalf("Ann joins through node b: %v", err)
		}
	}
	defer lobby.Run(place, lobby.Leave{})

	// The owner drops Ann's session as dropDeparted does, and node b hears none of it.
	b.mu.Lock()
	var pr *proxy
	for p := range b.proxies {
		pr = p
	}
	b.mu.Unlock()
	pr.mu.Lock()
	_ = pr.sub.Unsubscribe()
	oldID := pr.id
	pr.mu.Unlock()
	r := memberOf(t, a, code, oldID)
	if err := lobby.Run(r.place, lobby.Disconnect{}); err != nil {
		t.Fatal(err)
	}
	forgotten := func(id string) bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.owned[code].members[id] == nil
	}
	awayAtOwner := func() bool {
		for _, tb := range la.Tables(lobby.Player{}) {
			if tb.Code == code {
				return len(tb.Seats) > 1 && tb.Seats[1].Away
			}
		}
		return false
	}
	// (What is sure is that the owner forgot her: the away seat may not be shown yet.)
	for deadline := time.Now().Add(10 * time.Second); !forgotten(oldID); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the owner still knows Ann's session after dropping it")
		}
	}

	// Node b checks after its gap: Ann sits again, her seat no longer away, and her
	// calls go through.
	b.checkProxies()
	sat := func() bool {
		pr.mu.Lock()
		defer pr.mu.Unlock()
		return pr.id != oldID && !pr.moving && !pr.done
	}
	for deadline := time.Now().Add(10 * time.Second); awayAtOwner() || !sat(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("Ann's seat stays away: her session did not sit again")
		}
	}
	if err := lobby.Run(place, lobby.Chat{Text: "back"}); err != nil {
		t.Fatalf("Ann's chat after sitting again: %v", err)
	}

	// The same through a call, without the check: the owner forgets her again, and her
	// next call, which the owner refuses as a forgotten member's (not applied), has her
	// sit again and then goes through, the same call sent again.
	pr.mu.Lock()
	_ = pr.sub.Unsubscribe()
	id := pr.id
	pr.mu.Unlock()
	r = memberOf(t, a, code, id)
	if err := lobby.Run(r.place, lobby.Disconnect{}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !forgotten(id); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the owner still knows Ann's session after dropping it again")
		}
	}
	if err := lobby.Run(place, lobby.Chat{Text: "anyone?"}); err != nil {
		t.Fatalf("Ann's chat that found her forgotten: %v; want it sent again once she sat", err)
	}
	if err := lobby.Run(place, lobby.Chat{Text: "back again"}); err != nil {
		t.Fatalf("Ann's chat after that: %v", err)
	}
	if awayAtOwner() {
		t.Fatal("Ann's seat stays away after her session sat again")
	}
}

// Found by the soak: a node killed and started again under its name finds the leases of
// its previous run naming it. It answered a join to such a table "no table has that
// code" (and counted it against the player's address as an unknown code), and it never
// claimed those leases, so a node alone never brought its tables back. Now the table
// is "moving" there, and the node claims the leases once they run out, as any node.
func TestANodeStartedAgainClaimsItsOldLeases(t *testing.T) {
	url, _ := natstest.Run(t)
	first, la := StartTestNode(t, url, "a", nil)
	host, err := la.Create(lobby.Player{ID: "SHA256:host", Name: "Host"}, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	code := host.Code()
	first.Kill() // as kill -9: no handover, the lease stays

	again, lb := StartTestNode(t, url, "a", nil)
	var before lease
	for deadline := time.Now().Add(10 * time.Second); before.Node == ""; time.Sleep(20 * time.Millisecond) {
		again.mu.Lock()
		before = again.dir[code]
		again.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("the node started again does not see the table's lease")
		}
	}
	if _, err := lb.Join(lobby.Player{ID: "SHA256:ann", Name: "Ann"}, code); !errors.Is(err, errMoving) {
		t.Errorf("a join through the node started again: %v; want %q", err, errMoving)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		again.mu.Lock()
		now, ok := again.dir[code]
		again.mu.Unlock()
		if !ok || now.rev != before.rev {
			break // claimed (and, with no log in this node's store, closed)
		}
		if time.Now().After(deadline) {
			t.Fatal("the node started again never claimed the lease of its previous run")
		}
	}
}

// Found by the soak: while JetStream had no quorum, a node could not publish its
// presence for a lease; the owners took it for gone and dropped its sessions, which
// heard of it and told their players "You left the table." though nobody had left. A
// session that hears it was dropped as its node's sits again.
func TestASessionDroppedAsItsNodesSitsAgain(t *testing.T) {
	url, _ := natstest.Run(t)
	a, la := StartTestNode(t, url, "a", nil)
	b, lb := StartTestNode(t, url, "b", nil)
	host, err := la.Create(lobby.Player{ID: "SHA256:host", Name: "Host"}, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	defer lobby.Run(host, lobby.Leave{})
	code := host.Code()
	var place lobby.Place
	for deadline := time.Now().Add(10 * time.Second); place == nil; time.Sleep(20 * time.Millisecond) {
		if place, err = lb.Join(lobby.Player{ID: "SHA256:ann", Name: "Ann"}, code); err != nil && time.Now().After(deadline) {
			t.Fatalf("Ann joins through node b: %v", err)
		}
	}
	defer lobby.Run(place, lobby.Leave{})
	b.mu.Lock()
	var pr *proxy
	for p := range b.proxies {
		pr = p
	}
	b.mu.Unlock()
	pr.mu.Lock()
	id := pr.id
	pr.mu.Unlock()
	r := memberOf(t, a, code, id)
	r.dropped.Store(true) // as dropDeparted does
	if err := lobby.Run(r.place, lobby.Disconnect{}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		pr.mu.Lock()
		again, done := pr.id != id && pr.id != "" && !pr.moving, pr.done
		pr.mu.Unlock()
		if done {
			_, _, reason := place.Next(context.Background())
			t.Fatalf("Ann's session ended: %+v", reason)
		}
		if again {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Ann's session did not sit again")
		}
	}
	if err := lobby.Run(place, lobby.Chat{Text: "still here"}); err != nil {
		t.Fatalf("Ann's chat after sitting again: %v", err)
	}
}

// Found by the soak: a node started (again) took players before it had read the table
// directory, and a player joining through it at once was told "no table has that
// code". Start returns once the directory is read.
func TestANodeKnowsTheTablesOnceStarted(t *testing.T) {
	url, _ := natstest.Run(t)
	_, la := StartTestNode(t, url, "a", nil)
	var codes []string
	for i := range 100 {
		m, err := la.Create(lobby.Player{ID: fmt.Sprintf("SHA256:host%d", i), Name: fmt.Sprintf("Host%d", i)}, testgame.ID, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		defer lobby.Run(m, lobby.Leave{})
		codes = append(codes, m.Code())
	}
	b, _ := StartTestNode(t, url, "b", nil)
	for _, code := range codes {
		if !b.Elsewhere(code) {
			t.Fatalf("node b, started, does not know table %s", code)
		}
	}
}
