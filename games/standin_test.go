package games_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"parlor/assets"
	"parlor/rules"
)

// startWithBots starts a game of spec at its default options with as few players as
// they allow, each with its bot, at start.
func startWithBots(t *testing.T, spec *rules.Spec, seed uint64, start time.Time) (rules.Game, []rules.Bot) {
	t.Helper()
	content, err := assets.Load(spec.Content)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := spec.PlayerRange(spec.Defaults())
	setup := rules.Setup{Seed: seed, Options: spec.Defaults(), Content: content, Now: start}
	for i := 0; i < n; i++ {
		setup.Names = append(setup.Names, string(rune('A'+i)))
	}
	g, err := spec.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]rules.Bot, n)
	for i := range bots {
		bots[i] = spec.NewBot(rules.BotSetup{Seat: i, Seed: uint64(i + 1), Options: setup.Options, Content: content})
	}
	return g, bots
}

// playEvery plays a whole game of every game with its bots, seat 0's moves as a stand-in's
// (rules.ApplyBy), calling after each bot's turn to act.
func playEvery(t *testing.T, after func(t *testing.T, g rules.Game, n, step int)) {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, spec := range rules.Games() {
		t.Run(spec.ID, func(t *testing.T) {
			g, bots := startWithBots(t, spec, 11, start)
			now := start
			for step := 0; step < 400; step++ {
				if _, over := g.Outcome(); over {
					break
				}
				for i, b := range bots {
					if a := b.Act(g.View(i), now); a != nil {
						_ = rules.ApplyBy(g, i, rules.Encode(a), now, i == 0)
					}
					after(t, g, len(bots), step)
				}
				now = now.Add(5 * time.Second)
				g.Tick(now)
			}
		})
	}
}

// A bot playing seat 0 for its absent player, through a whole game of every game: the
// seat's own log lines speak of the bot ("A bot for you voted: …"), never as if the
// player had done it ("You voted: …"). Every game with lines of a seat's own words them
// so, through rules.StandIns.
func TestAStandInsMovesAreWordedAsTheBots(t *testing.T) {
	worded := map[rules.Game]int{}
	playEvery(t, func(t *testing.T, g rules.Game, _, step int) {
		for _, line := range g.View(0).Head().Log {
			if strings.HasPrefix(line, "You ") {
				t.Fatalf("step %d: seat 0's log says %q of the bot's move", step, line)
			}
			if strings.HasPrefix(line, "A bot for you") {
				worded[g]++
			}
		}
	})
	for g, n := range worded {
		if _, ok := g.(rules.StandIns); !ok {
			t.Errorf("%T words %d lines for the bot without implementing rules.StandIns", g, n)
		}
	}
	if len(worded) < 4 {
		t.Errorf("only %d games worded a line of seat 0's for the bot, want the four with such lines", len(worded))
	}
}

// Every game keeps its whole log for whoever comes late (rules.Historian), and each
// seat's history ends with the lines its view carries: the same lines, the same privacy.
func TestEveryGamesHistoryEndsWithItsViewsLog(t *testing.T) {
	playEvery(t, func(t *testing.T, g rules.Game, n, step int) {
		if _, ok := g.(rules.Historian); !ok {
			t.Fatalf("%T keeps no history", g)
		}
		for seat := rules.Spectator; seat < n; seat++ {
			h, log := rules.HistoryOf(g, seat), g.View(seat).Head().Log
			if len(h) < len(log) || !slices.Equal(h[len(h)-len(log):], log) {
				t.Fatalf("step %d, seat %d: the view's log %q is not the end of the history %q", step, seat, log, h)
			}
		}
	})
}
