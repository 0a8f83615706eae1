package quadrant

import (
	"testing"
	"time"

	"parlor/rules"
)

// TestBotsTakeOverAnyMoment replaces every seat's bot with a fresh one at odd moments,
// after people have moved tokens and written on the team ballot: the bots must still play
// only legal actions and finish the game.
func TestBotsTakeOverAnyMoment(t *testing.T) {
	for _, c := range []struct {
		n    int
		mode string
	}{{5, ModeCompetitive}, {10, ModeTeam}} {
		g := newGame(t, c.n, untimed(c.mode))
		// People did things before leaving: tokens moved and locked, a ballot line written.
		act(t, g, 0, Move{Type: TypeMove, X: -20, Y: 10})
		act(t, g, 0, Lock{Type: TypeLock})
		act(t, g, 2, Move{Type: TypeMove, X: 20, Y: -10})
		bots := make([]*Bot, c.n)
		now := t0
		for step := 0; !g.over; step++ {
			if step > 20000 {
				t.Fatalf("%s: game did not end", c.mode)
			}
			if step%37 == 0 {
				for s := range bots {
					bots[s] = NewBot(rules.BotSetup{Seat: s, Seed: uint64(step + s)})
				}
			}
			if g.phase == PhaseTeamVote && g.ballot[g.players[0]] == 0 && g.rev == 1 {
				// A person puts a wrong number on the first token, then leaves.
				wrong := g.number[g.players[1]]
				act(t, g, 1-g.active, BallotSet{Type: TypeBallotSet, Seat: g.players[0], Number: wrong})
			}
			now = now.Add(300 * time.Millisecond)
			g.Tick(now)
			for s, b := range bots {
				if a := b.Act(g.View(s), now); a != nil {
					if err := g.Apply(s, rules.Encode(a), now); err != nil {
						t.Fatalf("%s: bot %d %+v: %v", c.mode, s, a, err)
					}
				}
			}
		}
		if b := NewBot(rules.BotSetup{Seat: 0, Seed: 1}); b.Act(g.View(0), now) != nil || b.Act(g.View(rules.Spectator), now) != nil {
			t.Fatal("a bot acts after the game or as a spectator")
		}
	}
}

func TestBotWaitsLikeAPerson(t *testing.T) {
	g := newGame(t, 4, untimed(ModeCompetitive))
	b := NewBot(rules.BotSetup{Seat: 1, Seed: 5})
	if a := b.Act(g.View(1), t0); a != nil {
		t.Fatalf("acted at once: %+v", a)
	}
	if a := b.Act(g.View(1), t0.Add(readingReactions[PhasePlacement].Least-time.Millisecond)); a != nil {
		t.Fatalf("acted before reading the round: %+v", a)
	}
	thought := t0.Add(time.Minute)
	if a := b.Act(g.View(1), thought); a == nil {
		t.Fatal("did nothing after thinking")
	}
	if a := b.Act(g.View(1), thought.Add(b.temper.Think(botStep/2))); a != nil {
		t.Fatalf("acted twice within a step: %+v", a)
	}
}
