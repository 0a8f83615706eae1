package lobby_test

import (
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"

	"parlor/internal/testkit/testgame"
	"parlor/internal/testkit/testlog"
	"parlor/lobby"
	"parlor/store"
)

// A table kept for a restart is logged as saved, not as closed: an operator reading
// "table closed" on every restart would think the games lost.
func TestARestartLogsTablesAsSaved(t *testing.T) {
	var out testlog.Buffer
	st := store.NewMemory()
	c := newHandClock(time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC))
	r := startConfig(t, lobby.Config{Log: st, Clock: c, Logger: log.New(&out)})
	a, err := r.l.Create(ann, testgame.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	code := a.Code()
	r.stop()
	got := out.String()
	if !strings.Contains(got, "table saved for the restart") || strings.Contains(got, "table closed") {
		t.Fatalf("the log of a restart, table %s:\n%s", code, got)
	}
}
