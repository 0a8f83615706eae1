package testclock_test

import (
	"testing"
	"time"

	"go.uber.org/goleak"

	"parlor/internal/testkit/testclock"
	"parlor/lobby"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var _ lobby.Clock = (*testclock.Clock)(nil)

var t0 = time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)

func TestAdvanceMovesNowAndTicksOnlyWhenDue(t *testing.T) {
	c := testclock.New(t0)
	ticks, stop := c.Every(250 * time.Millisecond)
	defer stop()
	// advance reads the ticks while Advance runs: Advance returns only after handing
	// over its ticks, so every tick it gives is in the result.
	advance := func(d time.Duration) []time.Time {
		done := make(chan struct{})
		go func() { c.Advance(d); close(done) }()
		var got []time.Time
		for {
			select {
			case tk := <-ticks:
				got = append(got, tk)
			case <-done:
				return got
			}
		}
	}

	if got := advance(100 * time.Millisecond); len(got) != 0 {
		t.Fatalf("ticked at %v before the first tick was due", got)
	}
	if !c.Now().Equal(t0.Add(100 * time.Millisecond)) {
		t.Fatalf("now = %v", c.Now())
	}
	// Past two ticks at once: one tick, at the new time.
	if got := advance(500 * time.Millisecond); len(got) != 1 || !got[0].Equal(t0.Add(600*time.Millisecond)) {
		t.Fatalf("ticks %v; want one at 600 ms", got)
	}
	// The next tick is due at 750 ms, not 850: the ticker keeps its own rhythm.
	if got := advance(150 * time.Millisecond); len(got) != 1 {
		t.Fatalf("ticks %v; want one at 750 ms", got)
	}
	stop()
	if got := advance(time.Second); len(got) != 0 { // a stopped ticker neither ticks nor blocks
		t.Fatalf("stopped ticker ticked at %v", got)
	}
}

func TestAdvanceDoesNotWaitForAStoppedReader(t *testing.T) {
	c := testclock.New(t0)
	_, stop := c.Every(time.Second)
	advanced := make(chan struct{})
	go func() {
		c.Advance(2 * time.Second) // nobody reads the ticks: waits until stop
		close(advanced)
	}()
	select {
	case <-advanced:
		t.Fatal("Advance returned with an unread tick")
	case <-time.After(50 * time.Millisecond):
	}
	stop()
	<-advanced
}
