package sshterm

import (
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
)

// The screen's text is the emulator's own reading of it, for styled rows, wide
// characters, blank rows and rows that end in styled blanks; and so is each row read
// alone.
func TestScreenStringIsTheEmulators(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"plain ", "\x1b[31mred\x1b[m", "\x1b[44m   \x1b[m", "中文", "🎲", "\r\n", "\r\n\r\n", "  ", "\x1b[7mrev", "\x1b[m"}
	for round := range 200 {
		s := &screen{em: vt.NewEmulator(20, 6)}
		var in strings.Builder
		for range rng.IntN(20) {
			in.WriteString(pieces[rng.IntN(len(pieces))])
		}
		_, _ = s.em.Write([]byte(in.String()))
		if got, want := s.String(), s.em.String(); got != want {
			t.Fatalf("round %d, after %q:\ngot  %q\nwant %q", round, in.String(), got, want)
		}
		for y, want := range strings.Split(s.em.String(), "\n") {
			if got := s.Row(y); got != want {
				t.Fatalf("round %d, after %q: row %d is %q, want %q", round, in.String(), y, got, want)
			}
		}
		if got := s.Row(6); got != "" {
			t.Fatalf("round %d: the row past the screen is %q", round, got)
		}
	}
}

// overlapWriter records whether two writes were ever inside Write at once, as two
// writes to one x/crypto channel must not be.
type overlapWriter struct {
	in, overlapped atomic.Int32
}

func (o *overlapWriter) Write(p []byte) (int, error) {
	if o.in.Add(1) > 1 {
		o.overlapped.Store(1)
	}
	time.Sleep(50 * time.Microsecond)
	o.in.Add(-1)
	return len(p), nil
}

// The terminal's replies and keys, written from different goroutines, reach the
// channel one write at a time.
func TestWritesToTheChannelAreOneAtATime(t *testing.T) {
	o := &overlapWriter{}
	w := &LockedWriter{W: o}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				_, _ = w.Write([]byte("x"))
			}
		})
	}
	wg.Wait()
	if o.overlapped.Load() != 0 {
		t.Fatal("two writes reached the channel at once")
	}
}

// BenchmarkScreenString reads a full 80×24 screen of styled text, as the load
// generator does after every write a player's terminal gets while an action is due.
func BenchmarkScreenString(b *testing.B) {
	s := &screen{em: vt.NewEmulator(80, 24)}
	var in strings.Builder
	for y := range 24 {
		in.WriteString("\x1b[1m Quadrant\x1b[m · table ABCD ·   \x1b[2m│\x1b[m    ▲ word  ")
		in.WriteString(strings.Repeat("x", y))
		if y < 23 {
			in.WriteString("\r\n")
		}
	}
	_, _ = s.em.Write([]byte(in.String()))
	b.ReportAllocs()
	for b.Loop() {
		_ = s.String()
	}
}
