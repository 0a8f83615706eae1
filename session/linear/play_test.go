package linear

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"parlor/assets"
	_ "parlor/games"
	"parlor/internal/testkit/testclock"
	"parlor/lobby"
)

// A door on a lobby of its own: lines typed ahead of the table's first update wait for
// it, and a timed question is said to be nearly over once, 15 seconds before its end.
func TestDoorTypedAheadAndHurry(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clock := testclock.New(time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC))
	l := lobby.New(ctx, lobby.Config{Content: assets.Load, Clock: clock})
	defer func() {
		cancel()
		sctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		_ = l.Shutdown(sctx)
	}()
	p := lobby.Player{ID: "SHA256:ann", Name: "Ann"}
	online := l.Connected(p.ID)
	defer online.Done()
	d := New(Options{Lobby: l, Player: p, Online: online})
	in, typed := io.Pipe()
	out := &syncBuffer{}
	done := make(chan struct{})
	go func() { d.Run(ctx, in, out); close(done) }()

	// Create a Top Five table, add two bots and start, all typed at once. The ranking
	// time is 90 s, twice that for a player in the linear mode.
	_, _ = io.WriteString(typed, "1\n5\n2\n2\n1\n")
	waitContains(t, out, "Which topic is your number 1, the one you like most? (3 minutes left.)")
	clock.Advance(160 * time.Second)
	clock.Advance(6 * time.Second)
	waitContains(t, out, "Hurry: 14 seconds left. Type r for the question.")
	clock.Advance(time.Second)
	_, _ = io.WriteString(typed, "r\n")
	waitContains(t, out, "Which topic is your number 1, the one you like most? (13 seconds left.)")
	if n := strings.Count(out.String(), "Hurry:"); n != 1 {
		t.Fatalf("hurried %d times:\n%s", n, out.String())
	}
	_, _ = io.WriteString(typed, "quit\n")
	<-done
	if !strings.HasSuffix(out.String(), "Goodbye.\n") {
		t.Fatalf("no goodbye:\n%s", out.String())
	}
}

func waitContains(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	for range 2500 { // at most 5 s, for a busy machine
		if strings.Contains(out.String(), want) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("no %q in:\n%s", want, out.String())
}
