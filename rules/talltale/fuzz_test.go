package talltale

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzApply feeds arbitrary bytes from arbitrary seats to games in every phase: Apply
// must never panic, and an error must leave the state unchanged.
func FuzzApply(f *testing.F) {
	for _, s := range []string{
		`{"type":"discard","card":3}`, `{"type":"story","text":"A tale.","confirm":true}`,
		`{"type":"token","card":5}`, `{"type":"token","card":-9}`, `{"type":"story","text":"\u001b[2J"}`,
		`{}`, `null`, `[]`, `{"type":"token","card":1e400}`, `{"type":"discard","card":3}{}`,
	} {
		for seat := -2; seat < 4; seat++ {
			f.Add(seat, uint8(seat+2), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, seat int, phase uint8, data []byte) {
		g := newGame(t, 3, 11, nil)
		g.drawn = []int{3, 0, 1, 2}
		if phase%4 >= 1 {
			mustApply(t, g, g.narrator, Discard{Type: "discard", Card: 3})
		}
		if phase%4 >= 2 {
			mustApply(t, g, g.narrator, Story{Type: "story", Text: "A tale."})
			mustApply(t, g, g.othersThan(g.narrator)[0], Token{Type: "token", Card: 5})
		}
		if phase%4 == 3 {
			for _, s := range g.othersThan(g.narrator) {
				for _, c := range []int{6, 7, 8} {
					if len(g.tokensOf(s)) < 3 {
						mustApply(t, g, s, Token{Type: "token", Card: c})
					}
				}
			}
		}
		before := snapshot(t, g)
		if err := g.Apply(seat, json.RawMessage(data), t0.Add(time.Second)); err != nil {
			if snapshot(t, g) != before {
				t.Fatalf("state changed after %v", err)
			}
			return
		}
		g.Tick(t0.Add(time.Hour))
		_ = g.View(seat)
	})
}
