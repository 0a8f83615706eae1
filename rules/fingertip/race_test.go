package fingertip

import (
	"slices"
	"testing"
	"time"

	"parlor/rules"
)

// racePoll is how often raceTimes asks a bot whether it points yet: finer than a
// table's tick (250 ms), which is when a table asks its bots.
const racePoll = 50 * time.Millisecond

// raceTimes plays seeded all-bot games of four at a bot skill and returns, for the
// first turns of each, how long after the clue (in game time) each of the three racing
// bots points, and the first of them: the time a person racing them has.
func raceTimes(t testing.TB, content map[string][]byte, skill string, games, turns int) (each, first []time.Duration) {
	t.Helper()
	o, err := Spec.CheckOptions(rules.Options{rules.OptBots: skill})
	if err != nil {
		t.Fatal(err)
	}
	for game := range games {
		seed := uint64(game + 1)
		g, err := New(rules.Setup{Names: names6[:4], Seed: seed, Options: o, Content: content, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]*Bot, 4)
		for s := range bots {
			bots[s] = NewBot(rules.BotSetup{Seat: s, Seed: seed*100 + uint64(s), Options: o, Content: content})
		}
		now := t0
		for turn := 0; turn < turns && g.phase != PhaseOver; {
			switch g.phase {
			case PhaseClue:
				mustApply(t, g, g.active, Clue{Type: TypeClue, Text: bots[g.active].clueFor(view(g, g.active))}, now)
			case PhaseRace:
				turn++
				soonest := time.Duration(-1)
				for _, s := range guessers(g) {
					v := g.View(s)
					d := time.Duration(0)
					for bots[s].Act(v, now.Add(d)) == nil {
						if d += racePoll; d > 2*time.Minute {
							t.Fatalf("skill %s, seed %d: bot %d did not point in two minutes", skill, seed, s)
						}
					}
					each = append(each, d)
					if soonest < 0 || d < soonest {
						soonest = d
					}
				}
				first = append(first, soonest)
				// End the race: the racers point at what they chose, in seat order.
				for _, s := range guessers(g) {
					if g.phase == PhaseRace {
						mustApply(t, g, s, Point{Type: TypePoint, Position: bots[s].choose(view(g, s))}, now.Add(soonest))
					}
				}
			default:
				now = now.Add(time.Hour)
				g.Tick(now)
			}
		}
	}
	return each, first
}

// quantile is the q-quantile of ds (which it sorts).
func quantile(ds []time.Duration, q float64) time.Duration {
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

// Bots point at a person's pace: a player who has just read the clue still has a fair
// chance against them. A newcomer once lost the race to a "normal" bot that pointed 3 s
// after the clue, before the "Point at" prompt had even shown. Every bot takes at least
// its skill's shortest time to read the clue and the square (normal 5 s, sharp 3.5 s,
// easy 7.5 s); easy bots are slower than normal ones, normal than sharp, and the first
// of three normal bots points after 7 s in over half of the races. The figures are in
// docs/bots.md ("How fast bots play").
func TestBotsRaceAtAPersonsPace(t *testing.T) {
	content := realContent(t)
	games := 60
	if testing.Short() {
		games = 20
	}
	least := map[string]time.Duration{rules.SkillEasy: 7500 * time.Millisecond, rules.SkillNormal: 5 * time.Second, rules.SkillSharp: 3500 * time.Millisecond}
	median := map[string]time.Duration{}
	var firstNormal time.Duration
	for _, skill := range []string{rules.SkillEasy, rules.SkillNormal, rules.SkillSharp} {
		each, first := raceTimes(t, content, skill, games, 4)
		median[skill] = quantile(each, 0.5)
		t.Logf("%s: %d bots in %d races point after %v (10%%), %v (median), %v (90%%); the first of three after %v (median), %v at the soonest",
			skill, len(each), len(first), quantile(each, 0.1), median[skill], quantile(each, 0.9), quantile(first, 0.5), quantile(first, 0))
		if soonest := quantile(each, 0); soonest < least[skill] {
			t.Errorf("a bot of skill %s pointed %v after the clue, sooner than %v", skill, soonest, least[skill])
		}
		if skill == rules.SkillNormal {
			firstNormal = quantile(first, 0.5)
		}
	}
	if !(median[rules.SkillEasy] > median[rules.SkillNormal] && median[rules.SkillNormal] > median[rules.SkillSharp]) {
		t.Errorf("median times easy %v, normal %v, sharp %v: want easy slower than normal slower than sharp",
			median[rules.SkillEasy], median[rules.SkillNormal], median[rules.SkillSharp])
	}
	if firstNormal < 7*time.Second {
		t.Errorf("the first of three normal bots points %v after the clue at the median, want 7 s or more", firstNormal)
	}
}

// A bot slower than the race's time limit hurries, as a person watching the clock does:
// it points a moment before the race ends rather than never.
func TestASlowBotPointsBeforeTheRaceEnds(t *testing.T) {
	content := realContent(t)
	o, err := Spec.CheckOptions(rules.Options{rules.OptBots: rules.SkillEasy, OptRaceTime: "30s"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(rules.Setup{Names: names6[:3], Seed: 5, Options: o, Content: content, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, g, g.active, Clue{Type: TypeClue, Text: "zebra crossing at midnight"}, t0)
	seat := guessers(g)[0]
	slowest := time.Duration(0)
	for seed := range uint64(60) {
		b := NewBot(rules.BotSetup{Seat: seat, Seed: seed, Options: o, Content: content})
		d := time.Duration(0)
		for b.Act(g.View(seat), t0.Add(d)) == nil && d < time.Minute {
			d += racePoll
		}
		slowest = max(slowest, d)
	}
	if slowest > 28*time.Second {
		t.Errorf("an easy bot pointed %v into a 30 s race", slowest)
	}
	if slowest < 20*time.Second {
		t.Errorf("the slowest of 60 easy bots pointed after %v: this race does not try the hurry", slowest)
	}
}
