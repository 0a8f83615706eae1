// Package jetstream is the store.Store of a parlor cluster, kept in NATS JetStream so
// that every node sees the same players, history, packs and table logs, and nothing a
// node acknowledged is lost when that node dies. It passes the same conformance suite
// (store/storetest) as the in-memory and SQLite stores.
//
// What lives where (PREFIX is Config.Prefix, "parlor" by default; docs/cluster.md has
// the whole picture):
//
//   - table logs: stream PREFIX_tablelog, one subject per table, PREFIX.log.CODE; a
//     snapshot or a closed entry rolls the subject up to itself (Nats-Rollup), and a
//     closed table's subject is then purged;
//   - finished games: stream PREFIX_games, one message per registered player of a game on
//     PREFIX.games.PLAYER.won or .lost, so a player's history is one subject filter and
//     their statistics are two subject counts;
//   - players, packs, and the "alive" mark: key-value buckets PREFIX_players,
//     PREFIX_packs and PREFIX_state;
//   - bans, mutes, reports and the audit log: key-value bucket PREFIX_moderation.
//
// An append returns only once JetStream acknowledged it: stored by the stream's leader
// and, with Replicas > 1, by a majority of its replicas.
package jetstream

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"

	"parlor/store"
)

// ErrConflict is store.ErrConflict: returned when another writer kept changing the same
// thing at the same time: by AppendTables when another store appended to one of the
// tables in between (in a cluster, a node still writing to a table that another node
// has taken over; a *store.ConflictError says which), and nothing of that table's
// failing part was stored; by a player or pack update that lost to concurrent updates
// many times in a row.
var ErrConflict = store.ErrConflict

// Config says where and how the store keeps its data.
type Config struct {
	// Conn is the connection to NATS; required. The caller owns it: Close leaves it
	// open, so close it after the store.
	Conn *nats.Conn
	// Prefix names the streams, buckets and subjects, so that several parlor clusters
	// (or tests) can share one NATS; letters, digits, '-' and '_'. Default "parlor".
	Prefix string
	// Replicas is how many copies JetStream keeps of everything; 1 on a single NATS
	// server, 3 on a cluster of three or more. Default 1.
	Replicas int
	// Timeout bounds a call whose context has no deadline. Default 10 seconds.
	Timeout time.Duration
}

// Store is the JetStream store. It is safe for concurrent use.
type Store struct {
	cfg     Config
	js      natsjs.JetStream
	log     natsjs.Stream   // table logs
	games   natsjs.Stream   // finished games
	players natsjs.KeyValue // players by key fingerprint
	packs   natsjs.KeyValue // packs by owner and name
	state   natsjs.KeyValue // the alive mark
	mod     natsjs.KeyValue // bans, mutes, reports, the audit log (moderation.go)
	closed  atomic.Bool

	// tails caches, per table, where its log ends (see tails.go).
	mu    sync.Mutex
	tails map[string]tail
}

var _ store.Store = (*Store)(nil)

// ackWait is how long an append waits for one acknowledgement before it sends the entry
// again (which is safe, see tryRound): long enough for a loaded server, short enough to
// ride over a NATS restart within the lobby's ten seconds.
const ackWait = 2 * time.Second

var validPrefix = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Open connects the store to its streams and buckets, creating the missing ones with
// Config.Replicas, so every node may call it at start. Existing ones keep their replicas
// (a node started with another setting must not shrink them; change them with the nats
// CLI), but get the settings the store relies on back if they lack them.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Conn == nil {
		return nil, fmt.Errorf("store: open jetstream: %w: no NATS connection", store.ErrInvalid)
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "parlor"
	}
	if !validPrefix.MatchString(cfg.Prefix) {
		return nil, fmt.Errorf("store: open jetstream: %w: prefix %q", store.ErrInvalid, cfg.Prefix)
	}
	if cfg.Replicas <= 0 {
		cfg.Replicas = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	js, err := natsjs.New(cfg.Conn, natsjs.WithDefaultTimeout(cfg.Timeout),
		natsjs.WithPublishAsyncTimeout(min(cfg.Timeout, ackWait)))
	if err != nil {
		return nil, fmt.Errorf("store: open jetstream: %w", err)
	}
	s := &Store{cfg: cfg, js: js, tails: map[string]tail{}}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Timeout)
		defer cancel()
	}
	// A node may start while NATS does, or while JetStream elects a leader: wait for it.
	// Each attempt has its own deadline, doubled every time: a request sent while a
	// stream has no leader may go unanswered, and would otherwise hold the whole open
	// until ctx ends instead of being sent again once the stream has a new one.
	for wait := setupAttempt; ; wait *= 2 {
		attempt, cancel := context.WithTimeout(ctx, wait)
		err := s.setup(attempt)
		cancel()
		if err == nil {
			return s, nil
		}
		if !unavailable(err) && !errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			return nil, fmt.Errorf("store: open jetstream: %w", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// setupAttempt is how long Open's first attempt waits for JetStream's answers.
var setupAttempt = 2 * time.Second

// unavailable tells errors of a JetStream that is not ready yet from refusals.
func unavailable(err error) bool {
	var apiErr *natsjs.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode == jsClusterNotAvailable {
		return true
	}
	return errors.Is(err, nats.ErrNoResponders) || errors.Is(err, natsjs.ErrNoStreamResponse) ||
		errors.Is(err, nats.ErrTimeout) || errors.Is(err, nats.ErrDisconnected)
}

// jsClusterNotAvailable is nats-server's "JetStream system temporarily unavailable".
const jsClusterNotAvailable natsjs.ErrorCode = 10008

// setup finds or creates every stream and bucket.
func (s *Store) setup(ctx context.Context) error {
	p, r := s.cfg.Prefix, s.cfg.Replicas
	var err error
	s.log, err = s.stream(ctx, natsjs.StreamConfig{
		Name:     p + "_tablelog",
		Subjects: []string{p + ".log.*"},
		Storage:  natsjs.FileStorage,
		Replicas: r,
		// A snapshot or closed entry replaces the table's earlier entries in the same
		// step as it is stored.
		AllowRollup: true,
		// No direct gets: those may be answered by a replica a little behind, and a
		// node taking a table over must read every acknowledged entry. Reads go to the
		// stream's leader.
		AllowDirect: false,
	})
	if err != nil {
		return fmt.Errorf("table log stream: %w", err)
	}
	s.games, err = s.stream(ctx, natsjs.StreamConfig{
		Name:     p + "_games",
		Subjects: []string{p + ".games.*.*"},
		Storage:  natsjs.FileStorage,
		Replicas: r,
		// A game goes to all its players' histories or to none.
		AllowAtomicPublish: true,
		// History may be read from any replica; one a few milliseconds behind only
		// shows a game that just ended a moment later.
		AllowDirect: true,
	})
	if err != nil {
		return fmt.Errorf("games stream: %w", err)
	}
	if s.players, err = s.bucket(ctx, "players"); err != nil {
		return err
	}
	if s.packs, err = s.bucket(ctx, "packs"); err != nil {
		return err
	}
	if s.mod, err = s.bucket(ctx, "moderation"); err != nil {
		return err
	}
	s.state, err = s.bucket(ctx, "state")
	return err
}

// stream finds the stream cfg names or creates it (another node may be creating it at
// the same moment). An existing one keeps its replicas and anything an operator set,
// but gets cfg's subjects and switches back.
func (s *Store) stream(ctx context.Context, cfg natsjs.StreamConfig) (natsjs.Stream, error) {
	st, err := s.js.Stream(ctx, cfg.Name)
	if errors.Is(err, natsjs.ErrStreamNotFound) {
		st, err = s.js.CreateStream(ctx, cfg)
		if !errors.Is(err, natsjs.ErrStreamNameAlreadyInUse) {
			return st, err
		}
		st, err = s.js.Stream(ctx, cfg.Name)
	}
	if err != nil {
		return nil, err
	}
	cur := st.CachedInfo().Config
	if slices.Equal(cur.Subjects, cfg.Subjects) && cur.AllowRollup == cfg.AllowRollup &&
		cur.AllowDirect == cfg.AllowDirect && cur.AllowAtomicPublish == cfg.AllowAtomicPublish {
		return st, nil
	}
	cur.Subjects, cur.AllowRollup, cur.DenyPurge = cfg.Subjects, cfg.AllowRollup, false
	cur.AllowDirect, cur.AllowAtomicPublish = cfg.AllowDirect, cfg.AllowAtomicPublish
	return s.js.UpdateStream(ctx, cur)
}

// bucket finds the key-value bucket PREFIX_name or creates it, keeping one value per key.
func (s *Store) bucket(ctx context.Context, name string) (natsjs.KeyValue, error) {
	bucket := s.cfg.Prefix + "_" + name
	kv, err := s.js.KeyValue(ctx, bucket)
	if errors.Is(err, natsjs.ErrBucketNotFound) {
		kv, err = s.js.CreateKeyValue(ctx, natsjs.KeyValueConfig{
			Bucket: bucket, History: 1, Storage: natsjs.FileStorage, Replicas: s.cfg.Replicas,
		})
		if errors.Is(err, natsjs.ErrBucketExists) {
			kv, err = s.js.KeyValue(ctx, bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s bucket: %w", name, err)
	}
	return kv, nil
}

// ready reports a cancelled context or a closed store, in the in-memory store's order.
func (s *Store) ready(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return store.ErrClosed
	}
	return nil
}

// Close marks the store closed; later calls return ErrClosed. The NATS connection stays
// open (the caller owns it). Closing twice is harmless.
func (s *Store) Close() error {
	if !s.closed.Swap(true) {
		s.js.CleanupPublisher() // the reply subscription of asynchronous publishes
	}
	return nil
}

// token turns an arbitrary string (a key fingerprint, a pack name) into one subject
// token or key-value key part: unpadded base64url has no '.', '*', '>' or space.
func token(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// tableToken is a table code as a subject token: a plain code ("ABCD") stays readable
// for an operator with the nats CLI; anything else is base64url after a '~', which no
// plain code contains.
func tableToken(code string) string {
	if plainCode.MatchString(code) {
		return code
	}
	return "~" + token(code)
}

var plainCode = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// tableCode undoes tableToken.
func tableCode(tok string) (string, error) {
	enc, ok := strings.CutPrefix(tok, "~")
	if !ok {
		return tok, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return "", fmt.Errorf("table subject token %q: %w", tok, err)
	}
	return string(b), nil
}

// get reads key from a bucket. A missing key is store.ErrNotFound, and so is an empty
// one: the key of an id no record can have (playerKey, packKey).
func get(ctx context.Context, kv natsjs.KeyValue, key string) (natsjs.KeyValueEntry, error) {
	if key == "" {
		return nil, store.ErrNotFound
	}
	e, err := kv.Get(ctx, key)
	if errors.Is(err, natsjs.ErrKeyNotFound) {
		return nil, store.ErrNotFound
	}
	return e, err
}
