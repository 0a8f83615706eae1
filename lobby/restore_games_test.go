package lobby_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"parlor/assets"
	_ "parlor/games"
	"parlor/lobby"
	"parlor/rules"
	"parlor/store"
)

// TestEveryGameSurvivesACrash plays each game with scripted seats (a seeded bot decides
// for each of them, from its own view, acting through the lobby like a player) and the
// lobby's own bots, "crashes" at a random step — the lobby is dropped without closing its
// tables — and reopens the same store. Every seat and the spectator must see what they
// saw before, and the game must end the way an uninterrupted run with the same inputs
// (the logged actions and ticks, played in one go) ends.
func TestEveryGameSurvivesACrash(t *testing.T) {
	seeds := []uint64{1, 2}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, spec := range rules.Games() {
		if spec.Rules == "" {
			continue // a double this package's tests register to probe the table, not a game to play
		}
		id := spec.ID
		for _, seed := range seeds {
			t.Run(fmt.Sprintf("%s/seed%d", id, seed), func(t *testing.T) {
				// Each run has its own store, clock and lobbies, and spends most of its
				// time waiting for its table to show a step (play): side by side.
				t.Parallel()
				crashAndResume(t, id, seed)
			})
		}
	}
}

// sitting is one player's connection in a property run.
type sitting struct {
	p      lobby.Player
	m      lobby.Place
	seen   *seen
	script rules.Bot // nil for the spectator
}

func crashAndResume(t *testing.T, gameID string, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	spec, _ := rules.Lookup(gameID)
	lo, hi := spec.PlayerRange(spec.Defaults())
	n := lo + rng.IntN(min(hi, lo+2)-lo+1)
	humans := 1 + rng.IntN(n)
	st, c := store.NewMemory(), newClock()
	r1 := start(t, st, c, assets.Load)

	content, err := assets.Load(spec.Content)
	if err != nil {
		t.Fatal(err)
	}
	var seats []*sitting
	for i := range humans {
		script := spec.NewBot(rules.BotSetup{Seat: i, Seed: seed*100 + uint64(i), Options: spec.Defaults(), Content: content})
		seats = append(seats, &sitting{p: lobby.Player{ID: fmt.Sprintf("SHA256:p%d", i), Name: fmt.Sprintf("P%d", i)}, script: script})
	}
	host, err := r1.l.Create(seats[0].p, gameID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	code := host.Code()
	seats[0].m = host
	for _, s := range seats[1:] {
		if s.m, err = r1.l.Join(s.p, code); err != nil {
			t.Fatal(err)
		}
	}
	for range n - humans {
		if err := lobby.Run(host, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := lobby.Run(host, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	watcher := &sitting{p: lobby.Player{ID: "SHA256:watcher", Name: "Wes"}}
	if watcher.m, err = r1.l.Watch(watcher.p, code); err != nil {
		t.Fatal(err)
	}
	all := append(append([]*sitting(nil), seats...), watcher)
	for _, s := range all {
		s.seen = follow(s.m)
	}

	crashAt := 1 + rng.IntN(15)
	for step := 0; step < crashAt && !finished(watcher); step++ {
		play(t, rng, c, seats, watcher)
	}
	// The crash comes once the table has taken in the clock's time. Otherwise a step
	// already due when it stopped (a reveal beat its ticker had not reached yet, on a
	// busy machine) is applied at once after the restart, rightly, and the views the
	// players had and have would differ by it.
	if err := lobby.CatchUp(host); err != nil {
		t.Fatal(err)
	}
	r1.stop()
	before := map[string]lobby.Update{}
	for _, s := range all {
		before[s.p.ID], _ = s.seen.final(t)
	}

	r2 := start(t, st, c, assets.Load)
	if got, err := r2.l.Restore(context.Background()); got != 1 || err != nil {
		t.Fatalf("Restore = %d, %v", got, err)
	}
	for _, s := range seats {
		if s.m, err = r2.l.Join(s.p, code); err != nil {
			t.Fatalf("%s rejoins: %v", s.p.Name, err)
		}
	}
	if watcher.m, err = r2.l.Watch(watcher.p, code); err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		s.seen = follow(s.m)
		u := s.seen.until(t, s.p.Name+"'s view", func(u lobby.Update) bool { return u.View != nil })
		want := before[s.p.ID]
		if got, w := viewJSON(t, u.View, true), viewJSON(t, want.View, true); got != w {
			t.Errorf("%s's view after the crash:\n got %s\nwant %s", s.p.Name, got, w)
		}
		if got, w := tableOf(u.Table), tableOf(want.Table); !reflect.DeepEqual(got, w) {
			t.Errorf("%s's table after the crash:\n got %+v\nwant %+v", s.p.Name, got, w)
		}
	}
	if t.Failed() {
		return
	}

	for step := 0; !finished(watcher); step++ {
		if step > 2000 {
			t.Fatalf("the game did not end: %s", viewJSON(t, watcher.seen.latest().View, true))
		}
		play(t, rng, c, seats, watcher)
	}
	entries, err := st.ReadTable(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := lobby.PlayLoggedGame(entries, assets.Load)
	if err != nil {
		t.Fatalf("the log does not play in one go: %v", err)
	}
	res, over := ref.Outcome()
	final := watcher.seen.until(t, "the result", func(u lobby.Update) bool { return u.Table.Result != nil })
	if !over || !reflect.DeepEqual(*final.Table.Result, res) {
		t.Fatalf("result after the crash = %+v, the uninterrupted run's = %+v (over %v)", final.Table.Result, res, over)
	}
	for i, s := range all {
		seat := i
		if s == watcher {
			seat = rules.Spectator
		}
		u := s.seen.until(t, s.p.Name+"'s last view", func(u lobby.Update) bool { return u.Table.State == lobby.StateFinished })
		if got, w := viewJSON(t, u.View, true), viewJSON(t, ref.View(seat), true); got != w {
			t.Errorf("%s's last view:\n got %s\nwant %s", s.p.Name, got, w)
		}
	}
}

func finished(watcher *sitting) bool {
	return watcher.seen.latest().Table.State == lobby.StateFinished
}

// play is one step: time passes, every scripted seat acts on its newest view, and the
// step ends when the table has shown something new (or a few of the actor's ticks went
// by, which lets the lobby's bots and timers act).
func play(t *testing.T, rng *rand.Rand, c *handClock, seats []*sitting, watcher *sitting) {
	t.Helper()
	c.Advance(time.Duration(rng.IntN(8000)) * time.Millisecond)
	watcher.seen.mu.Lock()
	seenBefore := watcher.seen.n
	watcher.seen.mu.Unlock()
	for _, i := range rng.Perm(len(seats)) {
		s := seats[i]
		u := s.seen.latest()
		if u.View == nil {
			continue
		}
		if a := s.script.Act(u.View, c.Now()); a != nil {
			_ = lobby.Run(s.m, lobby.ActOf(a)) // a stale view may make an action refused, as for a player
		}
	}
	deadline := time.Now().Add(40 * time.Millisecond)
	for time.Now().Before(deadline) {
		watcher.seen.mu.Lock()
		moved := watcher.seen.n != seenBefore
		watcher.seen.mu.Unlock()
		if moved {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}
