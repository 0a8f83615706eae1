package session

import (
	"fmt"
	"time"

	"parlor/lobby"
)

// awayFor says how long an away player has been gone, and whether a bot plays for them,
// for the host's seat list: "away 3 min, a bot plays".
func awayFor(s lobby.SeatInfo, now time.Time) string {
	text := "away"
	if !s.AwaySince.IsZero() {
		switch d := now.Sub(s.AwaySince); {
		case d < time.Minute:
			text += fmt.Sprintf(" %d s", int(d/time.Second))
		default:
			text += fmt.Sprintf(" %d min", int(d/time.Minute))
		}
	}
	if s.StandIn {
		text += ", a bot plays"
	}
	return text
}
