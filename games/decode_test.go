package games_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	_ "parlor/games"
	"parlor/rules"
)

// Every game's views survive the trip through JSON a cluster gives them (a table on one
// node, the player's session on another): the decoded view is the game's own view type
// and says exactly what the original said, through the bots' play of a whole game.
func TestViewsDecodeFromJSON(t *testing.T) {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, spec := range rules.Games() {
		t.Run(spec.ID, func(t *testing.T) {
			if spec.DecodeView == nil {
				t.Fatal("no DecodeView")
			}
			g, bots := startWithBots(t, spec, 7, start)
			n := len(bots)
			now := start
			checked := 0
			for step := 0; step < 400; step++ {
				if _, over := g.Outcome(); over && step > 0 {
					break
				}
				for seat := rules.Spectator; seat < n; seat++ {
					roundTrip(t, spec, g.View(seat))
					checked++
				}
				for i, b := range bots {
					if a := b.Act(g.View(i), now); a != nil {
						_ = g.Apply(i, rules.Encode(a), now)
					}
				}
				now = now.Add(5 * time.Second)
				g.Tick(now)
			}
			roundTrip(t, spec, g.View(0))
			if checked < 3 {
				t.Fatalf("only %d views checked", checked)
			}
		})
	}
}

func roundTrip(t *testing.T, spec *rules.Spec, v rules.View) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	back, err := spec.DecodeView(b)
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if reflect.TypeOf(back) != reflect.TypeOf(v) {
		t.Fatalf("decoded a %T, want %T", back, v)
	}
	again, _ := json.Marshal(back)
	if !bytes.Equal(b, again) {
		t.Fatalf("view changed on the way:\n%s\n%s", b, again)
	}
	if back.Head().Seat != v.Head().Seat || back.Head().Phase != v.Head().Phase {
		t.Fatalf("header changed: %+v, want %+v", back.Head(), v.Head())
	}
}
