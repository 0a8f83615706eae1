package topfive

import (
	"encoding/json"
	"testing"
	"time"

	"parlor/rules"
)

// FuzzApply feeds arbitrary bytes from arbitrary seats, in every phase: Apply never panics,
// and an error leaves the game unchanged.
func FuzzApply(f *testing.F) {
	for _, s := range []string{
		`{"type":"rank","ranks":[1,2,3,4,5],"marker":0}`,
		`{"type":"rank","ranks":[1,2,3,4,5]}`,
		`{"type":"rank","ranks":[5,4,3,2,1],"marker":[1,2]}`,
		`{"type":"rank","ranks":[1,2,3,4,5],"marker":0,"marker":1}`,
		`{"type":"rank","ranks":[9,-1,3,4,5],"marker":99}`,
		`{"type":"ready"}`,
		`{"type":"ready","x":1}`,
		`{"type":""}`,
		`[]`, `null`, `{`, `"rank"`, ``,
	} {
		for _, seat := range []int{-2, -1, 0, 1, 2, 3} {
			for phase := range uint8(4) {
				f.Add(seat, phase, []byte(s))
			}
		}
	}
	f.Fuzz(func(t *testing.T, seat int, phase uint8, action []byte) {
		g := newGame(t, seatNames(3), rules.Options{OptTimer: "30s"}, 1)
		now := t0
		// Bring the game to the phase asked for.
		if phase%4 >= 1 {
			mustApply(t, g, 0, NewRank(r5(1, 2, 3, 4, 5), -1), now)
			mustApply(t, g, 1, NewRank(r5(2, 1, 3, 4, 5), 2), now)
		}
		if phase%4 >= 2 {
			mustApply(t, g, 2, NewRank(r5(1, 2, 3, 4, 5), 4), now)
		}
		if phase%4 >= 3 {
			now = runReveal(t, g, now)
		}
		before := snapshot(t, g)
		if err := g.Apply(seat, json.RawMessage(action), now); err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			if snapshot(t, g) != before {
				t.Fatalf("state changed after %v", err)
			}
		}
		g.Tick(now.Add(time.Minute))
		_ = g.View(seat)
	})
}
