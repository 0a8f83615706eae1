package quadrant

import (
	"slices"
	"testing"
	"time"

	"parlor/rules"
)

// firstMoves is how long after a phase opens each of n bots of a skill makes its first
// move in it, seated at seat of g (in game time, asked every 50 ms).
func firstMoves(t *testing.T, g *Game, seat int, skill string, n int) []time.Duration {
	t.Helper()
	var out []time.Duration
	for seed := range uint64(n) {
		b := NewBot(rules.BotSetup{Seat: seat, Seed: seed, Options: rules.Options{rules.OptBots: skill}, Content: testContent()})
		d := time.Duration(0)
		for b.Act(g.View(seat), t0.Add(d)) == nil {
			if d += 50 * time.Millisecond; d > 2*time.Minute {
				t.Fatalf("%s bot %d did nothing in two minutes", skill, seed)
			}
		}
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// Bots give people time to read a round before they move: the words, the reference
// word and both criteria (a bot moved its token a second and a half into the round);
// and the votes, before they vote. None is quicker than its skill's shortest (normal
// 4 s to place, 5 s to vote); easy bots are slower than normal ones, normal than sharp.
func TestBotsReadTheRoundBeforeTheyMove(t *testing.T) {
	least := map[string]float64{rules.SkillEasy: 1.5, rules.SkillNormal: 1, rules.SkillSharp: 0.7}
	for _, phase := range []struct {
		name  string
		least time.Duration
		set   func(*Game)
	}{
		{PhasePlacement, 4 * time.Second, func(*Game) {}},
		{PhaseVoting, 5 * time.Second, func(g *Game) { lockAll(t, g) }},
	} {
		g := newGame(t, 4, untimed(ModeCompetitive))
		phase.set(g)
		if g.phase != phase.name {
			t.Fatalf("in phase %s, want %s", g.phase, phase.name)
		}
		median := map[string]time.Duration{}
		for skill, pace := range least {
			times := firstMoves(t, g, 1, skill, 60)
			median[skill] = times[len(times)/2]
			t.Logf("%s, %s bots: first move after %v at the soonest, %v at the median", phase.name, skill, times[0], median[skill])
			if floor := time.Duration(pace * float64(phase.least)); times[0] < floor {
				t.Errorf("%s: a bot of skill %s moved %v into the phase, sooner than %v", phase.name, skill, times[0], floor)
			}
		}
		if !(median[rules.SkillEasy] > median[rules.SkillNormal] && median[rules.SkillNormal] > median[rules.SkillSharp]) {
			t.Errorf("%s: medians %v", phase.name, median)
		}
	}
}

// A bot slower than the placement's time limit hurries, as a person watching the clock
// does: it starts early enough to walk its token where it belongs and lock it.
func TestASlowBotLocksBeforeThePlacementEnds(t *testing.T) {
	opts := untimed(ModeCompetitive)
	opts[OptPlacement] = "30s"
	slowest := time.Duration(0) // the latest first move
	for seed := range uint64(300) {
		g := newGame(t, 4, opts)
		deadline := g.View(1).(View).Deadline
		b := NewBot(rules.BotSetup{Seat: 1, Seed: seed, Options: rules.Options{rules.OptBots: rules.SkillEasy}, Content: testContent()})
		moved := false
		for now := t0; now.Before(deadline) && !g.locked[1]; now = now.Add(250 * time.Millisecond) {
			if a := b.Act(g.View(1), now); a != nil {
				if err := g.Apply(1, rules.Encode(a), now); err != nil {
					t.Fatal(err)
				}
				if !moved {
					moved, slowest = true, max(slowest, now.Sub(t0))
				}
			}
		}
		if !g.locked[1] {
			t.Errorf("easy bot %d did not lock its token within the 30 s of the placement", seed)
		}
	}
	if slowest < 20*time.Second {
		t.Errorf("the slowest of the easy bots moved %v into the placement: this does not try the hurry", slowest)
	}
}
