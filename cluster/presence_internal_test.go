package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"parlor/internal/testkit/natstest"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/store"
)

// natsMaxPayload is nats-server's default max_payload, which the embedded test server
// keeps: the largest message, a KV value included, that it takes.
const natsMaxPayload = 1 << 20

// manyTables has n players make a table each on l.
func manyTables(t *testing.T, l *lobby.Lobby, n int) (codes []string, places []lobby.Place) {
	t.Helper()
	for i := range n {
		p := lobby.Player{ID: fmt.Sprintf("SHA256:host%d", i), Name: fmt.Sprintf("Host%d", i)}
		m, err := l.Create(p, testgame.ID, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		codes = append(codes, m.Code())
		places = append(places, m)
	}
	return codes, places
}

// listedOnce waits until n lists exactly codes as other nodes' tables, each once, and
// fails with what is missing, doubled or extra if it does not within a minute (a
// deadline to give up by on a loaded box, not a measure).
func listedOnce(t *testing.T, n *Node, codes []string) {
	t.Helper()
	var missing, doubled, extra []string
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		seen := map[string]int{}
		for _, info := range n.Tables() {
			seen[info.Code]++
		}
		missing, doubled, extra = nil, nil, nil
		for _, code := range codes {
			switch seen[code] {
			case 0:
				missing = append(missing, code)
			case 1:
			default:
				doubled = append(doubled, code)
			}
			delete(seen, code)
		}
		for code := range seen {
			extra = append(extra, code)
		}
		if len(missing)+len(doubled)+len(extra) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %s lists %d tables: %d of %d missing, doubled %v, not open %v", n.name, len(n.Tables()), len(missing), len(codes), doubled, extra)
		}
	}
}

// keepBeating puts node name's beat in kv every 200 ms, as its loop would, until stop:
// the other nodes take it for alive while the test runs its presence rounds by hand (or
// stands for a node of an earlier version).
func keepBeating(t *testing.T, kv jetstream.KeyValue, name string) (stop func()) {
	t.Helper()
	return repeat(t, 200*time.Millisecond, func() {
		v, _ := json.Marshal(beat{Alive: time.Now()})
		_, _ = kv.Put(context.Background(), beatPrefix+name, v)
	})
}

// keepRounds runs node n's rounds (its beat and presence) every 300 ms, as its loop
// would, until stop: a put that failed on a loaded box is tried again.
func keepRounds(t *testing.T, n *Node) (stop func()) {
	t.Helper()
	return repeat(t, 300*time.Millisecond, n.heartbeat)
}

// repeat runs f now and then every d until stop (or the test's end); stop returns once
// f has run for the last time.
func repeat(t *testing.T, d time.Duration, f func()) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(d)
		defer tick.Stop()
		for {
			f()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { close(done); <-stopped }) }
	t.Cleanup(stop)
	return stop
}

// readerNode starts a node named name, which runs no table and reads the others'
// presence. Its lease is long, so that it never takes another node for gone within a
// test: the node whose presence a test reads puts its beat by hand, and on a loaded box
// (CI, a soak beside it) a beat now and then stood still for the default four seconds
// in the reader's eyes. The reader then claimed that node's tables, found no log of
// them in its own store, and closed them: their directory keys went, and it listed
// hundreds fewer tables than were open.
func readerNode(t *testing.T, url, name string) *Node {
	t.Helper()
	n, _ := testNode(t, Config{URLs: url, Node: name, Lease: 2 * time.Minute}, nil, true)
	return n
}

// A node with so many tables that its presence in one value is over NATS's max
// payload (NATS refused it, and the other nodes listed none of its tables past the
// ~800 of its last presence that fit) has every table listed by another node, each
// once, from chunks that each stay far below the max payload. An idle node with those
// tables puts few of them: each chunk once per presenceRefresh (within the bucket's TTL,
// as the puts' times show), not a put per table.
func TestANodeWithOverAMegabyteOfTablesIsListedElsewhere(t *testing.T) {
	url, _ := natstest.Run(t)
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	a := newNode(t, url, "a", st, 4*time.Second) // rounds by hand
	a.cfg.Renew = time.Second
	b := readerNode(t, url, "b")
	const tables = 1000
	codes, _ := manyTables(t, a.lobby, tables)
	whole, err := json.Marshal(a.lobby.LocalState())
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) <= natsMaxPayload {
		t.Fatalf("node a's presence in one value is %d bytes: the test wants it over NATS's max payload, %d", len(whole), natsMaxPayload)
	}
	t.Logf("%d tables: %d bytes of presence in one value, %d a table", tables, len(whole), len(whole)/tables)
	stop := keepRounds(t, a)
	listedOnce(t, b, codes)
	stop()
	a.out.mu.Lock()
	chunks := 0
	for i, c := range a.out.chunks {
		if c == nil {
			continue
		}
		chunks++
		if len(c.put) > chunkMax {
			t.Errorf("chunk %d: %d bytes put, over %d", i, len(c.put), chunkMax)
		}
	}
	a.out.mu.Unlock()
	if chunks < 2 {
		t.Fatalf("%d tables in %d chunk(s)", tables, chunks)
	}

	// Idle: two simulated minutes of rounds, a Renew apart.
	clock := time.Now()
	a.wall = func() time.Time { return clock }
	kv := a.nodes
	puts := &timedKV{KeyValue: kv, now: a.wall, at: map[string][]time.Time{}}
	a.nodes = puts
	const rounds = 120
	start := clock
	for range rounds {
		clock = clock.Add(a.cfg.Renew)
		a.heartbeat()
	}
	beats, presence := 0, 0
	ttl := 10 * a.cfg.Lease
	for key, at := range puts.at {
		if strings.HasPrefix(key, beatPrefix) {
			beats += len(at)
			continue
		}
		presence += len(at)
		last := start
		for _, t1 := range append(at, clock) {
			if gap := t1.Sub(last); gap >= ttl {
				t.Errorf("%s went %v without a put: the bucket's TTL is %v", key, gap, ttl)
			}
			last = t1
		}
	}
	if len(puts.at)-1 != chunks {
		t.Errorf("%d keys put, want the beat and %d chunks", len(puts.at), chunks)
	}
	perRefresh := chunks * int(rounds*a.cfg.Renew/a.presenceRefresh()+1)
	t.Logf("%d tables in %d chunks: %d rounds put the beat %d times and presence chunks %d times (%.2f a second)",
		tables, chunks, rounds, beats, presence, float64(presence)/rounds)
	if beats != rounds || presence > perRefresh || presence > rounds*2 {
		t.Errorf("%d idle rounds: %d beats, %d presence puts; want %d beats and at most %d presence puts (each chunk once per refresh), under 2 a round",
			rounds, beats, presence, rounds, perRefresh)
	}
	a.nodes, a.wall = kv, nil
	keepRounds(t, a)
	listedOnce(t, b, codes)
}

// timedKV records when (by now) each key was put.
type timedKV struct {
	jetstream.KeyValue
	now func() time.Time
	mu  sync.Mutex
	at  map[string][]time.Time
}

func (k *timedKV) Put(ctx context.Context, key string, value []byte) (uint64, error) {
	k.mu.Lock()
	k.at[key] = append(k.at[key], k.now())
	k.mu.Unlock()
	return k.KeyValue.Put(ctx, key, value)
}

// presenceKeys are the keys of node's presence in the bucket.
func presenceKeys(t *testing.T, kv jetstream.KeyValue, node string) []string {
	t.Helper()
	keys, err := kv.ListKeysFiltered(context.Background(), presencePrefix+node+".>")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for k := range keys.Keys() {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// smallChunks makes chunks hold a few tables each for the test.
func smallChunks(t *testing.T) {
	max0, fill0 := chunkMax, chunkFill
	chunkMax, chunkFill = 8<<10, 6<<10
	t.Cleanup(func() { chunkMax, chunkFill = max0, fill0 })
}

// Tables that close leave the other nodes' listing, and their node's presence: the
// chunks that empty are deleted, and those left half empty are emptied into the others
// until the node has about as many chunks as its tables need. Someone watching the
// bucket change by change never sees a table that stays open missing — an item moving
// between chunks is put in its new chunk before it leaves the old — nor a closed one
// listed after its chunk changed. A node that stops cleanly removes every key.
func TestClosedTablesLeaveThePresence(t *testing.T) {
	smallChunks(t)
	url, _ := natstest.Run(t)
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	a := newNode(t, url, "a", st, 4*time.Second) // rounds by hand
	b := readerNode(t, url, "b")
	codes, places := manyTables(t, a.lobby, 60)

	// A watcher of its own, to check every single change.
	w, err := a.nodes.Watch(context.Background(), presencePrefix+"a.>")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = w.Stop() }()
	var mu sync.Mutex
	open := map[string]bool{}
	for _, c := range codes {
		open[c] = true
	}
	var broken []string
	seen := &presence{chunks: map[string]seenChunk{}}
	armed := false // once the first round is all in
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for e := range w.Updates() {
			if e == nil {
				continue
			}
			var items []presenceItem
			put := e.Operation() == jetstream.KeyValuePut
			if put {
				if items, err = decodePresence(e.Key(), e.Value()); err != nil {
					t.Errorf("%s: %v", e.Key(), err)
					return
				}
			}
			mu.Lock()
			seen.see(e.Key(), e.Revision(), items, put)
			seen.merge()
			has := map[string]bool{}
			for _, info := range seen.Tables {
				has[info.Code] = true
			}
			for code, stays := range open {
				if stays && !has[code] && armed {
					broken = append(broken, fmt.Sprintf("rev %d (%s): %s missing", e.Revision(), e.Key(), code))
				}
			}
			mu.Unlock()
		}
	}()
	// settle waits until the watcher has seen every key of a's presence as it is now.
	settle := func() {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
			want := map[string]uint64{}
			for _, key := range presenceKeys(t, a.nodes, "a") {
				if e, err := a.nodes.Get(context.Background(), key); err == nil {
					want[key] = e.Revision()
				}
			}
			mu.Lock()
			got := map[string]uint64{}
			for key, c := range seen.chunks {
				got[key] = c.rev
			}
			mu.Unlock()
			if maps.Equal(got, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the watcher has %v, the bucket %v", got, want)
			}
		}
	}
	keepBeating(t, a.nodes, "a")
	for deadline := time.Now().Add(time.Minute); ; {
		a.heartbeat()
		settle()
		mu.Lock()
		have := len(seen.Tables)
		armed = have == len(codes)
		mu.Unlock()
		if have == len(codes) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a's presence has %d of its %d tables", have, len(codes))
		}
	}
	before := presenceKeys(t, a.nodes, "a")
	if len(before) < 8 {
		t.Fatalf("60 tables in %d chunks: the test wants many", len(before))
	}
	listedOnce(t, b, codes)

	// Every table but one in four closes.
	var stay []string
	for i, m := range places {
		if i%4 == 0 {
			stay = append(stay, codes[i])
			continue
		}
		if err := lobby.Run(m, lobby.Leave{}); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(time.Minute); len(a.lobby.LocalState().Tables) != len(stay); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("node a runs %d tables, want %d", len(a.lobby.LocalState().Tables), len(stay))
		}
	}
	mu.Lock()
	for i, code := range codes {
		open[code] = i%4 == 0
	}
	mu.Unlock()
	// A round empties one chunk at most; one whose put failed on a loaded box is
	// done again the next.
	need := (len(stay)*len(before) + 59) / 60
	for deadline := time.Now().Add(time.Minute); ; {
		a.heartbeat()
		settle()
		if len(presenceKeys(t, a.nodes, "a")) <= need+1 || time.Now().After(deadline) {
			break
		}
	}
	listedOnce(t, b, stay)
	mu.Lock()
	var listed []string
	for _, info := range seen.Tables {
		listed = append(listed, info.Code)
	}
	b.mu.Lock()
	b.presence["a"].merge()
	inB := len(b.presence["a"].Tables)
	b.mu.Unlock()
	mu.Unlock()
	slices.Sort(listed)
	slices.Sort(stay)
	if !slices.Equal(listed, stay) || inB != len(stay) {
		t.Errorf("a's presence lists %v (node b: %d tables), want the %d that stay open %v", listed, inB, len(stay), stay)
	}
	after := presenceKeys(t, a.nodes, "a")
	if len(after) > need+1 {
		t.Errorf("%d chunks for 60 tables, %d for the %d left: want at most %d", len(before), len(after), len(stay), need+1)
	}
	t.Logf("keys for 60 tables %d, for %d: %v", len(before), len(stay), after)
	mu.Lock()
	if len(broken) > 0 {
		t.Errorf("a table that stays open went missing from the presence %d times: %v", len(broken), broken[:min(5, len(broken))])
	}
	mu.Unlock()

	a.Handoff(lobby.Closed{Why: lobby.WhyMoved, Text: "bye"})
	if keys := presenceKeys(t, a.nodes, "a"); len(keys) != 0 {
		t.Errorf("after a clean stop, node a's presence keys %v are still there", keys)
	}
	_ = w.Stop()
	<-watched
}

// A chunk whose tables grew past chunkMax gives some away, to chunks with room or a
// new one, and is put after them: the chunks that took them are not marked to give
// any away in the same round.
func TestAnOverflowingChunkGivesItemsAway(t *testing.T) {
	smallChunks(t)
	var o presenceOut
	items := map[string][]byte{}
	for i := range 20 {
		items[fmt.Sprintf("t:%02d", i)] = []byte(fmt.Sprintf(`{"table":{"code":"%02d","game":"%s"}}`, i, strings.Repeat("x", 900)))
	}
	o.update(items, 0)
	for _, c := range o.chunks {
		c.dirty = false
	}
	first := o.chunks[0]
	if len(o.chunks) < 3 || first.size > chunkFill {
		t.Fatalf("20 items of ~950 bytes: %d chunks, the first of %d bytes", len(o.chunks), first.size)
	}
	// The first chunk's items grow, to twice their size.
	for id := range first.items {
		items[id] = append(items[id][:len(items[id])-2:len(items[id])-2], []byte(`,"x":"`+strings.Repeat("y", 900)+`"}}`)...)
	}
	o.update(items, 0)
	where := map[string]int{}
	for i, c := range o.chunks {
		if c == nil {
			continue
		}
		if c.size > chunkMax && len(c.items) > 1 {
			t.Errorf("chunk %d is %d bytes, over %d", i, c.size, chunkMax)
		}
		if c.shed && c.gained {
			t.Errorf("chunk %d both gave items away and took some", i)
		}
		for id := range c.items {
			if j, dup := where[id]; dup {
				t.Errorf("%s in chunks %d and %d", id, j, i)
			}
			where[id] = i
			if !bytes.Equal(c.items[id], items[id]) {
				t.Errorf("%s is not as it is now", id)
			}
		}
	}
	if len(where) != len(items) || !first.shed {
		t.Fatalf("%d of %d items placed; the first chunk gave some away: %v", len(where), len(items), first.shed)
	}
	for id, i := range o.where {
		if where[id] != i {
			t.Errorf("%s in chunk %d, noted in %d", id, where[id], i)
		}
	}
	order := o.putOrder()
	if len(order) == 0 || order[len(order)-1] != 0 {
		t.Errorf("put order %v: the first chunk, which gave items away, goes last", order)
	}
}

// A rolling upgrade mixes versions. This node reads an earlier version's whole presence
// (its node's name as the key) as before; an earlier version reads a chunk as a
// lobby.Local, which fails on a JSON array, so it ignores chunks rather than taking
// presence.a.0 for a node. A node deletes what it put under an earlier version (NODE)
// and an earlier run's chunks beyond its own.
func TestPresenceAcrossVersions(t *testing.T) {
	url, _ := natstest.Run(t)
	b := readerNode(t, url, "b")
	ctx := context.Background()
	// An earlier version's node "old", with one table and a player.
	old := lobby.Local{Online: 3, Tables: []lobby.TableInfo{{Code: "OLDA", Game: testgame.ID, State: lobby.StateWaiting}},
		Seated: map[string][]string{"OLDA": {"SHA256:olga"}}, Names: map[string]string{"olga": "SHA256:olga"}}
	v, _ := json.Marshal(old)
	if _, err := b.nodes.Put(ctx, "old", v); err != nil {
		t.Fatal(err)
	}
	keepBeating(t, b.nodes, "old")
	if _, err := b.tables.Put(ctx, "OLDA", leaseValue("old", time.Now())); err != nil {
		t.Fatal(err)
	}
	listedOnce(t, b, []string{"OLDA"})
	if seated := b.Seated("SHA256:olga"); len(seated) != 1 || b.Online() != 3 {
		t.Errorf("an earlier version's presence: Olga seated at %v, %d online; want OLDA and 3", seated, b.Online())
	}
	if id, ok := b.NameHolder("olga"); !ok || id != "SHA256:olga" {
		t.Errorf("an earlier version's names: olga held by %q %v", id, ok)
	}

	// Node a ran an earlier version (its whole presence under "a") and then a run with
	// more chunks than this one needs.
	stale, _ := json.Marshal([]presenceItem{{Table: &lobby.TableInfo{Code: "GONE"}}})
	for key, value := range map[string][]byte{"a": v, presenceKey("a", 5): stale} {
		if _, err := b.nodes.Put(ctx, key, value); err != nil {
			t.Fatal(err)
		}
	}
	a, la := testNode(t, Config{URLs: url, Node: "a"}, nil, true)
	codes, _ := manyTables(t, la, 3)
	listedOnce(t, b, append(codes, "OLDA"))
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		_, errOld := b.nodes.Get(ctx, "a")
		keys := presenceKeys(t, b.nodes, "a")
		if errors.Is(errOld, jetstream.ErrKeyNotFound) && slices.Equal(keys, []string{presenceKey("a", 0)}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("node a left behind: its earlier version's key (%v), keys %v", errOld, keys)
		}
	}
	chunk, err := a.nodes.Get(ctx, presenceKey("a", 0))
	if err != nil {
		t.Fatal(err)
	}
	var asOld lobby.Local
	if err := json.Unmarshal(chunk.Value(), &asOld); err == nil {
		t.Errorf("an earlier version reads a chunk as a presence: %+v", asOld)
	}
}
