package talltale

import (
	"slices"
	"testing"
	"time"

	"parlor/rules"
)

// racePoll is how often raceTimes asks a bot whether it places a token yet: finer
// than a table's tick (250 ms), which is when a table asks its bots.
const racePoll = 50 * time.Millisecond

// raceTimes plays seeded all-bot games of four at a bot skill and returns, for the
// first rounds of each, how long after the story (in game time) each of the three
// racing bots places its first token, and the first of them: the time a person racing
// them has to read the story and find an illustration.
func raceTimes(t testing.TB, skill string, games, rounds int) (each, first []time.Duration) {
	t.Helper()
	spec, _ := rules.Lookup(ID)
	o, err := spec.CheckOptions(rules.Options{rules.OptBots: skill})
	if err != nil {
		t.Fatal(err)
	}
	c := content(t)
	for game := range games {
		seed := uint64(700 + game)
		g, err := New(rules.Setup{Names: []string{"Ann", "Bob", "Cat", "Dan"}, Seed: seed, Options: o, Content: c, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]*Bot, 4)
		for s := range bots {
			bots[s] = NewBot(rules.BotSetup{Seat: s, Seed: seed*10 + uint64(s), Options: o, Content: c})
		}
		now := t0
		for round := 0; round < rounds && !g.over; {
			switch g.phase {
			case PhaseDiscard:
				v := view(g, g.narrator)
				mustApplyAt(t, g, g.narrator, Discard{Type: "discard", Card: bots[g.narrator].chooseDiscard(v.Hand.Drawn)}, now)
			case PhaseStory:
				v := view(g, g.narrator)
				mustApplyAt(t, g, g.narrator, Story{Type: "story", Text: bots[g.narrator].tell(v), Confirm: true}, now)
			case PhaseRace:
				round++
				soonest := time.Duration(-1)
				for _, s := range g.View(rules.Spectator).(View).Racers {
					v := g.View(s)
					d := time.Duration(0)
					for bots[s].Act(v, now.Add(d)) == nil {
						if d += racePoll; d > 2*time.Minute {
							t.Fatalf("skill %s, seed %d: bot %d placed no token in two minutes", skill, seed, s)
						}
					}
					each = append(each, d)
					if soonest < 0 || d < soonest {
						soonest = d
					}
				}
				first = append(first, soonest)
				// End the race: every racer places its tokens where it reads them.
				now = now.Add(soonest)
				for _, s := range g.View(rules.Spectator).(View).Racers {
					for g.phase == PhaseRace && len(view(g, s).MyTokens) < Tokens {
						c, _ := bots[s].guess(view(g, s))
						mustApplyAt(t, g, s, Token{Type: "token", Card: c}, now)
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

func mustApplyAt(t testing.TB, g *Game, seat int, a any, now time.Time) {
	t.Helper()
	if err := g.Apply(seat, act(a), now); err != nil {
		t.Fatalf("seat %d %+v: %v", seat, a, err)
	}
}

// quantile is the q-quantile of ds (which it sorts).
func quantile(ds []time.Duration, q float64) time.Duration {
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

// Bots race at a person's pace: before its first token a bot reads the story and looks
// for an illustration it hints at, as a person must, so that a player who has just read
// it still has a fair chance. Every bot takes at least its skill's shortest time (normal
// 4 s, sharp 2.8 s, easy 6 s, more for a longer story); easy bots are slower than normal
// ones, normal than sharp; and the first of three normal bots places its token after
// 7 s in over half of the races. The figures are in docs/bots.md ("How fast bots play").
func TestBotsRaceAtAPersonsPace(t *testing.T) {
	games := 20
	if testing.Short() {
		games = 8
	}
	least := map[string]time.Duration{rules.SkillEasy: 6 * time.Second, rules.SkillNormal: 4 * time.Second, rules.SkillSharp: 2800 * time.Millisecond}
	median := map[string]time.Duration{}
	var firstNormal time.Duration
	for _, skill := range []string{rules.SkillEasy, rules.SkillNormal, rules.SkillSharp} {
		each, first := raceTimes(t, skill, games, 4)
		median[skill] = quantile(each, 0.5)
		t.Logf("%s: %d bots in %d races place a first token after %v (10%%), %v (median), %v (90%%); the first of three after %v (median), %v at the soonest",
			skill, len(each), len(first), quantile(each, 0.1), median[skill], quantile(each, 0.9), quantile(first, 0.5), quantile(first, 0))
		if soonest := quantile(each, 0); soonest < least[skill] {
			t.Errorf("a bot of skill %s placed a token %v after the story, sooner than %v", skill, soonest, least[skill])
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
		t.Errorf("the first of three normal bots places a token %v after the story at the median, want 7 s or more", firstNormal)
	}
}
