package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"parlor/lobby"
)

// proxy is a session's place at a table another node runs (lobby.Place). Its calls go
// to the owner by request/reply; it subscribes to its own seat's subject only. When the
// table moves (the owner stopped, or handed it over), the proxy attaches to the new
// owner by itself — or to this node's own lobby, if the table came here — and the
// player's seat, bound to their key, is theirs again there.
type proxy struct {
	n      *Node
	code   string
	player lobby.Player
	watch  bool
	box    *lobby.Mailbox

	mu      sync.Mutex
	id      string // this attachment's member id at the owner
	owner   string
	rev     uint64 // the directory entry's revision when it attached: a claim changes it
	sub     *nats.Subscription
	subject string // the subject sub listens on
	seq     uint64
	local   lobby.Place // the table runs on this node now: calls go straight to it
	moving  bool        // re-attaching
	done    bool        // left, or out of the table for good
	// unanswered: the member of the last try to attach that got no answer, which the
	// owner may have seated (request.Retry).
	unanswered string
}

// Timeouts: a call waits callWait for the owner's answer; a moving table has moveWait to
// come back on another node before its players are told to connect again.
const (
	callWait = 5 * time.Second
	moveWait = 20 * time.Second
)

// errMoving is what a call gets while the table changes nodes.
var errMoving = lobby.ErrMoving

// errNoAnswer is a request that got no answer within callWait: the owner may have
// served it, or not.
var errNoAnswer = errors.New("the table's server did not answer")

// errNoOwner is a request nobody heard (no node serves the table for a moment): it is
// the table moving, and nothing was applied.
var errNoOwner error = noOwner{}

type noOwner struct{}

func (noOwner) Error() string { return errMoving.Error() }
func (noOwner) Unwrap() error { return errMoving }

// Join implements lobby.Cluster: it attaches a proxy at the table's owner.
func (n *Node) Join(p lobby.Player, code string, watch bool) (lobby.Place, error) {
	pr := &proxy{n: n, code: code, player: p, watch: watch, box: lobby.NewMailbox()}
	if err := pr.attach(false); err != nil {
		return nil, err
	}
	n.mu.Lock()
	n.proxies[pr] = struct{}{}
	n.mu.Unlock()
	return pr, nil
}

func (n *Node) ownerOf(code string) (string, bool) {
	owner, _, ok := n.leaseOf(code)
	return owner, ok
}

// leaseOf is the owner of a table and its entry's revision, as this node last saw them.
func (n *Node) leaseOf(code string) (string, uint64, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	l, ok := n.dir[code]
	return l.Node, l.rev, ok
}

// attach joins (or watches) the table wherever it runs now; rejoin when it follows the
// table after a move (Lobby.Rejoin: a newer connection of the player keeps the seat).
func (pr *proxy) attach(rejoin bool) error {
	n := pr.n
	owner, rev, ok := n.leaseOf(pr.code)
	if hold := n.holdAttach.Load(); hold != nil {
		(*hold)(owner)
	}
	if !ok {
		return lobby.ErrNoTable
	}
	if owner == "" {
		return errMoving
	}
	if owner == n.name {
		if n.stale(pr.code) {
			return errMoving
		}
		return pr.attachHere(rejoin, rev)
	}
	// The run's id is in it: a node started again under its name must not name a
	// member as its last run did, whose member an owner may still hold.
	id := n.name + "-" + n.runID + "-" + strconv.FormatUint(n.nextID.Add(1), 10)
	op := opJoin
	if pr.watch {
		op = opWatch
	}
	pr.mu.Lock()
	retry := pr.unanswered
	pr.mu.Unlock()
	rep, err := pr.request(request{Op: op, Member: id, To: owner, Node: n.name, Player: &pr.player, Rejoin: rejoin, Retry: retry})
	if errors.Is(err, errNoAnswer) {
		pr.mu.Lock()
		pr.unanswered = id // the owner may have seated it: the next try says so
		pr.mu.Unlock()
		return errMoving
	}
	if err != nil {
		return err
	}
	if rep.Update == nil {
		return errMoving
	}
	u, err := rep.Update.decode()
	if err != nil {
		return err
	}
	subject := seatSubject(pr.code, u.Seat)
	sub, err := n.nc.Subscribe(subject, pr.deliver)
	if err != nil {
		return err
	}
	pr.mu.Lock()
	if pr.sub != nil {
		_ = pr.sub.Unsubscribe()
	}
	pr.id, pr.owner, pr.rev, pr.sub, pr.subject, pr.seq, pr.local, pr.unanswered = id, owner, rev, sub, subject, 0, nil, ""
	pr.mu.Unlock()
	pr.box.Put(u)
	_, err = pr.request(request{Op: opReady, Member: id, Listen: subject})
	if errors.Is(err, errNoAnswer) {
		pr.mu.Lock()
		pr.unanswered = id // seated, and may not hear it listens: the next try lets it go
		pr.mu.Unlock()
		return errMoving
	}
	return err
}

// attachHere sits at the table in this node's own lobby, where it runs now.
func (pr *proxy) attachHere(rejoin bool, rev uint64) error {
	var place lobby.Place
	var err error
	switch {
	case pr.watch:
		place, err = pr.n.lobby.Watch(pr.player, pr.code)
	case rejoin:
		place, err = pr.n.lobby.Rejoin(pr.player, pr.code)
	default:
		place, err = pr.n.lobby.Join(pr.player, pr.code)
	}
	if err != nil {
		return err
	}
	pr.mu.Lock()
	if pr.sub != nil {
		_ = pr.sub.Unsubscribe()
		pr.sub = nil
	}
	pr.id, pr.owner, pr.rev, pr.local = "", pr.n.name, rev, place
	pr.mu.Unlock()
	go pr.forward(place)
	return nil
}

// forward passes a local member's updates on, until it is out of the table.
func (pr *proxy) forward(place lobby.Place) {
	for {
		u, ok, reason := place.Next(context.Background())
		if !ok {
			pr.mu.Lock()
			current := pr.local == place
			pr.mu.Unlock()
			if current {
				// A copy that stopped as moved has its members follow the table, to
				// this node too: a node whose copy was refused as another writer's
				// may claim the table straight back, and run it again by now.
				pr.lost(reason, reason.Why == lobby.WhyMoved || !pr.n.lobby.Runs(pr.code))
			}
			return
		}
		pr.box.Put(u)
	}
}

// deliver takes one message from the seat's subject.
func (pr *proxy) deliver(m *nats.Msg) {
	var d delivery
	if json.Unmarshal(m.Data, &d) != nil {
		return
	}
	pr.mu.Lock()
	if d.Member != pr.id || d.Seq <= pr.seq || pr.done {
		pr.mu.Unlock()
		return
	}
	pr.seq = d.Seq
	pr.mu.Unlock()
	switch {
	case d.Update != nil:
		if u, err := d.Update.decode(); err == nil {
			pr.box.Put(u)
		} else {
			pr.n.log.Error("could not decode an update", "table", pr.code, "err", err)
		}
	case d.Moved:
		go pr.listen(d.Member, seatSubject(pr.code, d.Seat))
	case d.Closed != nil && d.Forgotten:
		go pr.sitAgain(d.Member) // this node is not gone: it heard the news
	case d.Closed != nil:
		pr.lost(*d.Closed, d.Handoff)
	}
}

// listen moves the subscription to the member's new seat and tells the owner.
func (pr *proxy) listen(id, subject string) {
	sub, err := pr.n.nc.Subscribe(subject, pr.deliver)
	if err != nil {
		return
	}
	pr.mu.Lock()
	if pr.id != id || pr.done {
		pr.mu.Unlock()
		_ = sub.Unsubscribe()
		return
	}
	if pr.sub != nil {
		_ = pr.sub.Unsubscribe()
	}
	pr.sub, pr.subject = sub, subject
	pr.mu.Unlock()
	_, _ = pr.request(request{Op: opReady, Member: id, Listen: subject})
}

// lost is the end of this attachment: the table moved (then the proxy attaches again
// where it went), or the member is out for reason.
func (pr *proxy) lost(reason lobby.Closed, moved bool) {
	if moved {
		pr.reattach()
		return
	}
	pr.finish(reason)
}

// claimed is the directory's news that the table changed hands: owner claimed it, at
// revision rev. A claim by the node the proxy is attached to is that node started
// again (it takes its own tables back), or the proxy attached after the claim; the
// proxy asks it whether it still knows its member (claimedAgain).
func (pr *proxy) claimed(owner string, rev uint64) {
	pr.mu.Lock()
	same, seen := owner == pr.owner, rev == pr.rev
	pr.mu.Unlock()
	switch {
	case !same:
		pr.reattach()
	case !seen:
		go pr.claimedAgain()
	}
}

// claimedAgain follows a table whose owner claimed it again under the same name: a node
// killed and started again, whose new run never had this proxy's member. The proxy
// attaches again there once the owner says it does not know its member (while the
// node starts, nobody may answer: it asks again, until moveWait).
func (pr *proxy) claimedAgain() {
	deadline := time.Now().Add(moveWait)
	for time.Now().Before(deadline) && !pr.n.gone.Load() {
		pr.mu.Lock()
		id, listen, remote := pr.id, pr.subject, pr.local == nil && !pr.done && !pr.moving
		pr.mu.Unlock()
		if !remote {
			return // out, or following the table already
		}
		rep, err := pr.request(request{Op: opReady, Member: id, Listen: listen})
		if rep.Forgotten {
			pr.reattach()
			return
		}
		if err == nil {
			return // the owner knows it: nothing changed for it
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// reattach follows the table to its new node, retrying until moveWait has passed.
func (pr *proxy) reattach() {
	pr.mu.Lock()
	if pr.done || pr.moving {
		pr.mu.Unlock()
		return
	}
	pr.moving = true
	old, oldRev := pr.owner, pr.rev
	pr.mu.Unlock()
	go func() {
		deadline := time.Now().Add(moveWait)
		var err error
		var closed closedCheck
		for time.Now().Before(deadline) && !pr.n.gone.Load() {
			owner, rev, ok := pr.n.leaseOf(pr.code)
			if !ok {
				// No directory entry: the table closed (its key is deleted when it
				// does), or this node's view of the directory lacks it for a moment
				// (seen while NATS servers were killed). Only a close the store knows
				// of is one.
				err = errMoving
				if closed.known(pr.n, pr.code) {
					err = lobby.ErrTableClosed
					break
				}
			} else if owner != "" && (owner != old || rev != oldRev) {
				if err = pr.attach(true); err == nil {
					pr.n.log.Info("session followed its table to another node", "table", pr.code, "node", owner)
					pr.moved()
					return
				}
				if errors.Is(err, lobby.ErrStarted) || errors.Is(err, lobby.ErrFull) || errors.Is(err, lobby.ErrReplaced) {
					break
				}
				// The node it went to says it has closed: so it has if the store
				// knows (the node may only be letting its copy go, as it moves on).
				if errors.Is(err, lobby.ErrTableClosed) && closed.known(pr.n, pr.code) {
					break
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
		pr.finish(lostReason(err))
	}()
}

// closedCheck asks the store whether a table's close is recorded, at most once every
// closedCheckEvery while a proxy follows its table.
type closedCheck struct{ last time.Time }

const closedCheckEvery = 500 * time.Millisecond

// known reports whether the table's close is known: its log is gone from the store
// (a table's log is removed when it closes; one moving keeps it). A store that cannot
// be read now knows nothing.
func (c *closedCheck) known(n *Node, code string) bool {
	if time.Since(c.last) < closedCheckEvery {
		return false
	}
	c.last = time.Now()
	ctx, cancel := n.opCtx()
	defer cancel()
	open, err := n.lobby.HasLog(ctx, code)
	return err == nil && !open
}

// lostReason is what a session is told when its proxy could not attach again.
func lostReason(err error) lobby.Closed {
	switch {
	case errors.Is(err, lobby.ErrTableClosed):
		return lobby.Closed{Why: lobby.WhyClosed, Text: "The table has closed."}
	case errors.Is(err, lobby.ErrReplaced):
		return lobby.Replaced
	}
	return lobby.Closed{Why: lobby.WhyLost, Text: "The table moved to another server and could not be reached: connect again to get back to your seat."}
}

// check asks the owner whether it still knows this proxy's member, and sits again if
// it does not. The owner disconnects the sessions of a node that went quiet for a lease
// (dropDeparted) and tells them on their seat's subject; a node cut off from NATS for
// that long never hears it, and its sessions would wait for updates that no longer
// come, their seats away, the game waiting for them. The node checks after such a gap.
func (pr *proxy) check() {
	pr.mu.Lock()
	id, listen, remote := pr.id, pr.subject, pr.local == nil && !pr.done && !pr.moving
	pr.mu.Unlock()
	if !remote {
		return
	}
	if rep, _ := pr.request(request{Op: opReady, Member: id, Listen: listen}); rep.Forgotten {
		pr.sitAgain(id)
	}
}

// sitAgain attaches again at the owner that forgot member id, as a reconnect does (the
// seat is bound to the player's key); if that fails the session is told to connect.
func (pr *proxy) sitAgain(id string) {
	pr.mu.Lock()
	if pr.done || pr.moving || pr.id != id {
		pr.mu.Unlock()
		return
	}
	pr.moving = true
	pr.mu.Unlock()
	if err := pr.attach(true); err != nil {
		pr.mu.Lock()
		pr.moving = false
		pr.mu.Unlock()
		pr.finish(lostReason(err))
		return
	}
	pr.n.log.Info("session sat again at its table after its node was away", "table", pr.code)
	pr.moved()
}

// moved ends a move (reattach, sitAgain) that attached the proxy, and follows the table
// again if its directory entry changed hands meanwhile: the news of that claim came
// while the proxy was busy and was passed over (claimed), and the attach may have gone
// to the owner the directory named when it began, whose copy is on its way out. Found
// by the soak: a session sat again at such a copy during NATS faults, every call it
// made afterwards went to a node that no longer answered for the table, and its game
// waited for it for good.
func (pr *proxy) moved() {
	pr.mu.Lock()
	pr.moving = false
	pr.mu.Unlock()
	pr.recheck()
}

// recheck follows the table if the directory names another owner (or a newer claim)
// than the one the proxy is attached to.
func (pr *proxy) recheck() {
	if owner, rev, ok := pr.n.leaseOf(pr.code); ok && owner != "" {
		pr.claimed(owner, rev)
	}
}

// finish ends the proxy; its session is told reason.
func (pr *proxy) finish(reason lobby.Closed) {
	pr.mu.Lock()
	if pr.done {
		pr.mu.Unlock()
		return
	}
	pr.done = true
	if pr.sub != nil {
		_ = pr.sub.Unsubscribe()
		pr.sub = nil
	}
	pr.mu.Unlock()
	pr.n.mu.Lock()
	delete(pr.n.proxies, pr)
	pr.n.mu.Unlock()
	pr.box.Close(reason)
}

// request sends one call to the table's owner.
func (pr *proxy) request(req request) (reply, error) {
	if req.To == "" {
		pr.mu.Lock()
		req.To = pr.owner
		pr.mu.Unlock()
	}
	b, err := json.Marshal(req)
	if err != nil {
		return reply{}, err
	}
	m, err := pr.n.nc.Request(reqSubject(pr.code), b, callWait)
	if errors.Is(err, nats.ErrNoResponders) {
		return reply{}, errNoOwner
	}
	if err != nil {
		return reply{}, errNoAnswer
	}
	var rep reply
	if err := json.Unmarshal(m.Data, &rep); err != nil {
		return reply{}, err
	}
	return rep, rep.Err.Err()
}

// here is the local member when the table runs on this node (nil otherwise), the
// member's id at the owner, and whether the proxy is out of its table.
func (pr *proxy) here() (lobby.Place, string, bool) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return pr.local, pr.id, pr.done
}

// following tells whether the proxy is attaching again (the table moves, or its owner
// forgot it).
func (pr *proxy) following() bool {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return pr.moving
}

// newCall is a new call id, unique to this node's run.
func (n *Node) newCall() string {
	return n.name + "." + n.runID + "." + strconv.FormatUint(n.nextID.Add(1), 10)
}

// Code implements lobby.Place.
func (pr *proxy) Code() string { return pr.code }

// Next implements lobby.Place.
func (pr *proxy) Next(ctx context.Context) (lobby.Update, bool, lobby.Closed) {
	return pr.box.Next(ctx)
}

// Notify and Take hand updates to a session that holds no waiting goroutine.
func (pr *proxy) Notify(f func()) { pr.box.Notify(f) }

// Take reads what Notify announced.
func (pr *proxy) Take() (lobby.Update, bool, lobby.Closed) { return pr.box.Take() }

// Call implements lobby.Place: any table operation, carried to the owner as its name and
// its arguments, or run here when the table runs on this node now.
func (pr *proxy) Call(req lobby.Request) (any, error) {
	res, err := pr.call(req)
	if lobby.Departs(req) {
		pr.finish(lobby.Closed{Why: lobby.WhyLeft, Text: "You left the table."})
	}
	return res, err
}

// call carries one operation to wherever the table runs, under an id of its own (see
// request.Call). When no answer comes — the owner died, or NATS was slow — the owner
// may have applied it, or not: the proxy sends the same call again, to whichever node
// runs the table by then, until moveWait; an owner that applied it answers with the
// result it had. So does a call the owner did not apply because the table moves on
// (lobby.ErrMoving), or because it forgot this member (see check). The player gets one
// answer — ok, refused, or lobby.ErrUnreachable when no node answered in time and
// it may have been applied — never a "try again" for what may have been done.
// Leaving is sent once: its session is going anyway.
func (pr *proxy) call(req lobby.Request) (any, error) {
	args, err := lobby.EncodeRequest(req)
	if err != nil {
		return nil, err
	}
	call := pr.n.newCall()
	deadline := time.Now().Add(moveWait)
	unanswered := false     // some try got no answer: it may have been applied
	var stopped lobby.Place // the copy here that answered it moves on
	for {
		place, id, done := pr.here()
		switch {
		case place != nil && place == stopped:
			// Not followed yet: the call waits, and is not sent to the old copy again
			// (each try there would count against the player's rate).
		case place != nil:
			res, err := callOnce(place, call, req)
			if !errors.Is(err, errMoving) || lobby.Departs(req) {
				return res, err
			}
			// The copy here stopped as the table moved on, the call not applied: its
			// members follow the table, and the call goes after them, to this node too
			// when it claimed the table straight back (its new copy runs here, while
			// the proxy still holds the old one until it has followed).
			stopped = place
		case done && unanswered:
			return nil, lobby.ErrUnreachable
		case done:
			return nil, lobby.ErrTableClosed // as a local member that is out of its table
		case !pr.following():
			rep, err := pr.request(request{Op: req.Op(), Member: id, Args: args, Call: call})
			switch {
			case lobby.Departs(req):
				if errors.Is(err, errNoAnswer) {
					err = errMoving
				}
				if err != nil {
					return nil, err
				}
				return lobby.DecodeResult(req, rep.Result)
			case rep.Forgotten:
				pr.sitAgain(id) // then the same call again
			case errors.Is(err, errNoAnswer):
				// The owner may be gone, or be a copy on its way out that the
				// directory moved on from while the proxy heard nothing of it.
				unanswered = true
				pr.recheck()
			case rep.Moved, errors.Is(err, errNoOwner):
			case err != nil:
				return nil, err
			default:
				return lobby.DecodeResult(req, rep.Result)
			}
		}
		if !time.Now().Before(deadline) {
			if unanswered {
				return nil, lobby.ErrUnreachable
			}
			return nil, errMoving // not applied
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// callOnce runs a call on a member of this node's own lobby, under its id.
func callOnce(place lobby.Place, call string, req lobby.Request) (any, error) {
	if once, ok := place.(interface {
		CallOnce(string, lobby.Request) (any, error)
	}); ok {
		return once.CallOnce(call, req)
	}
	return place.Call(req)
}
