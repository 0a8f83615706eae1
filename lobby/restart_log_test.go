package lobby_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/log/v2"

	"parlor/internal/testgame"
	"parlor/lobby"
	"parlor/store"
)

// syncBuffer is a bytes.Buffer safe for the lobby's goroutines to log into.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A table kept for a restart is logged as saved, not as closed: an operator reading
// "table closed" on every restart would think the games lost.
func TestARestartLogsTablesAsSaved(t *testing.T) {
	var out syncBuffer
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
