package gameui

import "testing"

func TestAwayMark(t *testing.T) {
	f := Frame{Away: SeatSet(0).With(1).With(13)}
	for seat, want := range map[int]string{0: "", 1: " (away)", 13: " (away)", -1: "", 64: ""} {
		if got := AwayMark(f, seat); got != want {
			t.Errorf("AwayMark(seat %d) = %q, want %q", seat, got, want)
		}
	}
	if f.Key() == (Frame{}).Key() {
		t.Error("the frame key does not change with who is away, so caches would go stale")
	}
}
