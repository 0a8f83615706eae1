package session

import (
	"time"

	"parlor/lobby"
)

// awayFor says how long an away player has been gone, and whether a bot plays for them,
// for the host's seat list: "away 3 min, a bot plays".
func awayFor(s lobby.SeatInfo, now time.Time) string {
	text := "away"
	if !s.AwaySince.IsZero() {
		text += " " + lobby.AwayFor(now.Sub(s.AwaySince))
	}
	if s.StandIn {
		text += ", a bot plays"
	}
	return text
}
