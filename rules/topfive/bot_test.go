package topfive

import (
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

// A bot handed a seat in the middle of a round plays a legal ranking, with the marker
// on one of its extreme guesses, and never plays twice.
func TestBotTakesOverMidRound(t *testing.T) {
	g := newGame(t, seatNames(4), nil, 21)
	now := playRound(t, g, t0, map[int]Rank{
		0: NewRank(r5(1, 2, 3, 4, 5), -1), 1: NewRank(r5(1, 2, 3, 4, 5), 0),
		2: NewRank(r5(1, 2, 3, 4, 5), 0), 3: NewRank(r5(1, 2, 3, 4, 5), 0)})
	now = nextRound(t, g, now)
	mustApply(t, g, 1, NewRank(r5(5, 4, 3, 2, 1), -1), now) // seat 1 is the PoH of round 2
	for seat := 2; seat <= 3; seat++ {
		b := NewBot(rules.BotSetup{Seat: seat, Seed: uint64(seat)})
		if a := b.Act(g.View(seat), now); a != nil {
			t.Fatalf("the bot answered at once, with no time to think: %v", a)
		}
		a := b.Act(g.View(seat), now.Add(6*time.Second))
		r, ok := a.(Rank)
		if !ok || r.Marker == nil {
			t.Fatalf("seat %d bot played %#v", seat, a)
		}
		if rk := r.Ranks[*r.Marker]; rk != 1 && rk != Hand {
			t.Errorf("marker on a guess of rank %d, want an extreme (1 or 5)", rk)
		}
		mustApply(t, g, seat, a, now.Add(6*time.Second))
		if again := b.Act(g.View(seat), now.Add(7*time.Second)); again != nil {
			t.Fatalf("the bot played twice: %v", again)
		}
	}
	// Seat 0's bot hurries when the deadline is close.
	b := NewBot(rules.BotSetup{Seat: 0, Seed: 9})
	late := g.View(0).Head().Deadline.Add(-2 * time.Second)
	if a := b.Act(g.View(0), late); a == nil {
		t.Fatal("the bot let the deadline pass")
	} else {
		mustApply(t, g, 0, a, late)
	}
	if g.phase != PhaseReveal {
		t.Fatalf("phase %s after everyone ranked", g.phase)
	}
	// Spectators, other games' views and finished games get no action.
	if NewBot(rules.BotSetup{Seat: 0, Seed: 1}).Act(g.View(rules.Spectator), now) != nil || NewBot(rules.BotSetup{Seat: 0, Seed: 1}).Act(rules.Header{}, now) != nil {
		t.Fatal("the bot acted for nobody")
	}
}

func TestBotRanksByCommonTaste(t *testing.T) {
	v := View{Header: rules.Header{Phase: PhaseRanking, Seat: 1, Round: 1}, Role: RoleGuesser,
		Topics:    []string{"Monday mornings", "Chess", "A birthday cake party", "Board games", "Queueing in the rain"},
		Submitted: []bool{false, false, false}}
	r := NewBot(rules.BotSetup{Seat: 1, Seed: 3}).rank(v)
	if r.Ranks[2] != 1 || r.Ranks[4] != Hand {
		t.Fatalf("bot ranks %v: a cake party should be first, a rainy queue last", r.Ranks)
	}
	if *r.Marker != 4 && *r.Marker != 2 {
		t.Fatalf("marker on %d", *r.Marker)
	}
}

func TestSpecReadsWell(t *testing.T) {
	if strings.Contains(Spec.HowToPlay, "\n") || len(Spec.HowToPlay) < 100 {
		t.Error("HowToPlay must be one paragraph")
	}
	if lo, hi := Spec.PlayerRange(rules.Options{OptVariant: VariantDuo}); lo != 2 || hi != 2 {
		t.Errorf("duo players %d-%d", lo, hi)
	}
	if lo, hi := Spec.PlayerRange(Spec.Defaults()); lo != 3 || hi != 8 {
		t.Errorf("classic players %d-%d", lo, hi)
	}
	if rules.OptionDuration(Spec.Defaults()[OptTimer]) != 90*time.Second {
		t.Error("default timer")
	}
}
