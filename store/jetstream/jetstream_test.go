package jetstream_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"

	"parlor/internal/testkit/natstest"
	"parlor/store"
	"parlor/store/jetstream"
	"parlor/store/storetest"
)

// prefixes keeps every store of a test binary apart on a shared server.
var prefixes atomic.Int64

func newPrefix() string { return fmt.Sprintf("t%d", prefixes.Add(1)) }

func open(t testing.TB, nc *nats.Conn, prefix string) *jetstream.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := jetstream.Open(ctx, jetstream.Config{Conn: nc, Prefix: prefix})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	srv := natstest.Start(t)
	nc := natstest.Connect(t, srv.URL())
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, nc, newPrefix()) })
}

func TestOpenRefuses(t *testing.T) {
	ctx := context.Background()
	if _, err := jetstream.Open(ctx, jetstream.Config{}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("no connection: err = %v, want ErrInvalid", err)
	}
	srv := natstest.Start(t)
	nc := natstest.Connect(t, srv.URL())
	if _, err := jetstream.Open(ctx, jetstream.Config{Conn: nc, Prefix: "a.b"}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("prefix with a dot: err = %v, want ErrInvalid", err)
	}
}

var at = time.Date(2026, 11, 24, 14, 0, 0, 0, time.UTC)

func entry(code string, seq int64, kind store.EntryKind, data string) store.TableEntry {
	return store.TableEntry{Table: code, Seq: seq, Kind: kind, At: at.Add(time.Duration(seq) * time.Second), Data: []byte(data)}
}

func mustAppend(t *testing.T, s store.Store, es ...store.TableEntry) {
	t.Helper()
	if err := s.AppendTables(context.Background(), es); err != nil {
		t.Fatalf("AppendTables: %v", err)
	}
}

func readData(t *testing.T, s store.Store, code string) []string {
	t.Helper()
	es, err := s.ReadTable(context.Background(), code)
	if err != nil {
		t.Fatalf("ReadTable(%s): %v", code, err)
	}
	out := []string{}
	for _, e := range es {
		out = append(out, fmt.Sprintf("%d:%s", e.Seq, e.Data))
	}
	return out
}

// A second store on the same NATS, as another node would open it, sees what the first
// wrote, and can carry a table on where the first left it; the first, coming back to
// that table with what it remembered, cannot write over the second's entries.
func TestSecondStoreSeesFirst(t *testing.T) {
	ctx := context.Background()
	srv := natstest.Start(t)
	prefix := newPrefix()
	a := open(t, natstest.Connect(t, srv.URL()), prefix)
	b := open(t, natstest.Connect(t, srv.URL()), prefix)

	ann := store.Player{ID: "SHA256:ann+/x", Name: "Ann", FirstSeen: at, LastSeen: at}
	if err := a.SavePlayer(ctx, ann); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Player(ctx, ann.ID); err != nil || got != ann {
		t.Errorf("second store: Player = %+v, %v; want %+v", got, err, ann)
	}
	g := store.FinishedGame{GameID: "topfive", Table: "ABCD", FinishedAt: at,
		Seats: []store.Seat{{PlayerID: ann.ID, Name: "Ann", Score: 3, Winner: true}, {Name: "Bot", Score: 1}}}
	if err := a.RecordGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if gs, err := b.RecentGames(ctx, ann.ID, 0); err != nil || len(gs) != 1 || !reflect.DeepEqual(gs[0], g) {
		t.Errorf("second store: RecentGames = %+v, %v", gs, err)
	}
	if st, err := b.PlayerStats(ctx, ann.ID); err != nil || st != (store.Stats{Played: 1, Won: 1}) {
		t.Errorf("second store: PlayerStats = %+v, %v", st, err)
	}
	if err := a.SavePack(ctx, store.Pack{Owner: ann.ID, Name: "Mine", Kind: "topfive-topics", Content: []byte("a\n"), Created: at}); err != nil {
		t.Fatal(err)
	}
	if p, err := b.Pack(ctx, ann.ID, "Mine"); err != nil || string(p.Content) != "a\n" {
		t.Errorf("second store: Pack = %+v, %v", p, err)
	}
	if err := a.MarkAlive(ctx, at); err != nil {
		t.Fatal(err)
	}
	if got, err := b.LastAlive(ctx); err != nil || !got.Equal(at) {
		t.Errorf("second store: LastAlive = %v, %v", got, err)
	}

	mustAppend(t, a, entry("ABCD", 1, store.EntrySnapshot, "s"), entry("ABCD", 2, store.EntryEvent, "e"))
	if codes, err := b.OpenTables(ctx); err != nil || !reflect.DeepEqual(codes, []string{"ABCD"}) {
		t.Errorf("second store: OpenTables = %v, %v", codes, err)
	}
	if got, want := readData(t, b, "ABCD"), []string{"1:s", "2:e"}; !reflect.DeepEqual(got, want) {
		t.Errorf("second store: ReadTable = %v, want %v", got, want)
	}
	// b takes the table over; a, still writing as if it owned the table, is refused and
	// stores nothing, whatever seq it uses.
	mustAppend(t, b, entry("ABCD", 3, store.EntryEvent, "by b"))
	err := a.AppendTables(ctx, []store.TableEntry{entry("ABCD", 3, store.EntryEvent, "by a"), entry("ABCD", 4, store.EntryEvent, "by a")})
	if !errors.Is(err, jetstream.ErrConflict) {
		t.Errorf("a writing to a table b wrote to since: err = %v, want ErrConflict", err)
	}
	// Once a has read the log again (as a node taking a table back does), it knows
	// which seqs are taken, and may go on after them.
	if got, want := readData(t, a, "ABCD"), []string{"1:s", "2:e", "3:by b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("a's read after the conflict = %v, want %v", got, want)
	}
	err = a.AppendTables(ctx, []store.TableEntry{entry("ABCD", 3, store.EntryEvent, "by a")})
	if !errors.Is(err, store.ErrInvalid) {
		t.Errorf("a writing a seq b already wrote: err = %v, want ErrInvalid", err)
	}
	mustAppend(t, a, entry("ABCD", 4, store.EntryEvent, "a again"))
	if got, want := readData(t, b, "ABCD"), []string{"1:s", "2:e", "3:by b", "4:a again"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after both wrote: ReadTable = %v, want %v", got, want)
	}
}

// An append acknowledged before the NATS server stops is there once it is back, for the
// store that wrote it (whose connection reconnects) and for a new one; an append made
// while it is down waits for it.
func TestAcknowledgedAppendSurvivesRestart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv := natstest.Start(t)
	prefix := newPrefix()
	a := open(t, natstest.Connect(t, srv.URL()), prefix)
	mustAppend(t, a, entry("ABCD", 1, store.EntrySnapshot, "s"), entry("WXYZ", 1, store.EntrySnapshot, "w"))
	mustAppend(t, a, entry("ABCD", 2, store.EntryEvent, "acked"))
	if err := a.SavePlayer(ctx, store.Player{ID: "SHA256:ann", Name: "Ann"}); err != nil {
		t.Fatal(err)
	}

	srv.Restart()

	b := open(t, natstest.Connect(t, srv.URL()), prefix)
	if got, want := readData(t, b, "ABCD"), []string{"1:s", "2:acked"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after restart: ReadTable = %v, want %v", got, want)
	}
	if p, err := b.Player(ctx, "SHA256:ann"); err != nil || p.Name != "Ann" {
		t.Errorf("after restart: Player = %+v, %v", p, err)
	}
	// An append made while the server is down is stored once it is back, once, and
	// acknowledged then: the store sends it again until JetStream answers.
	srv.Stop()
	done := make(chan error, 1)
	go func() { done <- a.AppendTables(ctx, []store.TableEntry{entry("ABCD", 3, store.EntryEvent, "during")}) }()
	time.Sleep(300 * time.Millisecond) // let it try against the stopped server; not an assertion
	srv.Restart()
	if err := <-done; err != nil {
		t.Fatalf("append across the restart: %v", err)
	}
	if got, want := readData(t, b, "ABCD"), []string{"1:s", "2:acked", "3:during"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after an append across a restart: ReadTable = %v, want %v", got, want)
	}
	mustAppend(t, a, entry("ABCD", 4, store.EntryEvent, "after"))
}

// A batch longer than one JetStream atomic batch, and logs longer than one read, arrive
// whole and in order.
func TestLongBatchesAndLogs(t *testing.T) {
	srv := natstest.Start(t)
	nc := natstest.Connect(t, srv.URL())
	s := open(t, nc, newPrefix())
	var batch []store.TableEntry
	want := map[string][]string{}
	for _, tb := range []struct {
		code string
		n    int
	}{{"LONG", 1500}, {"MIDL", 700}, {"TINY", 2}} {
		for i := 1; i <= tb.n; i++ {
			kind := store.EntryEvent
			if i == 1 {
				kind = store.EntrySnapshot
			}
			e := entry(tb.code, int64(i), kind, fmt.Sprint(i))
			batch = append(batch, e)
			want[tb.code] = append(want[tb.code], fmt.Sprintf("%d:%d", i, i))
		}
	}
	mustAppend(t, s, batch...)
	for code, w := range want {
		if got := readData(t, s, code); !reflect.DeepEqual(got, w) {
			t.Errorf("%s: %d entries back, want %d (first %v)", code, len(got), len(w), got[:min(3, len(got))])
		}
	}
}

// Closing a table leaves nothing of it in the stream, and codes that are not plain
// subject tokens work like any other.
func TestClosedTableIsPurgedAndOddCodes(t *testing.T) {
	ctx := context.Background()
	srv := natstest.Start(t)
	nc := natstest.Connect(t, srv.URL())
	prefix := newPrefix()
	s := open(t, nc, prefix)
	odd := "a.b *>~ü"
	mustAppend(t, s, entry("ABCD", 1, store.EntrySnapshot, "a"), entry(odd, 1, store.EntrySnapshot, "odd"))
	mustAppend(t, s, entry("ABCD", 2, store.EntryEvent, "b"), entry("ABCD", 3, store.EntryClosed, ""))
	codes, err := s.OpenTables(ctx)
	if err != nil || !reflect.DeepEqual(codes, []string{odd}) {
		t.Fatalf("OpenTables = %q, %v; want only %q", codes, err, odd)
	}
	if got := readData(t, s, odd); !reflect.DeepEqual(got, []string{"1:odd"}) {
		t.Errorf("odd code's log = %v", got)
	}
	js, err := natsjs.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := js.Stream(ctx, prefix+"_tablelog")
	if err != nil {
		t.Fatal(err)
	}
	info, err := stream.Info(ctx, natsjs.WithSubjectFilter(prefix+".log.ABCD"))
	if err != nil {
		t.Fatal(err)
	}
	if n := info.State.Subjects[prefix+".log.ABCD"]; n != 0 {
		t.Errorf("a closed table keeps %d messages in the stream", n)
	}
}

// A closed entry whose purge did not happen (say the node died right after the append)
// hides its table all the same, and the code can start a new log after it.
func TestUnpurgedClosedEntry(t *testing.T) {
	ctx := context.Background()
	srv := natstest.Start(t)
	nc := natstest.Connect(t, srv.URL())
	prefix := newPrefix()
	s := open(t, nc, prefix)
	js, err := natsjs.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	m := nats.NewMsg(prefix + ".log.GONE")
	m.Header.Set("Parlor-Seq", "7")
	m.Header.Set("Parlor-Kind", "closed")
	m.Header.Set("Parlor-At", "0")
	if _, err := js.PublishMsg(ctx, m); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, entry("KEPT", 1, store.EntrySnapshot, "k"))
	if codes, err := s.OpenTables(ctx); err != nil || !reflect.DeepEqual(codes, []string{"KEPT"}) {
		t.Errorf("OpenTables = %v, %v; want only KEPT", codes, err)
	}
	if got := readData(t, s, "GONE"); len(got) != 0 {
		t.Errorf("a closed table's log = %v", got)
	}
	mustAppend(t, s, entry("GONE", 1, store.EntrySnapshot, "new"), entry("GONE", 2, store.EntryEvent, "e"))
	if got, want := readData(t, s, "GONE"), []string{"1:new", "2:e"}; !reflect.DeepEqual(got, want) {
		t.Errorf("the new log after a closed entry = %v, want %v", got, want)
	}
}

// With three replicas on a NATS cluster of three, the table log, players and history
// survive the loss of the server leading the table log stream: an append made right
// after it stopped waits out the election, and a store on the remaining servers reads
// everything.
func TestReplicatedSurvivesNATSServerLoss(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := natstest.StartCluster(t, 3)
	prefix := newPrefix()
	cfg := jetstream.Config{Conn: natstest.Connect(t, c.URL()), Prefix: prefix, Replicas: 3}
	a, err := jetstream.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	mustAppend(t, a, entry("ABCD", 1, store.EntrySnapshot, "s"), entry("ABCD", 2, store.EntryEvent, "e"))
	if err := a.SavePlayer(ctx, store.Player{ID: "SHA256:ann", Name: "Ann"}); err != nil {
		t.Fatal(err)
	}
	g := store.FinishedGame{GameID: "topfive", Table: "ABCD", FinishedAt: at,
		Seats: []store.Seat{{PlayerID: "SHA256:ann", Name: "Ann", Winner: true}, {PlayerID: "SHA256:bob", Name: "Bob"}}}
	if err := a.RecordGame(ctx, g); err != nil {
		t.Fatal(err)
	}

	js, err := natsjs.New(cfg.Conn)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := js.Stream(ctx, prefix+"_tablelog")
	if err != nil {
		t.Fatal(err)
	}
	leader := stream.CachedInfo().Cluster.Leader
	var stopped *natstest.Server
	for i, s := range c.Servers {
		if leader == fmt.Sprintf("parlor-test-%d", i+1) {
			stopped = s
		}
	}
	if stopped == nil {
		t.Fatalf("no server is the table log's leader %q", leader)
	}
	stopped.Stop()
	if err := a.AppendTables(ctx, []store.TableEntry{entry("ABCD", 3, store.EntryEvent, "after the loss")}); err != nil {
		t.Fatalf("append right after the leader stopped: %v", err)
	}
	c.WaitReady()

	var urls []string
	for _, s := range c.Servers {
		if s != stopped {
			urls = append(urls, s.URL())
		}
	}
	// b asks for one replica, as a node with another setting would: the streams keep three.
	b := open(t, natstest.Connect(t, strings.Join(urls, ",")), prefix)
	if info, err := stream.Info(ctx); err != nil {
		t.Error(err)
	} else if info.Config.Replicas != 3 {
		t.Errorf("after a store asked for one replica, the stream has %d; want its 3 kept", info.Config.Replicas)
	}
	if got, want := readData(t, b, "ABCD"), []string{"1:s", "2:e", "3:after the loss"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ReadTable on the remaining servers = %v, want %v", got, want)
	}
	if p, err := b.Player(ctx, "SHA256:ann"); err != nil || p.Name != "Ann" {
		t.Errorf("Player on the remaining servers = %+v, %v", p, err)
	}
	if st, err := b.PlayerStats(ctx, "SHA256:bob"); err != nil || st != (store.Stats{Played: 1}) {
		t.Errorf("Bob's stats on the remaining servers = %+v, %v", st, err)
	}
}

// Two nodes that both believe they own a table (a split brain) and append at once never
// interleave: the log stays one writer's entries after another's, in seq order without
// a gap, and every entry a writer was told is stored is there.
func TestRacingWritersKeepTheLogWhole(t *testing.T) {
	ctx := context.Background()
	srv := natstest.Start(t)
	prefix := newPrefix()
	stores := []*jetstream.Store{open(t, natstest.Connect(t, srv.URL()), prefix), open(t, natstest.Connect(t, srv.URL()), prefix)}
	mustAppend(t, stores[0], entry("ABCD", 1, store.EntrySnapshot, "s"))
	for _, s := range stores {
		readData(t, s, "ABCD") // both know where the log ends
	}
	acked := make([]map[int64]string, len(stores))
	done := make(chan int)
	for w, s := range stores {
		acked[w] = map[int64]string{}
		go func() {
			defer func() { done <- w }()
			for seq := int64(2); seq <= 40; seq++ {
				data := fmt.Sprintf("w%d", w)
				if err := s.AppendTables(ctx, []store.TableEntry{entry("ABCD", seq, store.EntryEvent, data)}); err != nil {
					if !errors.Is(err, jetstream.ErrConflict) && !errors.Is(err, store.ErrInvalid) {
						t.Errorf("writer %d seq %d: %v", w, seq, err)
					}
					return
				}
				acked[w][seq] = data
			}
		}()
	}
	<-done
	<-done
	es, err := stores[0].ReadTable(ctx, "ABCD")
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]string{}
	for i, e := range es {
		if e.Seq != int64(i+1) {
			t.Fatalf("entry %d has seq %d: the log has a gap or a repeat", i, e.Seq)
		}
		got[e.Seq] = string(e.Data)
	}
	for w := range stores {
		for seq, data := range acked[w] {
			if got[seq] != data {
				t.Errorf("writer %d was told seq %d (%s) is stored; the log has %q", w, seq, data, got[seq])
			}
		}
	}
}

// A store opened while its replicated streams have no leader (two of three NATS servers
// down) opens once they are back, well before its deadline: a request that went
// unanswered meanwhile is sent again, and does not hold the open until the deadline.
func TestOpenWaitsOutStreamsWithoutALeader(t *testing.T) {
	defer jetstream.SetSetupAttempt(500 * time.Millisecond)()
	c := natstest.StartCluster(t, 3)
	prefix := newPrefix()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a, err := jetstream.Open(ctx, jetstream.Config{Conn: natstest.Connect(t, c.URL()), Prefix: prefix, Replicas: 3})
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	// The server kept is not the table log's leader (the first stream Open reads): a
	// leader answers for its stream a while after its peers are gone, and Open would
	// then find it.
	js, err := natsjs.New(natstest.Connect(t, c.URL()))
	if err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(ctx, prefix+"_tablelog")
	if err != nil {
		t.Fatal(err)
	}
	leader := st.CachedInfo().Cluster.Leader
	kept := slices.IndexFunc(c.Servers, func(s *natstest.Server) bool { return s.Name() != leader })
	// The leader is stopped last: stopped first, it left two servers that elected a new
	// leader before the second stop, now and then the kept one (CI, 30 November 2026).
	var stopped []*natstest.Server
	for _, leads := range []bool{false, true} {
		for i, s := range c.Servers {
			if i != kept && (s.Name() == leader) == leads {
				s.Stop()
				stopped = append(stopped, s)
			}
		}
	}

	const deadline = 30 * time.Second
	opened := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		b, err := jetstream.Open(ctx, jetstream.Config{Conn: natstest.Connect(t, c.Servers[kept].URL()), Prefix: prefix})
		if err == nil {
			b.Close()
		}
		opened <- err
	}()
	select {
	case err := <-opened:
		t.Fatalf("Open returned %v with two of three servers down", err)
	case <-time.After(2 * time.Second):
	}
	for _, s := range stopped {
		s.Restart()
	}
	if err := <-opened; err != nil {
		t.Fatalf("Open after the servers came back: %v", err)
	}
}
