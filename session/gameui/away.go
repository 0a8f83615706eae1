package gameui

// SeatSet is a set of seats (0 to 63). It is comparable, so a frame cache keyed on a
// FrameKey redraws when the set changes.
type SeatSet uint64

// Has reports whether seat is in the set.
func (s SeatSet) Has(seat int) bool { return seat >= 0 && seat < 64 && s&(1<<seat) != 0 }

// With is the set with seat added.
func (s SeatSet) With(seat int) SeatSet {
	if seat < 0 || seat >= 64 {
		return s
	}
	return s | 1<<seat
}

// AwayMark is what a game screen writes after a seat's name wherever it lists seats or
// scores: " (away)" while that player's connection is gone (a bot may be playing for
// them), so nobody wonders why the seat does not move.
func AwayMark(f Frame, seat int) string {
	if f.Away.Has(seat) {
		return " (away)"
	}
	return ""
}
