package cluster

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parlor/internal/testkit/natstest"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/store"
)

// readCounted counts a node's reads of table logs.
type readCounted struct {
	store.Store
	reads atomic.Int64
}

func (r *readCounted) ReadTable(ctx context.Context, code string) ([]store.TableEntry, error) {
	r.reads.Add(1)
	return r.Store.ReadTable(ctx, code)
}

// annThroughB starts nodes a and b on one store (b's reads counted), has Host make a
// table on a and Ann join it through b; it returns Ann's place and proxy.
func annThroughB(t *testing.T) (a, b *Node, st store.Store, bLog *readCounted, host, ann lobby.Place, pr *proxy) {
	t.Helper()
	url, _ := natstest.Run(t)
	st = store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	bLog = &readCounted{Store: st}
	a, b = newNode(t, url, "a", st, testLease), newNode(t, url, "b", bLog, testLease)
	host, ann, pr = annAcross(t, a, b, a, b)
	return a, b, st, bLog, host, ann, pr
}

// Found by the soak: a session following its table to its new owner was told "The
// table has closed" when, during NATS server kills, its node's directory briefly had no
// entry for the table: the proxy read a missing entry as a closed table. A table is
// closed when its close is recorded — its log removed from the store — and a missing
// entry of a table whose log is open is a table on its way: the proxy waits for it.
func TestAMissingDirectoryEntryIsNotAClosedTable(t *testing.T) {
	a, b, _, bLog, host, ann, pr := annThroughB(t)
	defer lobby.Run(host, lobby.Leave{})
	defer lobby.Run(ann, lobby.Leave{})
	code := ann.Code()

	// b's view of the directory loses the table's entry (no change of it is on its way
	// meanwhile), and Ann's session starts following the table.
	b.mu.Lock()
	delete(b.dir, code)
	b.mu.Unlock()
	before := bLog.reads.Load()
	pr.reattach()
	for deadline := time.Now().Add(10 * time.Second); bLog.reads.Load() == before; time.Sleep(10 * time.Millisecond) {
		if _, _, done := pr.here(); done {
			t.Fatalf("Ann's session ended on a missing directory entry, though the table runs: %+v", closedWith(t, ann))
		}
		if time.Now().After(deadline) {
			t.Fatal("Ann's session neither ended nor looked whether the table is closed")
		}
	}
	if _, _, done := pr.here(); done {
		t.Fatal("Ann's session ended, though the table's log is open")
	}

	// The table moves for real: a hands it over and releases its lease; b claims it.
	handOver(t, a, b, code, lobby.MovedNotice)
	followed(t, pr, ann, nil)
	if err := lobby.Run(ann, lobby.Chat{Text: "followed"}); err != nil {
		t.Fatalf("Ann's chat at b: %v", err)
	}
}

// The other side of it: a table whose close is recorded (its log is gone) and whose
// directory entry is removed is closed for a session following it, which is told so.
func TestAClosedTableIsClosedForASessionFollowingIt(t *testing.T) {
	_, b, st, _, host, ann, pr := annThroughB(t)
	code := ann.Code()
	pr.mu.Lock()
	_ = pr.sub.Unsubscribe() // Ann's node hears nothing of the close on her seat's subject
	pr.mu.Unlock()
	if err := lobby.Run(host, lobby.CloseTable{}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, inDir := b.ownerOf(code)
		entries, err := st.ReadTable(context.Background(), code)
		if err != nil {
			t.Fatal(err)
		}
		if !inDir && len(entries) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the closed table: in b's directory %v, %d log entries", inDir, len(entries))
		}
	}
	pr.reattach()
	if reason := closedWith(t, ann); reason.Why != lobby.WhyClosed {
		t.Errorf("Ann following a closed table was told %+v; want it closed", reason)
	}
}

// closedWith is why place is out of its table, after the updates before it (zero if it
// is not out within a generous wait).
func closedWith(t *testing.T, place lobby.Place) lobby.Closed {
	ctx := waitCtx(t)
	for {
		_, ok, reason := place.Next(ctx)
		if !ok {
			return reason
		}
	}
}

// Found by the soak: an owner killed and started again under its name claims its
// table back (its own old lease) and restores it; the directory then names the same
// node as before, so the sessions of other nodes at that table heard of no move: they
// stayed attached to members the new run never had, got no update again, and their
// players, waiting for one, stopped the game. A claim is a change of hands whatever
// node it names: a session whose owner no longer knows it sits again there.
func TestASessionFollowsItsTableToItsOwnerStartedAgain(t *testing.T) {
	url, _ := natstest.Run(t)
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	a, b := newNode(t, url, "a", st, testLease), newNode(t, url, "b", st, testLease)
	host, ann, pr := annAcross(t, a, b, a, b)
	code := host.Code()
	defer lobby.Run(ann, lobby.Leave{})
	_, before, _ := pr.here()

	// a dies (its lobby's copy stays behind, idle) and starts again under its name; it
	// claims its table back once the lease of its first run stood still.
	a.Kill()
	again := newNode(t, url, "a", st, testLease)
	if err := again.Start(again.lobby); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * testLease); !again.lobby.Runs(code); time.Sleep(testLease / 6) {
		if time.Now().After(deadline) {
			t.Fatalf("a, started again, did not take %s back", code)
		}
		again.round()
	}
	// Ann, who sends nothing, sits at the new run's table: it knows her member.
	known := func() bool {
		_, id, _ := pr.here()
		again.mu.Lock()
		defer again.mu.Unlock()
		ot := again.owned[code]
		return id != before && ot != nil && ot.members[id] != nil
	}
	for deadline := time.Now().Add(2 * moveWait); !known(); time.Sleep(20 * time.Millisecond) {
		if _, _, done := pr.here(); done {
			t.Fatalf("Ann's session ended: %+v", closedWith(t, ann))
		}
		if time.Now().After(deadline) {
			t.Fatal("Ann's session stays attached to a member the owner started again never had")
		}
	}
}

// Found by the soak: a remote member's updates go out on core NATS, at most once, and
// one published while a connection moved to another NATS server (a NATS server
// restarted) is lost. When it was a table's last for a while — the update that a game
// was over — the session's view stayed behind for good: its player waited for a game
// that had ended, and its host never started the next. A pump sends its newest update
// again while the table is quiet (the proxy drops a copy it has).
func TestAnUpdateLostOnTheWayComesAgain(t *testing.T) {
	a, _, _, _, host, ann, pr := annThroughB(t)
	defer lobby.Run(host, lobby.Leave{})
	defer lobby.Run(ann, lobby.Leave{})
	_, annID, _ := pr.here()
	var dropped atomic.Bool
	lose := func(_ string, d delivery) bool {
		if d.Member != annID || d.Update == nil || dropped.Load() {
			return false
		}
		for _, line := range d.Update.Chat {
			if line.Text == "last words" {
				dropped.Store(true)
				return true
			}
		}
		return false
	}
	a.losePublish.Store(&lose)
	if err := lobby.Run(host, lobby.Chat{Text: "last words"}); err != nil {
		t.Fatal(err)
	}
	ctx := waitCtx(t)
	for {
		u, ok, reason := ann.Next(ctx)
		if !ok {
			t.Fatalf("Ann never saw the host's last words (out: %+v; the first copy was dropped: %v)", reason, dropped.Load())
		}
		if slices.ContainsFunc(u.Chat, func(l lobby.ChatLine) bool { return l.Text == "last words" }) {
			break
		}
	}
	if !dropped.Load() {
		t.Error("no update was dropped: the test did not test anything")
	}
}

// annAcross starts nodes, has Host make a testgame table on owner and Ann join it
// through via (trying again while the directory reaches via); it returns their places
// and Ann's proxy at via.
func annAcross(t *testing.T, owner, via *Node, nodes ...*Node) (host, ann lobby.Place, pr *proxy) {
	t.Helper()
	for _, n := range nodes {
		if err := n.Start(n.lobby); err != nil {
			t.Fatal(err)
		}
	}
	host, err := owner.lobby.Create(lobby.Player{ID: "SHA256:host", Name: "Host"}, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ann == nil; time.Sleep(20 * time.Millisecond) {
		if ann, err = via.lobby.Join(lobby.Player{ID: "SHA256:ann", Name: "Ann"}, host.Code()); err != nil && time.Now().After(deadline) {
			t.Fatalf("Ann joins through node %s: %v", via.name, err)
		}
	}
	via.mu.Lock()
	for p := range via.proxies {
		pr = p
	}
	via.mu.Unlock()
	return host, ann, pr
}

// Found by the soak: a session sat again at its table (its owner had forgotten it)
// while, during NATS faults, another node claimed the table. The news of the claim came
// while the session was attaching and was passed over, and the attach went to the owner
// the directory had named when it began, whose copy ran on until it noticed. Every call
// the session made afterwards went to a node that no longer answered for the table, and
// the game waited for its player for good. A session that attached during a claim
// follows the table to its new owner.
func TestASessionThatAttachedDuringAClaimFollowsTheTable(t *testing.T) {
	url, _ := natstest.Run(t)
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	held := &heldLog{Store: st, reading: make(chan struct{}), release: make(chan struct{})}
	a, b, c := newNode(t, url, "a", st, testLease), newNode(t, url, "b", st, testLease), newNode(t, url, "c", held, testLease)
	host, ann, pr := annAcross(t, a, b, a, b, c)
	code := host.Code()
	held.code = code
	defer lobby.Run(ann, lobby.Leave{})
	released := false
	defer func() {
		if !released {
			close(held.release)
		}
	}()
	_, first, _ := pr.here()

	// b's beat stands still, so a forgets Ann's member and tells her session, which sits
	// again: its attach begins with a as the owner. Before it goes on, a's beat stands
	// still too (a paused, or cut off from NATS), c claims the table (its restore still
	// reading the log), and b hears of the claim.
	begun, goOn := make(chan string, 1), make(chan struct{})
	hold := func(owner string) {
		select {
		case begun <- owner:
			<-goOn
		default:
		}
	}
	b.holdAttach.Store(&hold)
	for deadline := time.Now().Add(20 * testLease); len(begun) == 0; time.Sleep(testLease / 6) {
		if time.Now().After(deadline) {
			t.Fatal("a did not forget Ann's member, or her session did not sit again")
		}
		a.dropDeparted()
	}
	if owner := <-begun; owner != "a" {
		t.Fatalf("the attach began with %q as the owner; want a", owner)
	}
	claiming := make(chan struct{})
	go func() {
		defer close(claiming)
		for deadline := time.Now().Add(20 * testLease); !c.lobby.Runs(code) && time.Now().Before(deadline); time.Sleep(testLease / 6) {
			c.round()
		}
	}()
	select {
	case <-held.reading:
	case <-time.After(10 * time.Second):
		t.Fatal("c did not claim the table")
	}
	heardClaim(t, b, code, "c")
	// The attach goes on, to a, whose copy still runs; then c's restore reads the log.
	close(goOn)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		pr.mu.Lock()
		atA := pr.id != first && pr.owner == "a"
		pr.mu.Unlock()
		if atA {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Ann's session did not sit again at a")
		}
	}
	released = true
	close(held.release)
	<-claiming

	atC := func() bool {
		_, id, _ := pr.here()
		c.mu.Lock()
		defer c.mu.Unlock()
		ot := c.owned[code]
		return ot != nil && ot.members[id] != nil
	}
	for deadline := time.Now().Add(2 * moveWait); !atC(); time.Sleep(20 * time.Millisecond) {
		if _, _, done := pr.here(); done {
			t.Fatalf("Ann's session ended: %+v", closedWith(t, ann))
		}
		if time.Now().After(deadline) {
			pr.mu.Lock()
			owner := pr.owner
			pr.mu.Unlock()
			t.Fatalf("Ann's session stays with %q; the table's owner is c", owner)
		}
	}
}

// The safety net under that: a session attached to a copy of its table the directory
// has moved on from (whatever made it miss the claim) follows the table as soon as a
// call of its player gets no answer there, and the call is applied at the new owner.
func TestACallThatGetsNoAnswerFollowsAClaimTheSessionMissed(t *testing.T) {
	a, c, ann, _, code, id := missedClaim(t)
	defer lobby.Run(ann, lobby.Leave{})
	// a, back, lets its copy go: the session is attached to a member nobody answers
	// for.
	// a's word that its copy stops is lost on the way (core NATS, a NATS server
	// restarting).
	lose := func(_ string, d delivery) bool { return d.Member == id }
	a.losePublish.Store(&lose)
	for deadline := time.Now().Add(20 * testLease); a.lobby.Runs(code); time.Sleep(testLease / 6) {
		if time.Now().After(deadline) {
			t.Fatalf("a still runs %s, which c claimed", code)
		}
		a.round()
	}

	if err := lobby.Run(ann, lobby.Chat{Text: "still here"}); err != nil {
		t.Fatalf("Ann's chat line: %v", err)
	}
	cat, err := c.lobby.Watch(lobby.Player{ID: "SHA256:cat", Name: "Cat"}, code)
	if err != nil {
		t.Fatal(err)
	}
	u, ok, _ := cat.Next(waitCtx(t))
	if !ok || !slices.ContainsFunc(u.Chat, func(l lobby.ChatLine) bool { return l.Text == "still here" }) {
		t.Fatalf("c's table has not got Ann's line: %+v", u.Chat)
	}
}

// And for a session that makes no call (a player reading the screen, a spectator): the
// old owner's word that its copy stopped comes again after quiet, as an update does, so
// a session that missed both the claim and the first word still follows the table.
func TestTheWordThatACopyStoppedComesAgain(t *testing.T) {
	a, _, ann, pr, code, id := missedClaim(t)
	defer lobby.Run(ann, lobby.Leave{})
	var lost atomic.Bool
	lose := func(_ string, d delivery) bool {
		return d.Member == id && d.Closed != nil && lost.CompareAndSwap(false, true)
	}
	a.losePublish.Store(&lose)
	for deadline := time.Now().Add(20 * testLease); a.lobby.Runs(code); time.Sleep(testLease / 6) {
		if time.Now().After(deadline) {
			t.Fatalf("a still runs %s, which c claimed", code)
		}
		a.round()
	}

	for deadline := time.Now().Add(2 * moveWait); ; time.Sleep(20 * time.Millisecond) {
		pr.mu.Lock()
		owner := pr.owner
		pr.mu.Unlock()
		if owner == "c" {
			break
		}
		if _, _, done := pr.here(); done {
			t.Fatalf("Ann's session ended: %+v", closedWith(t, ann))
		}
		if time.Now().After(deadline) {
			t.Fatalf("Ann's session stays with %q (the first word lost: %v); the table's owner is c", owner, lost.Load())
		}
	}
	if !lost.Load() {
		t.Error("no word was lost: the test tested nothing")
	}
}

// missedClaim starts nodes a, b and c, has Host make a table on a and Ann join it
// through b, and has c claim the table while Ann's session misses the news (as if it
// came while the session moved): the session stays attached to a's copy, whose member
// id it returns.
func missedClaim(t *testing.T) (a, c *Node, ann lobby.Place, pr *proxy, code, id string) {
	t.Helper()
	url, _ := natstest.Run(t)
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	a, b, c := newNode(t, url, "a", st, testLease), newNode(t, url, "b", st, testLease), newNode(t, url, "c", st, testLease)
	host, ann, pr := annAcross(t, a, b, a, b, c)
	code = host.Code()
	pr.mu.Lock()
	pr.moving = true // the claim's news comes while the session moves: passed over
	pr.mu.Unlock()
	for deadline := time.Now().Add(20 * testLease); !c.lobby.Runs(code); time.Sleep(testLease / 6) {
		if time.Now().After(deadline) {
			t.Fatalf("c did not claim %s", code)
		}
		c.round()
	}
	heardClaim(t, b, code, "c")
	pr.mu.Lock()
	pr.moving = false
	missed := pr.owner == "a"
	id = pr.id
	pr.mu.Unlock()
	if !missed {
		t.Fatal("the session followed the claim: the test tests nothing")
	}
	return a, c, ann, pr, code, id
}

// heardClaim waits until node n's directory names owner for the table with code.
func heardClaim(t *testing.T, n *Node, code, owner string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if o, _, _ := n.leaseOf(code); o == owner {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %s never heard that %s claimed the table", n.name, owner)
		}
	}
}

// Found by the cluster soak (seed 2419787588081957316, after a node was stopped and
// started again): a node names its sessions' members at the owners, and a run started
// again under the node's name named them as the run before it did, from 1. An owner
// that still had a member of the old run took the new session's news for the old
// one's: the old member's end (replaced, or a late goodbye of the old run's session)
// put the new session out with "You left the table.". A run's members are its own.
func TestANodeStartedAgainNamesItsMembersAfresh(t *testing.T) {
	url, _ := natstest.Run(t)
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	a, b := newNode(t, url, "a", st, testLease), newNode(t, url, "b", st, testLease)
	_, _, pr := annAcross(t, a, b, a, b)
	_, old, _ := pr.here()
	b.Kill()
	again := newNode(t, url, "b", st, testLease)
	p2 := &proxy{n: again, code: pr.code, player: pr.player, box: lobby.NewMailbox()}
	if err := again.Start(again.lobby); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		err := p2.attach(false)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Ann's session through b started again: %v", err)
		}
	}
	defer lobby.Run(p2, lobby.Leave{})
	if _, id, _ := p2.here(); id == old {
		t.Fatalf("b's new run named Ann's member %q, as its last run did", id)
	}
}

// Found by the cluster soak: a session following its table sat at the new owner, but
// the owner's answer was lost while NATS was slow. The owner had seated the member, so
// the session's next try, under a new member, was refused as a newer connection of the
// player ("You connected again from somewhere else"), and the player was put out of a
// live table. A try now names the one before it that got no answer, and the owner lets
// that one go first — without a word to the session, which took that member for its
// own: the answer lost may be the join's, or the one to the session's word that it
// listens (then the member's updates were already on their way).
func TestAFollowWhoseSeatingWasNotAnsweredTriesAgain(t *testing.T) {
	for _, op := range []string{opJoin, opReady} {
		t.Run(op, func(t *testing.T) {
			a, _, _, _, host, ann, pr := annThroughB(t)
			defer lobby.Run(host, lobby.Leave{})
			defer lobby.Run(ann, lobby.Leave{})
			code := ann.Code()
			// Ann's member at a goes, as when the table is restored at a new owner:
			// the seat is free for her session to take back.
			pr.mu.Lock()
			id := pr.id
			pr.mu.Unlock()
			r := memberOf(t, a, code, id)
			quiet := func(_ string, d delivery) bool { return d.Member == id } // the session hears nothing of it
			a.losePublish.Store(&quiet)
			if err := lobby.Run(r.place, lobby.Disconnect{}); err != nil {
				t.Fatal(err)
			}
			lost := loseFirst(a, op)
			pr.mu.Lock()
			pr.rev = 0 // as if the table had been claimed since
			pr.mu.Unlock()
			pr.reattach()
			for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if _, _, done := pr.here(); done {
					t.Fatalf("Ann's session ended: %+v", closedWith(t, ann))
				}
				if !pr.following() {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("Ann's session still follows its table")
				}
			}
			select {
			case <-lost:
			default:
				t.Fatal("a lost no answer: the test did not test anything")
			}
			time.Sleep(100 * time.Millisecond) // for word of the first member's end, if any
			if _, _, done := pr.here(); done {
				t.Fatalf("Ann's session ended after it sat again: %+v", closedWith(t, ann))
			}
			if err := lobby.Run(ann, lobby.Chat{Text: "still here"}); err != nil {
				t.Errorf("Ann's chat after she sat again: %v", err)
			}
		})
	}
}

// memberOf is the owner's remote member id of the table code; the test fails if there is
// none.
func memberOf(t *testing.T, owner *Node, code, id string) *remote {
	t.Helper()
	owner.mu.Lock()
	defer owner.mu.Unlock()
	r := owner.owned[code].members[id]
	if r == nil {
		t.Fatalf("node %s has no member %s at %s", owner.name, id, code)
	}
	return r
}

// A session that followed its table to its own node, and whose node's copy then
// stopped as another node's ("This table moved to another server"), follows the table
// wherever it runs next, though that is its own node again: a node whose copy was
// refused as another writer's while its lease stood claims the table straight back,
// and a session that looked after the claim found the table running here, took the
// copy's notice for the last word and told its player to connect again.
func TestASessionFollowsItsTableWhenItsNodeClaimsItStraightBack(t *testing.T) {
	b, ann, pr, first := annFollowedToB(t)
	code := ann.Code()

	// b's copy stops as taken over, and b claims the table straight back, all before
	// Ann's session looks (it waits for its lock).
	func() {
		pr.mu.Lock()
		defer pr.mu.Unlock()
		handOver(t, b, b, code, lobby.TakenOverNotice)
	}()
	followed(t, pr, ann, first)
	if err := lobby.Run(ann, lobby.Chat{Text: "still here"}); err != nil {
		t.Fatalf("Ann's chat at b's new copy: %v", err)
	}
}

// annFollowedToB is annThroughB with the table moved from a to b, Ann's node, and her
// session followed to its copy there (first); both players leave at the test's end.
func annFollowedToB(t *testing.T) (b *Node, ann lobby.Place, pr *proxy, first lobby.Place) {
	t.Helper()
	a, b, _, _, host, ann, pr := annThroughB(t)
	t.Cleanup(func() {
		_ = lobby.Run(ann, lobby.Leave{})
		_ = lobby.Run(host, lobby.Leave{})
	})
	handOver(t, a, b, ann.Code(), lobby.MovedNotice)
	return b, ann, pr, followed(t, pr, ann, nil)
}

// handOver has from let code go with notice and release its lease, and to claim it
// (to may be from, claiming it back).
func handOver(t *testing.T, from, to *Node, code string, notice lobby.Closed) {
	t.Helper()
	from.mu.Lock()
	rev := from.owned[code].rev
	from.mu.Unlock()
	from.letGo(code, notice)
	from.releaseLease(code, rev)
	for deadline := time.Now().Add(10 * time.Second); !to.lobby.Runs(code); time.Sleep(testLease / 6) {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not claim %s", to.name, code)
		}
		to.round()
	}
}

// followed waits until the session of pr (whose member is ann) is attached to a copy
// of its table on its own node other than old, and returns it; the session must not
// end meanwhile.
func followed(t *testing.T, pr *proxy, ann lobby.Place, old lobby.Place) lobby.Place {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		local, _, done := pr.here()
		if done {
			t.Fatalf("Ann's session ended instead of following the table: %+v", closedWith(t, ann))
		}
		if local != nil && local != old {
			return local
		}
		if time.Now().After(deadline) {
			t.Fatal("Ann's session did not follow the table to Ann's node")
		}
	}
}

// A call that meets its node's stopped copy in the instant the node has claimed the
// table straight back, before the session has followed it there, waits for the session
// and goes to the new copy: it was not applied, and it was answered "the table is
// moving: try again" when the proxy took the node's running the table for the copy's
// own answer.
func TestACallInAClaimBacksInstantGoesToTheNewCopy(t *testing.T) {
	b, ann, _, _ := annFollowedToB(t)
	code := ann.Code()

	// The session's following of b's next copy waits until the call has met the old one.
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	hold := func(string) {
		once.Do(func() { close(entered) })
		<-release
	}
	b.holdAttach.Store(&hold)
	defer func() {
		b.holdAttach.Store(nil)
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	handOver(t, b, b, code, lobby.TakenOverNotice)
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("Ann's session did not start to follow the table")
	}
	answer := make(chan error, 1)
	go func() { answer <- lobby.Run(ann, lobby.Chat{Text: "still here"}) }()
	select {
	case err := <-answer:
		t.Fatalf("Ann's chat, sent while her session followed the table: %v before it followed; want it to wait", err)
	case <-time.After(time.Second): // it waits: the session cannot follow until released
	}
	close(release)
	select {
	case err := <-answer:
		if err != nil {
			t.Fatalf("Ann's chat, sent while her session followed the table: %v; want ok at the new copy", err)
		}
	case <-time.After(2 * moveWait):
		t.Fatal("Ann's chat was never answered")
	}
}
