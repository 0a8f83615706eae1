// Package storetest is the conformance suite every store.Store must pass. The in-memory,
// SQLite and JetStream stores all run it, so a test that uses the in-memory store can
// trust it to behave like production.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"parlor/store"
)

// Run runs the whole suite; open must return a new, empty store for each call (it may
// register its own cleanup, but the suite closes the store too).
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"PlayerNotFound", testPlayerNotFound},
		{"SaveAndGetPlayer", testSaveAndGetPlayer},
		{"SavePlayerKeepsFirstSeen", testSavePlayerKeepsFirstSeen},
		{"SavePlayerInvalid", testSavePlayerInvalid},
		{"RenamePlayer", testRenamePlayer},
		{"LinearMode", testLinearMode},
		{"RecordAndListGames", testRecordAndListGames},
		{"RecentGamesOrderAndLimit", testRecentGamesOrderAndLimit},
		{"RecordGameInvalid", testRecordGameInvalid},
		{"Stats", testStats},
		{"GuestsHaveNoHistory", testGuestsHaveNoHistory},
		{"ResultsAreCopies", testResultsAreCopies},
		{"CancelledContext", testCancelledContext},
		{"Closed", testClosed},
		{"Concurrent", testConcurrent},
	}
	tests = append(tests, packTests...)
	tests = append(tests, tableLogTests...)
	tests = append(tests, moderationTests...)
	tests = append(tests, browserTests...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() { _ = s.Close() })
			tc.fn(t, s)
		})
	}
}

// base is an arbitrary instant with sub-millisecond noise and a non-UTC zone, to check
// that stores normalise times the same way.
var base = time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.FixedZone("CET", 3600))

// ms is the precision stores promise.
func ms(t time.Time) time.Time { return time.UnixMilli(t.UnixMilli()).UTC() }

// fp is a distinct, realistic-looking key fingerprint per n.
func fp(n int) string { return fmt.Sprintf("SHA256:player%02dxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", n) }

func mustSave(t *testing.T, s store.Store, p store.Player) {
	t.Helper()
	if err := s.SavePlayer(context.Background(), p); err != nil {
		t.Fatalf("SavePlayer(%+v): %v", p, err)
	}
}

func mustRecord(t *testing.T, s store.Store, g store.FinishedGame) {
	t.Helper()
	if err := s.RecordGame(context.Background(), g); err != nil {
		t.Fatalf("RecordGame(%+v): %v", g, err)
	}
}

func mustPlayer(t *testing.T, s store.Store, id string) store.Player {
	t.Helper()
	p, err := s.Player(context.Background(), id)
	if err != nil {
		t.Fatalf("Player(%s): %v", id, err)
	}
	return p
}

func mustRecent(t *testing.T, s store.Store, id string, limit int) []store.FinishedGame {
	t.Helper()
	gs, err := s.RecentGames(context.Background(), id, limit)
	if err != nil {
		t.Fatalf("RecentGames(%s, %d): %v", id, limit, err)
	}
	return gs
}

func mustStats(t *testing.T, s store.Store, id string) store.Stats {
	t.Helper()
	st, err := s.PlayerStats(context.Background(), id)
	if err != nil {
		t.Fatalf("PlayerStats(%s): %v", id, err)
	}
	return st
}

// checkTime compares instants and insists on UTC, which callers may print as is.
func checkTime(t *testing.T, what string, got, want time.Time) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
	if !got.IsZero() && got.Location() != time.UTC {
		t.Errorf("%s location = %v, want UTC", what, got.Location())
	}
}

// game builds a "topfive" finished game at table with the given seats.
func game(at time.Time, table string, seats ...store.Seat) store.FinishedGame {
	return store.FinishedGame{GameID: "topfive", Table: table, FinishedAt: at, Seats: seats}
}

func testPlayerNotFound(t *testing.T, s store.Store) {
	_, err := s.Player(context.Background(), fp(1))
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Player of an unknown id: err = %v, want ErrNotFound", err)
	}
	if err := s.RenamePlayer(context.Background(), fp(1), "Ann"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("RenamePlayer of an unknown id: err = %v, want ErrNotFound", err)
	}
}

func testSaveAndGetPlayer(t *testing.T, s store.Store) {
	// Names arrive sanitised, but may hold any valid UTF-8, quotes included.
	names := map[int]string{1: "Ann", 2: `Robert'); DROP TABLE players;--`, 3: "Zoë 🎲 \"the\" Dealer"}
	for n, name := range names {
		mustSave(t, s, store.Player{ID: fp(n), Name: name, FirstSeen: base, LastSeen: base.Add(time.Hour)})
	}
	for n, name := range names {
		p := mustPlayer(t, s, fp(n))
		if p.ID != fp(n) || p.Name != name {
			t.Errorf("Player(%s) = %q %q, want %q %q", fp(n), p.ID, p.Name, fp(n), name)
		}
		checkTime(t, "FirstSeen", p.FirstSeen, ms(base))
		checkTime(t, "LastSeen", p.LastSeen, ms(base.Add(time.Hour)))
	}
	// An update changes the name and last seen.
	mustSave(t, s, store.Player{ID: fp(1), Name: "Annie", FirstSeen: base.Add(48 * time.Hour), LastSeen: base.Add(48 * time.Hour)})
	p := mustPlayer(t, s, fp(1))
	if p.Name != "Annie" {
		t.Errorf("name after update = %q, want Annie", p.Name)
	}
	checkTime(t, "LastSeen after update", p.LastSeen, ms(base.Add(48*time.Hour)))
	// Zero times survive as zero: "never" is not 1970.
	mustSave(t, s, store.Player{ID: fp(9), Name: "Zed"})
	p = mustPlayer(t, s, fp(9))
	if !p.FirstSeen.IsZero() || !p.LastSeen.IsZero() {
		t.Errorf("zero times came back as %v, %v", p.FirstSeen, p.LastSeen)
	}
}

func testSavePlayerKeepsFirstSeen(t *testing.T, s store.Store) {
	mustSave(t, s, store.Player{ID: fp(1), Name: "Ann", FirstSeen: base, LastSeen: base})
	// A login builds a fresh Player with FirstSeen = now; the first visit must win.
	later := base.Add(24 * time.Hour)
	mustSave(t, s, store.Player{ID: fp(1), Name: "Ann", FirstSeen: later, LastSeen: later})
	p := mustPlayer(t, s, fp(1))
	checkTime(t, "FirstSeen", p.FirstSeen, ms(base))
	checkTime(t, "LastSeen", p.LastSeen, ms(later))
	// A zero FirstSeen means "unknown" and keeps the stored one.
	mustSave(t, s, store.Player{ID: fp(1), Name: "Ann", LastSeen: later})
	checkTime(t, "FirstSeen after zero", mustPlayer(t, s, fp(1)).FirstSeen, ms(base))
	// An earlier FirstSeen (say, an import) does move it back.
	mustSave(t, s, store.Player{ID: fp(1), Name: "Ann", FirstSeen: base.Add(-time.Hour), LastSeen: later})
	checkTime(t, "FirstSeen after earlier", mustPlayer(t, s, fp(1)).FirstSeen, ms(base.Add(-time.Hour)))
	// A player first saved without FirstSeen takes the first real one.
	mustSave(t, s, store.Player{ID: fp(2), Name: "Bob"})
	mustSave(t, s, store.Player{ID: fp(2), Name: "Bob", FirstSeen: later, LastSeen: later})
	checkTime(t, "FirstSeen from unknown", mustPlayer(t, s, fp(2)).FirstSeen, ms(later))
}

func testSavePlayerInvalid(t *testing.T, s store.Store) {
	for _, p := range []store.Player{{Name: "No id"}, {ID: fp(1)}} {
		if err := s.SavePlayer(context.Background(), p); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("SavePlayer(%+v): err = %v, want ErrInvalid", p, err)
		}
	}
	if _, err := s.Player(context.Background(), fp(1)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an invalid player was stored: err = %v", err)
	}
}

func testRenamePlayer(t *testing.T, s store.Store) {
	mustSave(t, s, store.Player{ID: fp(1), Name: "Ann", FirstSeen: base, LastSeen: base})
	mustSave(t, s, store.Player{ID: fp(2), Name: "Bob", FirstSeen: base, LastSeen: base})
	if err := s.RenamePlayer(context.Background(), fp(1), "Anna"); err != nil {
		t.Fatalf("RenamePlayer: %v", err)
	}
	p := mustPlayer(t, s, fp(1))
	if p.Name != "Anna" {
		t.Errorf("name = %q, want Anna", p.Name)
	}
	checkTime(t, "FirstSeen after rename", p.FirstSeen, ms(base))
	checkTime(t, "LastSeen after rename", p.LastSeen, ms(base))
	if got := mustPlayer(t, s, fp(2)).Name; got != "Bob" {
		t.Errorf("rename touched another player: %q", got)
	}
	if err := s.RenamePlayer(context.Background(), fp(1), ""); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("rename to empty: err = %v, want ErrInvalid", err)
	}
	if got := mustPlayer(t, s, fp(1)).Name; got != "Anna" {
		t.Errorf("failed rename changed the name to %q", got)
	}
}

func testRecordAndListGames(t *testing.T, s store.Store) {
	g := store.FinishedGame{
		GameID:     "fingertip",
		Table:      "ABCD",
		FinishedAt: base,
		Seats: []store.Seat{
			{PlayerID: fp(1), Name: "Ann", Score: 12, Winner: true},
			{PlayerID: "", Name: "Bot Bella", Score: 9},
			{PlayerID: fp(2), Name: "Bob", Score: -3},
			{PlayerID: "", Name: "guest-7", Score: 12, Winner: true},
		},
	}
	mustRecord(t, s, g)
	want := g
	want.FinishedAt = ms(base)
	for _, id := range []string{fp(1), fp(2)} {
		got := mustRecent(t, s, id, 10)
		if len(got) != 1 {
			t.Fatalf("RecentGames(%s) has %d games, want 1", id, len(got))
		}
		checkTime(t, "FinishedAt", got[0].FinishedAt, want.FinishedAt)
		got[0].FinishedAt = want.FinishedAt
		if !reflect.DeepEqual(got[0], want) {
			t.Errorf("RecentGames(%s)[0] =\n%+v\nwant\n%+v", id, got[0], want)
		}
	}
	if got := mustRecent(t, s, fp(3), 10); len(got) != 0 {
		t.Errorf("a player who never played has games: %+v", got)
	}
}

func testRecentGamesOrderAndLimit(t *testing.T, s store.Store) {
	// Recorded out of time order; two share a finish time, where the later recorded
	// counts as newer.
	at := []time.Duration{3, 1, 5, 5, 2, 4}
	for i, d := range at {
		mustRecord(t, s, game(base.Add(d*time.Minute), fmt.Sprintf("T%03d", i),
			store.Seat{PlayerID: fp(1), Name: "Ann", Score: i}))
	}
	mustRecord(t, s, game(base.Add(time.Hour), "OTHR", store.Seat{PlayerID: fp(2), Name: "Bob"}))
	wantTables := []string{"T003", "T002", "T005", "T000", "T004", "T001"}
	tables := func(gs []store.FinishedGame) []string {
		var out []string
		for _, g := range gs {
			out = append(out, g.Table)
		}
		return out
	}
	if got := tables(mustRecent(t, s, fp(1), 0)); !reflect.DeepEqual(got, wantTables) {
		t.Errorf("RecentGames(limit 0) = %v, want %v", got, wantTables)
	}
	if got := tables(mustRecent(t, s, fp(1), 100)); !reflect.DeepEqual(got, wantTables) {
		t.Errorf("RecentGames(limit 100) = %v, want %v", got, wantTables)
	}
	if got := tables(mustRecent(t, s, fp(1), 3)); !reflect.DeepEqual(got, wantTables[:3]) {
		t.Errorf("RecentGames(limit 3) = %v, want %v", got, wantTables[:3])
	}
	if got := tables(mustRecent(t, s, fp(1), -1)); !reflect.DeepEqual(got, wantTables) {
		t.Errorf("RecentGames(limit -1) = %v, want %v", got, wantTables)
	}
}

func testRecordGameInvalid(t *testing.T, s store.Store) {
	bad := []store.FinishedGame{
		{Table: "ABCD", FinishedAt: base, Seats: []store.Seat{{PlayerID: fp(1), Name: "Ann"}}},
		{GameID: "topfive", Table: "ABCD", FinishedAt: base},
	}
	for _, g := range bad {
		if err := s.RecordGame(context.Background(), g); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("RecordGame(%+v): err = %v, want ErrInvalid", g, err)
		}
	}
	if got := mustStats(t, s, fp(1)); got != (store.Stats{}) {
		t.Errorf("an invalid game was counted: %+v", got)
	}
}

func testStats(t *testing.T, s store.Store) {
	if got := mustStats(t, s, fp(1)); got != (store.Stats{}) {
		t.Errorf("stats of an unknown player = %+v, want zero", got)
	}
	ann := func(win bool) store.Seat { return store.Seat{PlayerID: fp(1), Name: "Ann", Winner: win} }
	bob := func(win bool) store.Seat { return store.Seat{PlayerID: fp(2), Name: "Bob", Winner: win} }
	bot := store.Seat{Name: "Bot", Winner: true}
	mustRecord(t, s, game(base, "G1", ann(true), bob(false)))
	mustRecord(t, s, game(base, "G2", ann(true), bob(true))) // a shared victory
	mustRecord(t, s, game(base, "G3", ann(false), bot))
	mustRecord(t, s, game(base, "G4", bob(false), bot))
	// Two seats of one player (never in a real table) still count as one game.
	mustRecord(t, s, game(base, "G5", ann(false), ann(true)))
	if got, want := mustStats(t, s, fp(1)), (store.Stats{Played: 4, Won: 3}); got != want {
		t.Errorf("Ann's stats = %+v, want %+v", got, want)
	}
	if got, want := mustStats(t, s, fp(2)), (store.Stats{Played: 3, Won: 1}); got != want {
		t.Errorf("Bob's stats = %+v, want %+v", got, want)
	}
	if got := len(mustRecent(t, s, fp(1), 0)); got != 4 {
		t.Errorf("Ann has %d recent games, want 4 (a game counts once)", got)
	}
}

func testGuestsHaveNoHistory(t *testing.T, s store.Store) {
	mustRecord(t, s, game(base, "G1", store.Seat{Name: "Bot", Winner: true}, store.Seat{Name: "guest"}))
	if got := mustStats(t, s, ""); got != (store.Stats{}) {
		t.Errorf(`stats of "" = %+v, want zero: bots and guests are not one player`, got)
	}
	if got := mustRecent(t, s, "", 10); len(got) != 0 {
		t.Errorf(`RecentGames("") = %+v, want none`, got)
	}
}

func testResultsAreCopies(t *testing.T, s store.Store) {
	seats := []store.Seat{{PlayerID: fp(1), Name: "Ann", Score: 1}}
	mustRecord(t, s, game(base, "G1", seats...))
	seats[0].Name = "changed by caller"
	got := mustRecent(t, s, fp(1), 1)
	if got[0].Seats[0].Name != "Ann" {
		t.Fatalf("the store kept the caller's slice: %q", got[0].Seats[0].Name)
	}
	got[0].Seats[0].Name = "changed by reader"
	if again := mustRecent(t, s, fp(1), 1); again[0].Seats[0].Name != "Ann" {
		t.Fatalf("the store handed out its own slice: %q", again[0].Seats[0].Name)
	}
}

func testCancelledContext(t *testing.T, s store.Store) {
	mustSave(t, s, store.Player{ID: fp(1), Name: "Ann", FirstSeen: base, LastSeen: base})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := map[string]error{}
	_, calls["Player"] = s.Player(ctx, fp(1))
	calls["SavePlayer"] = s.SavePlayer(ctx, store.Player{ID: fp(2), Name: "Bob"})
	calls["RenamePlayer"] = s.RenamePlayer(ctx, fp(1), "Anna")
	calls["RecordGame"] = s.RecordGame(ctx, game(base, "G1", store.Seat{PlayerID: fp(1), Name: "Ann"}))
	_, calls["RecentGames"] = s.RecentGames(ctx, fp(1), 1)
	_, calls["PlayerStats"] = s.PlayerStats(ctx, fp(1))
	for name, err := range calls {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: err = %v, want context.Canceled", name, err)
		}
	}
	if got := mustPlayer(t, s, fp(1)).Name; got != "Ann" {
		t.Errorf("a cancelled rename happened: %q", got)
	}
	if _, err := s.Player(context.Background(), fp(2)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a cancelled save happened: err = %v", err)
	}
	if got := mustStats(t, s, fp(1)); got.Played != 0 {
		t.Errorf("a cancelled game was recorded: %+v", got)
	}
}

func testClosed(t *testing.T, s store.Store) {
	mustSave(t, s, store.Player{ID: fp(1), Name: "Ann", FirstSeen: base, LastSeen: base})
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	ctx := context.Background()
	calls := map[string]error{}
	_, calls["Player"] = s.Player(ctx, fp(1))
	calls["SavePlayer"] = s.SavePlayer(ctx, store.Player{ID: fp(2), Name: "Bob"})
	calls["RenamePlayer"] = s.RenamePlayer(ctx, fp(1), "Anna")
	calls["RecordGame"] = s.RecordGame(ctx, game(base, "G1", store.Seat{PlayerID: fp(1), Name: "Ann"}))
	_, calls["RecentGames"] = s.RecentGames(ctx, fp(1), 1)
	_, calls["PlayerStats"] = s.PlayerStats(ctx, fp(1))
	for name, err := range calls {
		if !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s after Close: err = %v, want ErrClosed", name, err)
		}
	}
}

// testConcurrent is meant for -race: many players log in, rename themselves and finish
// games at once while others read, and nothing is lost.
func testConcurrent(t *testing.T, s store.Store) {
	const workers, rounds = 8, 10
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*6)
	for w := range workers {
		wg.Go(func() {
			id := fp(w)
			for r := range rounds {
				now := base.Add(time.Duration(r) * time.Minute)
				if err := s.SavePlayer(ctx, store.Player{ID: id, Name: "P", FirstSeen: now, LastSeen: now}); err != nil {
					errs <- err
				}
				if err := s.RenamePlayer(ctx, id, fmt.Sprintf("P%d-%d", w, r)); err != nil {
					errs <- err
				}
				// Everyone shares a table with the next worker, so games interleave.
				g := game(now, fmt.Sprintf("W%dR%d", w, r),
					store.Seat{PlayerID: id, Name: "me", Winner: true},
					store.Seat{PlayerID: fp((w + 1) % workers), Name: "next"})
				if err := s.RecordGame(ctx, g); err != nil {
					errs <- err
				}
				if _, err := s.Player(ctx, fp((w+1)%workers)); err != nil && !errors.Is(err, store.ErrNotFound) {
					errs <- err
				}
				if _, err := s.RecentGames(ctx, id, 5); err != nil {
					errs <- err
				}
				if _, err := s.PlayerStats(ctx, id); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for w := range workers {
		p := mustPlayer(t, s, fp(w))
		if want := fmt.Sprintf("P%d-%d", w, rounds-1); p.Name != want {
			t.Errorf("player %d name = %q, want %q", w, p.Name, want)
		}
		checkTime(t, "FirstSeen", p.FirstSeen, ms(base))
		if got, want := mustStats(t, s, fp(w)), (store.Stats{Played: 2 * rounds, Won: rounds}); got != want {
			t.Errorf("player %d stats = %+v, want %+v", w, got, want)
		}
	}
}

// testLinearMode: the linear mode is remembered per key, survives the SavePlayer of
// every login, and is refused for a player the store does not know.
func testLinearMode(t *testing.T, s store.Store) {
	ctx := context.Background()
	if err := s.SetLinear(ctx, fp(1), true); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetLinear of an unknown id: err = %v, want ErrNotFound", err)
	}
	mustSave(t, s, store.Player{ID: fp(1), Name: "Ann", FirstSeen: base, LastSeen: base})
	mustSave(t, s, store.Player{ID: fp(2), Name: "Bob", FirstSeen: base, LastSeen: base})
	if mustPlayer(t, s, fp(1)).Linear {
		t.Fatal("a new player is in the linear mode")
	}
	if err := s.SetLinear(ctx, fp(1), true); err != nil {
		t.Fatalf("SetLinear: %v", err)
	}
	if !mustPlayer(t, s, fp(1)).Linear || mustPlayer(t, s, fp(2)).Linear {
		t.Fatal("SetLinear(Ann) did not set Ann's mode alone")
	}
	// The next login saves a fresh record, which says nothing of the mode.
	mustSave(t, s, store.Player{ID: fp(1), Name: "Annie", FirstSeen: base.Add(time.Hour), LastSeen: base.Add(time.Hour)})
	if p := mustPlayer(t, s, fp(1)); !p.Linear || p.Name != "Annie" {
		t.Fatalf("after a login: %+v, want Annie still in the linear mode", p)
	}
	if err := s.SetLinear(ctx, fp(1), false); err != nil {
		t.Fatalf("SetLinear off: %v", err)
	}
	if mustPlayer(t, s, fp(1)).Linear {
		t.Fatal("the linear mode stayed on after SetLinear(false)")
	}
}
