package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"parlor/lobby"
	"parlor/rules"
)

// The owner's side: for each table it owns, a node answers requests on the table's
// request subject. A join or watch makes a local lobby member for the remote session (a
// remote); a pump publishes that member's updates on its seat's subject only, and only
// once the proxy said it listens there (ready), so no update goes out unheard.

// remote is another node's session at a table this node owns.
type remote struct {
	id, code, node string
	player         string    // the player's id: their calls are remembered by it
	ot             *ownTable // the table's ownership here; handoff is read under Node.mu
	place          lobby.Place
	ready          chan string // subjects the proxy listens on, newest first
	since          time.Time   // admitted: its node's presence may not have arrived yet
	// dropped: disconnected because its node was taken for gone (dropDeparted); a
	// node that hears of it is not gone, and its session sits again.
	dropped atomic.Bool
	// superseded: let go for a later try of the same proxy (request.Retry), which took
	// this member for its own: its end is not told on the seat's subject.
	superseded atomic.Bool
}

// errBadRequest answers a request that does not decode.
var errBadRequest = errors.New("bad request")

// readyWait is how long a pump waits for a proxy to listen before it gives the
// session up as gone.
const readyWait = 10 * time.Second

// own makes this node the owner of code with lease revision rev: it answers requests.
func (n *Node) own(code string, rev uint64) error {
	ot := &ownTable{rev: rev, members: map[string]*remote{}, calls: map[string]sentCall{}}
	sub, err := n.nc.Subscribe(reqSubject(code), func(m *nats.Msg) { n.serve(code, m) })
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", reqSubject(code), err)
	}
	ot.sub = sub
	n.mu.Lock()
	n.owned[code] = ot
	n.mu.Unlock()
	return nil
}

// disown stops answering for a table.
func (n *Node) disown(ot *ownTable) {
	if ot.sub != nil {
		_ = ot.sub.Unsubscribe()
	}
}

// letGo stops a table this node no longer holds the lease of; its members are told.
func (n *Node) letGo(code string, notice lobby.Closed) {
	n.mu.Lock()
	ot := n.owned[code]
	if ot != nil {
		ot.handoff = true // its members re-attach wherever it goes
	}
	n.mu.Unlock()
	n.lobby.Handoff(code, notice)
	n.mu.Lock()
	delete(n.owned, code)
	n.mu.Unlock()
	if ot != nil {
		n.disown(ot)
	}
}

// serve answers one request for a table this node owns. Requests of one table are
// served one at a time, in order, like the calls of a local member.
func (n *Node) serve(code string, m *nats.Msg) {
	var req request
	if err := json.Unmarshal(m.Data, &req); err != nil {
		n.respond(m, failed(errBadRequest))
		return
	}
	if req.To != "" && req.To != n.name {
		return // for the node that owns the table now: it answers
	}
	if req.Op == opJoin || req.Op == opWatch {
		rep := n.admit(code, req)
		if lose := n.loseReply.Load(); lose != nil && (*lose)(req) {
			return
		}
		n.respond(m, rep)
		return
	}
	n.mu.Lock()
	var r *remote
	if ot := n.owned[code]; ot != nil {
		r = ot.members[req.Member]
	}
	n.mu.Unlock()
	if r == nil {
		rep := failed(lobby.ErrTableClosed)
		rep.Forgotten = true
		n.respond(m, rep)
		return
	}
	rep := n.call(r, req)
	if lose := n.loseReply.Load(); lose != nil && (*lose)(req) {
		return
	}
	n.respond(m, rep)
}

func (n *Node) respond(m *nats.Msg, r reply) {
	b, _ := json.Marshal(r)
	_ = m.Respond(b)
}

// admit seats (or lets watch) a remote player and answers with the first update.
func (n *Node) admit(code string, req request) reply {
	if req.Player == nil || req.Member == "" {
		return failed(errBadRequest)
	}
	n.letGoUnanswered(code, req)
	var place lobby.Place
	var err error
	switch {
	case req.Op == opJoin && req.Rejoin:
		place, err = n.lobby.Rejoin(*req.Player, code)
	case req.Op == opJoin:
		place, err = n.lobby.Join(*req.Player, code)
	default:
		place, err = n.lobby.Watch(*req.Player, code)
	}
	if err != nil {
		return failed(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), readyWait)
	u, ok, reason := place.Next(ctx)
	cancel()
	if !ok {
		_ = lobby.Run(place, lobby.Disconnect{})
		return reply{Err: &rules.Wire{Text: reason.Text}}
	}
	w, err := encodeUpdate(u)
	if err != nil {
		_ = lobby.Run(place, lobby.Disconnect{})
		return failed(err)
	}
	n.mu.Lock()
	ot := n.owned[code]
	r := &remote{id: req.Member, code: code, node: req.Node, player: req.Player.ID, ot: ot, place: place, ready: make(chan string, 1), since: time.Now()}
	if ot != nil {
		ot.members[r.id] = r
	}
	n.mu.Unlock()
	if ot == nil {
		_ = lobby.Run(place, lobby.Disconnect{})
		return failed(lobby.ErrTableClosed)
	}
	n.wg.Add(1)
	go n.pump(r, seatSubject(code, u.Seat))
	return reply{Update: w}
}

// letGoUnanswered disconnects the member a proxy's earlier try of a join made, if this
// node seated it: the proxy never heard the answer, or the owner never heard it listen
// (req.Retry). The proxy is not told: it took that member for its own.
func (n *Node) letGoUnanswered(code string, req request) {
	if req.Retry == "" {
		return
	}
	n.mu.Lock()
	var old *remote
	if ot := n.owned[code]; ot != nil {
		if r := ot.members[req.Retry]; r != nil && r.player == req.Player.ID && r.node == req.Node {
			old = r
			delete(ot.members, r.id)
		}
	}
	n.mu.Unlock()
	if old != nil {
		old.superseded.Store(true)
		_ = lobby.Run(old.place, lobby.Disconnect{})
	}
}

// call runs one of a remote member's requests on its local member: ready, or any table
// operation, decoded by its name.
func (n *Node) call(r *remote, req request) reply {
	if req.Op == opReady {
		select { // only the newest subject counts
		case <-r.ready:
		default:
		}
		r.ready <- req.Listen
		return reply{}
	}
	op, err := lobby.DecodeRequest(req.Op, req.Args)
	if err != nil {
		return failed(err)
	}
	// A call sent again (its answer did not reach the proxy) gets the answer it got.
	// Requests of one table are served one at a time, so the first try is done.
	n.mu.Lock()
	last, again := r.ot.calls[r.player]
	n.mu.Unlock()
	if again && req.Call != "" && last.id == req.Call {
		return last.rep
	}
	var res any
	if once, ok := r.place.(interface {
		CallOnce(string, lobby.Request) (any, error)
	}); ok {
		res, err = once.CallOnce(req.Call, op)
	} else {
		res, err = r.place.Call(op)
	}
	raw, encErr := lobby.EncodeResult(res)
	if err == nil && encErr != nil {
		err = encErr
	}
	rep := reply{Err: rules.ToWire(err), Result: raw}
	rep.Moved = errors.Is(err, lobby.ErrMoving) && !n.lobby.Runs(r.code)
	if req.Call != "" && !rep.Moved {
		n.mu.Lock()
		r.ot.calls[r.player] = sentCall{id: req.Call, rep: rep}
		n.mu.Unlock()
	}
	return rep
}

// sentCall is a player's last call to a table and its answer.
type sentCall struct {
	id  string
	rep reply
}

// Updates go out on core NATS, at most once: one published while the owner's or the
// proxy's connection moves to another NATS server is lost. A pump sends its newest
// update again (same seq: a proxy that has it drops it) after resendAfter of quiet,
// then after twice that, and so on, resends times, so that a table's last update
// before a quiet spell (a game over, waiting for its host) is not lost for good; so
// with the news that the member is out.
const (
	resendAfter = time.Second
	resends     = 4
)

// pump publishes a remote member's updates on its seat's subject; listen is the subject
// the proxy subscribes to first (the seat of the first update).
func (n *Node) pump(r *remote, listen string) {
	defer n.wg.Done()
	defer n.forgetRemote(r)
	var seq uint64
	if !n.awaitReady(r, listen) {
		_ = lobby.Run(r.place, lobby.Disconnect{})
		return
	}
	var last *delivery // the newest update published, and how often it went again
	again := 0
	for {
		wait, cancel := n.ctx, context.CancelFunc(func() {})
		if last != nil && again < resends {
			wait, cancel = context.WithTimeout(n.ctx, resendAfter<<again)
		}
		u, ok, reason := r.place.Next(wait)
		quiet := !ok && wait.Err() != nil && n.ctx.Err() == nil
		cancel()
		if quiet {
			n.publish(listen, *last)
			again++
			continue
		}
		if !ok {
			if n.ctx.Err() != nil || r.superseded.Load() {
				return // this node stops (the proxies notice the lease move), or the proxy tries again
			}
			n.mu.Lock()
			handoff := r.ot.handoff
			n.mu.Unlock()
			seq++
			closing := delivery{Member: r.id, Seq: seq, Closed: &reason, Handoff: handoff, Forgotten: r.dropped.Load()}
			n.publish(listen, closing)
			n.forgetRemote(r) // now: its calls are a forgotten member's from here on
			// Sent again as an update is, after quiet: a session that missed it (and
			// the claim that moved its table on) would wait on this copy for good.
			for again := range resends {
				select {
				case <-time.After(resendAfter << again):
					n.publish(listen, closing)
				case <-n.ctx.Done():
					return
				}
			}
			return
		}
		if subj := seatSubject(r.code, u.Seat); subj != listen {
			seq++
			n.publish(listen, delivery{Member: r.id, Seq: seq, Moved: true, Seat: u.Seat})
			listen, last = subj, nil
			if !n.awaitReady(r, listen) {
				_ = lobby.Run(r.place, lobby.Disconnect{})
				return
			}
		}
		w, err := encodeUpdate(u)
		if err != nil {
			n.log.Error("could not encode an update", "table", r.code, "err", err)
			continue
		}
		seq++
		last, again = &delivery{Member: r.id, Seq: seq, Update: w}, 0
		n.publish(listen, *last)
	}
}

// awaitReady waits until the proxy listens on subject.
func (n *Node) awaitReady(r *remote, subject string) bool {
	timeout := time.NewTimer(readyWait)
	defer timeout.Stop()
	for {
		select {
		case s := <-r.ready:
			if s == subject {
				return true
			}
		case <-timeout.C:
			return false
		case <-n.ctx.Done():
			return false
		}
	}
}

func (n *Node) publish(subject string, d delivery) {
	if lose := n.losePublish.Load(); lose != nil && (*lose)(subject, d) {
		return
	}
	b, err := json.Marshal(d)
	if err != nil {
		return
	}
	if err := n.nc.Publish(subject, b); err != nil {
		n.log.Debug("could not publish an update", "subject", subject, "err", err)
	}
}

func (n *Node) forgetRemote(r *remote) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if r.ot.members[r.id] == r {
		delete(r.ot.members, r.id)
	}
}
