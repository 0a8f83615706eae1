package testgame

import (
	"context"
	"encoding/json"
	"testing"

	"parlor/store"
)

// Acts counts the actions of seat in the log of the table with code: a test of a call
// sent again reads there that it was applied once.
func Acts(t testing.TB, st store.TableLog, code string, seat int) int {
	t.Helper()
	entries, err := st.ReadTable(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		var r struct {
			Kind string `json:"kind"`
			Seat int    `json:"seat"`
		}
		if json.Unmarshal(e.Data, &r) == nil && r.Kind == "act" && r.Seat == seat {
			n++
		}
	}
	return n
}
