package cluster

import (
	"context"
	"sync"
	"testing"
	"time"

	"parlor/internal/testkit/natstest"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/store"
)

// loseFirst has n drop its answer to the first request of op it serves, and closes
// the returned channel then.
func loseFirst(n *Node, op string) <-chan struct{} {
	lost := make(chan struct{})
	var once sync.Once
	lose := func(req request) bool {
		if req.Op != op {
			return false
		}
		dropped := false
		once.Do(func() { dropped = true; close(lost) })
		return dropped
	}
	n.loseReply.Store(&lose)
	return lost
}

// startGame has the host start a game of the table.
func startGame(t *testing.T, host lobby.Place) {
	t.Helper()
	if err := lobby.Run(host, lobby.Start{}); err != nil {
		t.Fatalf("start: %v", err)
	}
}

// Found by the soak: a remote session's call whose answer did not come within callWait
// (NATS slow, the owner dying) was answered "the table is moving: try again", though
// the owner may have applied it, and a player who tried again could apply it twice.
// Now every call carries an id; with no answer the proxy sends the same call again,
// and the owner answers a call it has applied with its result instead of applying it
// again. Here the owner's answer is lost on the way: the player is told "ok", once.
func TestACallWhoseAnswerWasLostIsAnsweredOnce(t *testing.T) {
	a, _, st, _, host, ann, _ := annThroughB(t)
	defer lobby.Run(host, lobby.Leave{})
	defer lobby.Run(ann, lobby.Leave{})
	startGame(t, host)
	lost := loseFirst(a, (lobby.Act{}).Op())
	if err := lobby.Run(ann, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Errorf("Ann's pick, whose first answer was lost: %v; want ok", err)
	}
	select {
	case <-lost:
	default:
		t.Fatal("the owner lost no answer: the test did not test anything")
	}
	if n := testgame.Acts(t, st, ann.Code(), 1); n != 1 {
		t.Errorf("the log holds %d picks of Ann's; want 1", n)
	}
}

// The same across a failover: the owner applied the call and logged it, then died
// before it answered. The node that takes the table over knows the call from the log
// (its id travels in the entry) and answers the proxy's second try with "ok".
func TestACallAppliedByAnOwnerThatDiedIsNotAppliedAgain(t *testing.T) {
	a, b, st, host, ann := annThroughC(t)
	code := host.Code()
	defer lobby.Run(ann, lobby.Leave{})
	startGame(t, host)
	if err := answeredAfterItsOwnerDied(t, a, b, code, ann, lobby.ActOf(testgame.Pick(2))); err != nil {
		t.Errorf("Ann's pick, applied by the owner that died: %v; want ok", err)
	}
	if n := testgame.Acts(t, st, code, 1); n != 1 {
		t.Errorf("the log holds %d picks of Ann's; want 1", n)
	}
}

// annThroughC has the host at a table owned by node a, and Ann at it through node c,
// with node b beside them, over one store.
func annThroughC(t *testing.T) (a, b *Node, st store.Store, host, ann lobby.Place) {
	t.Helper()
	url, _ := natstest.Run(t)
	st = store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	a, b, c := newNode(t, url, "a", st, testLease), newNode(t, url, "b", st, testLease), newNode(t, url, "c", st, testLease)
	host, ann, _ = annAcross(t, a, c, a, b, c)
	return a, b, st, host, ann
}

// answeredAfterItsOwnerDied has from (a proxy) send req: owner a applies and logs it,
// loses its answer and dies, and b claims the table. It returns the answer the proxy's
// next try gets, from b.
func answeredAfterItsOwnerDied(t *testing.T, a, b *Node, code string, from lobby.Place, req lobby.Request) error {
	t.Helper()
	lost := loseFirst(a, req.Op())
	answer := make(chan error, 1)
	go func() { _, err := from.Call(req); answer <- err }()
	select {
	case <-lost:
	case <-time.After(10 * time.Second):
		t.Fatalf("the %s call never reached the owner", req.Op())
	}
	// a dies with the call applied and logged, unanswered. (Its lobby's copy of the
	// table stays behind, idle: nothing happens at it that it would write.)
	a.Kill()
	for deadline := time.Now().Add(20 * testLease); !b.lobby.Runs(code); time.Sleep(testLease / 6) {
		if time.Now().After(deadline) {
			t.Fatalf("b did not claim %s after a died", code)
		}
		b.round()
	}
	select {
	case err := <-answer:
		return err
	case <-time.After(2 * moveWait):
		t.Fatalf("the %s call was never answered", req.Op())
		return nil
	}
}

// So is a host's control, which carries its id into the log as an action does: Ann,
// the host through node c, adds a bot; the owner applies and logs it, then dies before
// it answers, and the node that takes the table over answers the second try "ok"
// without a second bot. (A kick sent again removed whoever had moved up into the seat.)
func TestAHostControlAppliedByAnOwnerThatDiedIsNotAppliedAgain(t *testing.T) {
	a, b, _, host, ann := annThroughC(t)
	code := host.Code()
	defer lobby.Run(ann, lobby.Leave{})
	if err := lobby.Run(host, lobby.MakeHost{Seat: 1}); err != nil {
		t.Fatal(err)
	}
	if err := answeredAfterItsOwnerDied(t, a, b, code, ann, lobby.AddBot{}); err != nil {
		t.Errorf("Ann's bot, added by the owner that died: %v; want ok", err)
	}
	// Every call before it was answered: the update that shows Ann's line shows the
	// seats as they stay.
	if err := lobby.Run(ann, lobby.Chat{Text: "sync"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		u, ok, why := ann.Next(ctx)
		if !ok {
			t.Fatalf("Ann is out of the table: %s", why.Text)
		}
		if n := len(u.Chat); n == 0 || u.Chat[n-1].Text != "sync" {
			continue
		}
		bots := 0
		for _, s := range u.Table.Seats {
			if s.Bot {
				bots++
			}
		}
		if bots != 1 {
			t.Errorf("the table has %d bots after Ann added one, her call sent twice; want 1", bots)
		}
		return
	}
}

// So is a report, which the owner files in the store outside the table's step: Ann,
// through node c, reports the host; the owner files it, then dies before it answers,
// and the node that takes the table over answers the second try without a second
// report for the admins.
func TestAReportFiledByAnOwnerThatDiedIsFiledOnce(t *testing.T) {
	a, b, st, host, ann := annThroughC(t)
	defer lobby.Run(ann, lobby.Leave{})
	if err := answeredAfterItsOwnerDied(t, a, b, host.Code(), ann, lobby.ReportPlayer{Seat: 0, Reason: "rude"}); err != nil {
		t.Errorf("Ann's report, filed by the owner that died: %v; want ok", err)
	}
	reports, err := st.Reports(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != 1 || reports[0].AboutName != "Host" || reports[0].Call == "" {
		t.Errorf("the admins have %d reports after Ann sent one, her call twice: %+v; want 1, with its call", len(reports), reports)
	}
}
