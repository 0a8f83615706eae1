package cluster

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/log/v2"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"parlor/lobby"
)

// Bucket names.
const (
	tablesBucket = "parlor_tables" // the table directory: code → owner node (a lease)
	nodesBucket  = "parlor_nodes"  // per node: its lease (lease.NODE) and its presence (presence.NODE.N)
)

// Node is this server's part of the cluster. It implements lobby.Cluster for its lobby,
// answers the requests of other nodes' proxies for the tables it owns, renews their
// leases, and claims the tables of nodes that stopped renewing theirs.
type Node struct {
	cfg    Config
	name   string
	nc     *nats.Conn
	js     jetstream.JetStream
	tables jetstream.KeyValue
	nodes  jetstream.KeyValue
	log    *log.Logger
	lobby  *lobby.Lobby

	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	nextID  atomic.Uint64
	runID   string      // this run of the node, in its call ids (a node started again counts from 1 again)
	gone    atomic.Bool // the node was killed or handed everything over
	leaving atomic.Bool // handing over: it claims no table
	// lastBeat is when this node's beat was last put (n.mu; tests beat from their own
	// goroutine too).
	lastBeat time.Time

	mu       sync.Mutex
	dir      map[string]lease     // the directory as last seen
	beats    map[string]beat      // other nodes' leases, as last seen
	presence map[string]*presence // other nodes, as last seen
	lost     map[string]bool      // owned tables another node has claimed or removed since
	// ownKeys are the keys of this node's presence in the bucket, as this node put,
	// deleted and watched them (those of an earlier run too): presence_out.go deletes the
	// ones it no longer uses.
	ownKeys map[string]bool
	owned   map[string]*ownTable // tables this node owns
	proxies map[*proxy]struct{}  // this node's sessions at other nodes' tables

	// out is this node's presence as it puts it (presence_out.go).
	out presenceOut
	// wall is the clock presence refreshes go by (nil: time.Now; tests set it).
	wall func() time.Time

	// loseReply, when set (by tests), is asked before the owner answers a request:
	// true drops the answer, as a node that dies or a network that fails after the
	// request was served.
	loseReply atomic.Pointer[func(req request) bool]
	// losePublish, when set (by tests), is asked before a delivery is published: true
	// drops it, as core NATS does while a connection moves to another server.
	losePublish atomic.Pointer[func(subject string, d delivery) bool]
	// holdAttach, when set (by tests), is called as a proxy begins to attach, with the
	// owner the directory names then: the test decides when the attach goes on.
	holdAttach atomic.Pointer[func(owner string)]
}

// lease is a directory entry as this node last saw it; seen is when its revision last
// changed, by this node's own clock (never another node's).
type lease struct {
	Node string `json:"node"` // "" once released: any node may claim it at once
	// Alive is the owner's game time when it took the table; its node's beat (below)
	// carries the time of its latest renewal.
	Alive time.Time `json:"alive,omitzero"`
	rev   uint64
	seen  time.Time
}

// beat is a node's lease on all the tables it owns, renewed every Renew: one key per
// node (lease.NODE in the nodes bucket), however many tables it runs. seen is when its
// revision last changed, by this node's own clock.
type beat struct {
	// Alive is the node's game time at its latest renewal: a node that takes a table over
	// after its owner died measures the downtime from there.
	Alive time.Time `json:"alive"`
	seen  time.Time
	rev   uint64 // the revision of the beat seen last
}

// ownTable is a table this node owns: its lease revision and its request subscription.
type ownTable struct {
	rev     uint64
	sub     *nats.Subscription
	members map[string]*remote  // other nodes' sessions at it, by member id
	calls   map[string]sentCall // each remote player's last call and its answer
	handoff bool                // being handed to another node
}

// New joins the cluster on nc with the node's name: the buckets are made if missing.
// Call Start with the lobby next; the lobby's Config.Cluster is the Node.
func New(ctx context.Context, nc *nats.Conn, cfg Config, logger *log.Logger) (*Node, error) {
	cfg = cfg.withDefaults()
	if logger == nil {
		logger = log.New(io.Discard)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	n := &Node{cfg: cfg, name: cfg.Node, runID: nuid.Next(), nc: nc, js: js, log: logger,
		dir: map[string]lease{}, beats: map[string]beat{}, presence: map[string]*presence{}, ownKeys: map[string]bool{}, lost: map[string]bool{}, owned: map[string]*ownTable{}, proxies: map[*proxy]struct{}{}}
	bctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if n.tables, err = js.CreateOrUpdateKeyValue(bctx, jetstream.KeyValueConfig{Bucket: tablesBucket, History: 1, Replicas: cfg.Replicas,
		Description: "parlor table directory: code → owner node"}); err != nil {
		return nil, fmt.Errorf("cluster: bucket %s: %w", tablesBucket, err)
	}
	if n.nodes, err = js.CreateOrUpdateKeyValue(bctx, jetstream.KeyValueConfig{Bucket: nodesBucket, History: 1, Replicas: cfg.Replicas,
		TTL: 10 * cfg.Lease, Description: "parlor nodes: players, tables, heartbeat"}); err != nil {
		return nil, fmt.Errorf("cluster: bucket %s: %w", nodesBucket, err)
	}
	return n, nil
}

// Name is the node's name.
func (n *Node) Name() string { return n.name }

// Start runs the node for lb until Handoff or Kill: it follows the directory and the
// other nodes, renews its leases and presence, and claims abandoned tables.
func (n *Node) Start(lb *lobby.Lobby) error {
	n.lobby = lb
	n.ctx, n.cancel = context.WithCancel(context.Background())
	dirW, err := n.tables.WatchAll(n.ctx)
	if err != nil {
		return fmt.Errorf("cluster: watch %s: %w", tablesBucket, err)
	}
	nodeW, err := n.nodes.WatchAll(n.ctx)
	if err != nil {
		return fmt.Errorf("cluster: watch %s: %w", nodesBucket, err)
	}
	// Both watchers first replay what is there; the node starts claiming once it has
	// seen the whole directory.
	ready := make(chan struct{})
	n.wg.Add(4)
	go n.follow(dirW, ready, n.seeLease)
	go n.follow(nodeW, nil, n.seePresence)
	go n.run(ready)
	go n.claims(ready)
	// Players come in once Start returns: a node that had not read the directory yet
	// told them a table it had not seen did not exist.
	select {
	case <-ready:
	case <-time.After(directoryWait):
		n.log.Warn("the table directory is still being read; joins may be refused meanwhile")
	}
	return nil
}

// directoryWait is how long Start waits for the table directory to be read.
var directoryWait = 30 * time.Second

// run renews this node's lease and presence every Renew. Claims go on in their own
// loop (claims): a node that takes over a dead node's hundreds of tables restores them
// for seconds, and a beat that waited for that would make it look dead too.
func (n *Node) run(ready <-chan struct{}) {
	n.every(ready, func() {
		n.heartbeat()
		n.letGoLost()
		n.dropDeparted()
	})
}

// claims claims and restores abandoned tables every Renew (or once the last round of
// them is done, if that took longer).
func (n *Node) claims(ready <-chan struct{}) { n.every(ready, n.claimAbandoned) }

// every runs do once the directory is read, then every Renew until the node stops.
func (n *Node) every(ready <-chan struct{}, do func()) {
	defer n.wg.Done()
	select {
	case <-ready:
	case <-n.ctx.Done():
		return
	}
	t := time.NewTicker(n.cfg.Renew)
	defer t.Stop()
	for {
		do()
		select {
		case <-n.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// opCtx bounds one call to NATS.
func (n *Node) opCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 3*time.Second)
}

// Kill stops the node at once, as if its process died: no goodbye, no handover. Its
// leases run out and other nodes claim its tables. For tests.
//
// After Handoff it is the last step of a node's shutdown: it closes the connection.
func (n *Node) Kill() {
	n.gone.Store(true)
	if n.cancel != nil {
		n.cancel()
	}
	n.nc.Close()
	n.wg.Wait()
}

// Close stops the node after Handoff (or instead of it, keeping the leases to expire).
func (n *Node) Close() {
	if n.cancel != nil {
		n.cancel()
	}
	n.wg.Wait()
	n.gone.Store(true)
}
