package gameui_test

import (
	"strings"
	"testing"
	"time"

	_ "parlor/games" // every game, as the server has them
	"parlor/internal/testkit/contenttest"
	"parlor/rules"
	"parlor/session/gameui"
)

// Every game screen marks an away seat where it lists the seats, during the first round.
func TestEveryGameScreenMarksAwaySeats(t *testing.T) {
	for _, spec := range rules.Games() {
		id := spec.ID
		t.Run(id, func(t *testing.T) {
			content := contenttest.Load(t, spec.Content...)
			now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
			// Four players, or as near as the game allows.
			lo, hi := spec.PlayerRange(spec.Defaults())
			names := []string{"Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Mo", "Ned"}[:max(lo, min(hi, 4))]
			g, err := spec.New(rules.Setup{Names: names, Seed: 3, Options: spec.Defaults(), Content: content, Now: now})
			if err != nil {
				t.Fatal(err)
			}
			bots := make([]rules.Bot, len(names))
			for i := range bots {
				bots[i] = spec.NewBot(rules.BotSetup{Seat: i, Seed: uint64(i + 1), Options: spec.Defaults(), Content: content})
			}
			factory, _ := gameui.Lookup(id)
			marked := false
			for step := 0; step < 400 && !marked && g.View(0).Head().Round <= 1; step++ {
				for _, seat := range []int{0, rules.Spectator} {
					s := factory(seat)
					s.SetView(g.View(seat))
					f := gameui.Frame{Width: 80, Height: 19, Now: now, Seat: seat, Names: names, Plain: true}
					if out := s.Render(f); strings.Contains(out, "(away)") {
						t.Fatalf("seat %d: an away mark with nobody away:\n%s", seat, out)
					}
					f.Away = f.Away.With(1)
					out := s.Render(f)
					marked = marked || strings.Contains(out, "(away)") || strings.Contains(out, "~ away")
				}
				for i, b := range bots[1:] {
					if a := b.Act(g.View(i+1), now); a != nil {
						_ = g.Apply(i+1, rules.Encode(a), now)
					}
				}
				now = now.Add(time.Second)
				g.Tick(now)
			}
			if !marked {
				t.Error("no screen of the first round marks Ben as away")
			}
		})
	}
}
