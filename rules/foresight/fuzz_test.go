package foresight

import (
	"testing"
	"time"

	"parlor/rules"
)

// FuzzApply feeds arbitrary bytes from arbitrary seats: never a panic, errors change
// nothing but what the deadlines up to now change.
func FuzzApply(f *testing.F) {
	f.Add([]byte(`{"type":"submit","answer":1,"predictions":[{"seat":1,"choice":2,"a":100,"b":50},{"seat":2,"choice":1,"a":25,"b":0}]}`), 0, int64(0))
	f.Add([]byte(`{"type":"ready"}`), 1, int64(90))
	f.Add([]byte(`{"type":"submit","answer":99,"predictions":null}`), 2, int64(5))
	f.Add([]byte(`{"type":"submit","answer":1,"predictions":[{"seat":-1,"choice":1,"a":-25,"b":1e9}]}`), -1, int64(0))
	f.Add([]byte(`[]`), 7, int64(-1))
	f.Add([]byte(`{"type":"submit","predictions":[{"seat":0},{"seat":0}]}`), 1, int64(3600))
	f.Fuzz(func(t *testing.T, data []byte, seat int, secs int64) {
		g := newGame(t, 3, nil, 1, threeChoices(4))
		now := t0.Add(time.Duration(secs%100000) * time.Second)
		for range 2 { // twice: the second may meet a later phase
			// Apply acts on the deadlines up to now first; a refused action changes
			// nothing more.
			g.Tick(now)
			before := snapshot(g)
			if err := g.Apply(seat, data, now); err != nil && snapshot(g) != before {
				t.Fatalf("state changed after %v", err)
			}
			for s := -1; s < 3; s++ {
				_ = g.View(s)
			}
			_ = g.Apply(1, rules.Encode(plain(1, 3)), now)
		}
	})
}
