package topfive

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"parlor/rules"
)

// checkSecrets asserts that no view shows a ranking or marker the rules keep hidden.
func checkSecrets(t *testing.T, g *Game) {
	t.Helper()
	for seat := -1; seat < g.Players(); seat++ {
		raw, err := json.Marshal(g.View(seat))
		if err != nil {
			t.Fatal(err)
		}
		// Decoding strictly into View fails on any field this test does not check.
		var v View
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		if err := d.Decode(&v); err != nil {
			t.Fatalf("seat %d: %v", seat, err)
		}
		// Only the viewer's own ranking, exactly as submitted.
		if seat < 0 || g.secret[seat] == nil {
			if v.Mine != nil {
				t.Fatalf("seat %d sees a ranking it did not submit: %+v", seat, v.Mine)
			}
		} else {
			own := g.secret[seat]
			if v.Mine == nil || !slices.Equal(v.Mine.Ranks, own.ranks[:]) ||
				(v.Mine.Marker == nil) != (own.marker < 0) || (v.Mine.Marker != nil && *v.Mine.Marker != own.marker) {
				t.Fatalf("seat %d sees %+v as its own ranking, want %+v", seat, v.Mine, *own)
			}
		}
		// Reveal rows: exactly the steps shown, each about its own topic only.
		shown := 0
		if g.phase == PhaseReveal || (g.tally != nil && !g.tally.Forfeit) {
			shown = g.step
		}
		if len(v.Reveal) != shown {
			t.Fatalf("seat %d sees %d reveal rows in %s at step %d", seat, len(v.Reveal), g.phase, g.step)
		}
		for k, row := range v.Reveal {
			if row.Topic != g.order[k] {
				t.Fatalf("seat %d: row %d shows topic %d, the reveal is at topic %d", seat, k, row.Topic, g.order[k])
			}
			if !g.duo && row.Rank != Hand-k {
				t.Fatalf("seat %d: row %d shows rank %d", seat, k, row.Rank)
			}
		}
		if g.phase == PhaseRanking && v.Tally != nil {
			t.Fatalf("seat %d sees a tally while ranking", seat)
		}
		if !slices.Equal(v.Submitted, submittedOf(g)) {
			t.Fatalf("seat %d: submitted %v", seat, v.Submitted)
		}
	}
}

func submittedOf(g *Game) []bool {
	out := make([]bool, g.Players())
	for s, r := range g.secret {
		out[s] = r != nil
	}
	return out
}

// checkInvariants asserts what always holds between two actions.
func checkInvariants(t *testing.T, g *Game, prevTotals []int) {
	t.Helper()
	if g.round < 1 || g.round > g.rounds {
		t.Fatalf("round %d of %d", g.round, g.rounds)
	}
	for s := range g.totals {
		if g.totals[s] < prevTotals[s] {
			t.Fatalf("seat %d total went down: %v -> %v", s, prevTotals, g.totals)
		}
	}
	if g.tally != nil && !g.tally.Forfeit && !g.duo {
		best := 0
		for _, l := range g.tally.Lines {
			if l.Role == RoleGuesser {
				if l.Points > Hand+2 || (!l.Submitted && l.Points != 0) {
					t.Fatalf("guesser line %+v", l)
				}
				best = max(best, l.Points)
			}
		}
		if g.tally.Lines[g.honour].Points != best {
			t.Fatalf("Player of Honour scored %d, best Guesser %d", g.tally.Lines[g.honour].Points, best)
		}
	}
	if g.duo && g.totals[0] != g.totals[1] {
		t.Fatalf("duo totals differ: %v", g.totals)
	}
}

// garbage is an action a careless or hostile client might send.
func garbage(r *rand.Rand) json.RawMessage {
	perm := r.Perm(Hand)
	ranks := make([]int, Hand)
	for i, p := range perm {
		ranks[i] = p + 1
	}
	switch r.IntN(8) {
	case 0:
		return json.RawMessage(`{"type":"ready"}`)
	case 1:
		return rules.Encode(Rank{Type: TypeRank, Ranks: ranks})
	case 2:
		m := r.IntN(7) - 1
		return rules.Encode(Rank{Type: TypeRank, Ranks: ranks, Marker: &m})
	case 3:
		ranks[r.IntN(Hand)] = r.IntN(7)
		m := r.IntN(Hand)
		return rules.Encode(Rank{Type: TypeRank, Ranks: ranks, Marker: &m})
	case 4:
		return json.RawMessage(`{"type":"rank","ranks":[1,2,3,4,5],"marker":[1,2]}`)
	case 5:
		return json.RawMessage(`{"type":"peek","seat":0}`)
	case 6:
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	}
	return json.RawMessage(`{"type":"rank","ranks":[5,4,3,2,1]}`)
}

// playGame plays a whole game with bots in some seats and random clients in others,
// checking invariants and secrets at every step. It returns the game and a transcript.
func playGame(t *testing.T, seed uint64, n int, opts rules.Options, randomSeats int, views bool) (*Game, string) {
	g := newGame(t, seatNames(n), opts, seed)
	r := rand.New(rand.NewPCG(seed, 99))
	bots := make([]*Bot, n)
	for s := range bots {
		bots[s] = NewBot(rules.BotSetup{Seat: s, Seed: seed + uint64(s)})
	}
	var log []byte
	now := t0
	prev := make([]int, n)
	for step := 0; step < 20000 && g.phase != PhaseOver; step++ {
		now = now.Add(time.Second)
		changed := g.Tick(now)
		for s := range n {
			var raw json.RawMessage
			if s < randomSeats {
				if r.IntN(6) != 0 {
					continue
				}
				raw = garbage(r)
			} else if a := bots[s].Act(g.View(s), now); a != nil {
				raw = rules.Encode(a)
			} else {
				continue
			}
			before := ""
			if s < randomSeats && step%5 == 0 {
				before = snapshot(t, g)
			}
			err := g.Apply(s, raw, now)
			if err != nil && s >= randomSeats {
				t.Fatalf("seed %d: the bot of seat %d played %s: %v", seed, s, raw, err)
			}
			if err != nil && before != "" && snapshot(t, g) != before {
				t.Fatalf("seed %d: state changed after %v", seed, err)
			}
			changed = changed || err == nil
			log = fmt.Appendf(log, "%d %s %v\n", s, raw, err)
		}
		if changed {
			checkInvariants(t, g, prev)
			copy(prev, g.totals)
			if views {
				checkSecrets(t, g)
			}
		}
	}
	if g.phase != PhaseOver {
		t.Fatalf("seed %d, %d players: the game did not end (round %d, %s)", seed, n, g.round, g.phase)
	}
	return g, string(log) + snapshot(t, g)
}

func TestRandomPlay(t *testing.T) {
	cases := 0
	for seed := uint64(1); seed <= 7; seed++ {
		n := 2 + int(seed)%7
		opts := rules.Options{OptTimer: []string{"off", "30s", "60s"}[seed%3], OptPace: "1s"}
		if n == 2 {
			opts[OptVariant] = VariantDuo
		}
		randomSeats := int(seed % 3)
		if opts[OptTimer] == "off" {
			randomSeats = 0 // a random client may never rank, and nothing would end the round
		}
		g, _ := playGame(t, seed, n, opts, randomSeats, true)
		res, ok := g.Outcome()
		if !ok || (len(res.Winners) == 0) != (n == 2) || !slices.Equal(res.Scores, g.totals) {
			t.Fatalf("seed %d: outcome %+v %v", seed, res, ok)
		}
		cases++
	}
	if cases == 0 {
		t.Fatal("no games played")
	}
}

func TestBotsOnlyGamesFinish(t *testing.T) {
	for n := 2; n <= 8; n++ {
		opts := rules.Options{OptTimer: "off"}
		if n == 2 {
			opts[OptVariant] = VariantDuo
		}
		playGame(t, uint64(100+n), n, opts, 0, false)
	}
}

func TestDeterminism(t *testing.T) {
	opts := rules.Options{OptTimer: "30s", OptPace: "1s"}
	_, a := playGame(t, 42, 5, opts, 2, false)
	_, b := playGame(t, 42, 5, opts, 2, false)
	if a != b {
		t.Fatal("same seed and actions gave different games")
	}
	g1, g2 := newGame(t, seatNames(4), nil, 7), newGame(t, seatNames(4), nil, 8)
	if reflect.DeepEqual(g1.deck, g2.deck) {
		t.Fatal("different seeds dealt the same deck")
	}
}
