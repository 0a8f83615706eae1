package games_test

import (
	"strings"
	"testing"
	"time"

	"parlor/assets"
	"parlor/rules"
)

// A bot playing seat 0 for its absent player, through a whole game of every game: the
// seat's own log lines speak of the bot ("A bot for you voted: …"), never as if the
// player had done it ("You voted: …"). Every game with lines of a seat's own words them
// so, through rules.StandIns.
func TestAStandInsMovesAreWordedAsTheBots(t *testing.T) {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, spec := range rules.Games() {
		t.Run(spec.ID, func(t *testing.T) {
			content, err := assets.Load(spec.Content)
			if err != nil {
				t.Fatal(err)
			}
			n, _ := spec.PlayerRange(spec.Defaults())
			setup := rules.Setup{Seed: 11, Options: spec.Defaults(), Content: content, Now: start}
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
			now, worded := start, 0
			for step := 0; step < 400; step++ {
				if _, over := g.Outcome(); over {
					break
				}
				for i, b := range bots {
					if a := b.Act(g.View(i), now); a != nil {
						_ = rules.ApplyBy(g, i, rules.Encode(a), now, i == 0)
					}
					for _, line := range g.View(0).Head().Log {
						if strings.HasPrefix(line, "You ") {
							t.Fatalf("step %d: seat 0's log says %q of the bot's move", step, line)
						}
						if strings.HasPrefix(line, "A bot for you") {
							worded++
						}
					}
				}
				now = now.Add(5 * time.Second)
				g.Tick(now)
			}
			if _, ok := g.(rules.StandIns); ok != (worded > 0) {
				t.Errorf("implements rules.StandIns: %v, yet %d of seat 0's lines were worded for the bot", ok, worded)
			}
		})
	}
}
