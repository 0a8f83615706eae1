package lobby_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/store"
)

// once is a place's CallOnce (a member of this lobby's own table).
func once(t *testing.T, p lobby.Place, id string, req lobby.Request) error {
	t.Helper()
	m, ok := p.(interface {
		CallOnce(string, lobby.Request) (any, error)
	})
	if !ok {
		t.Fatalf("%T has no CallOnce", p)
	}
	_, err := m.CallOnce(id, req)
	return err
}

// picks counts the picks of seat in a table's log.
func picks(t *testing.T, st store.TableLog, code string, seat int) int {
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

// A call sent again under its id (a cluster's session whose answer did not come) is
// answered "ok" and not applied again, by the table that applied it and by the table
// restored from its log: the id is in the entry the call made.
func TestACallSentAgainIsAppliedOnce(t *testing.T) {
	st := store.NewMemory()
	t.Cleanup(func() { _ = st.Close() })
	c := newClock()
	r := start(t, st, c, nil)
	hostP, annP := lobby.Player{ID: "SHA256:host", Name: "Host"}, lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	host, err := r.l.Create(hostP, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	code := host.Code()
	ann, err := r.l.Join(annP, code)
	if err != nil {
		t.Fatal(err)
	}
	pick := lobby.ActOf(testgame.Pick(1))
	if err := once(t, host, "host-1", lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := once(t, ann, "ann-1", pick); err != nil {
		t.Fatal(err)
	}
	if err := once(t, ann, "ann-1", pick); err != nil {
		t.Errorf("the same pick again: %v; want ok", err)
	}
	if err := once(t, ann, "ann-2", pick); !errors.Is(err, testgame.ErrPicked) {
		t.Errorf("another pick: %v; want %v", err, testgame.ErrPicked)
	}
	r.stop()

	r2 := start(t, st, c, nil)
	if _, err := r2.l.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	host, err = r2.l.Join(hostP, code)
	if err != nil {
		t.Fatal(err)
	}
	ann, err = r2.l.Join(annP, code)
	if err != nil {
		t.Fatal(err)
	}
	if err := once(t, ann, "ann-1", pick); err != nil {
		t.Errorf("the same pick again after a restart: %v; want ok", err)
	}
	if err := once(t, host, "host-1", lobby.Start{}); err != nil {
		t.Errorf("the same start again after a restart: %v; want ok", err)
	}
	if n := picks(t, st, code, 1); n != 1 {
		t.Errorf("the log holds %d picks of Ann's; want 1 (the game was not started again)", n)
	}
}
