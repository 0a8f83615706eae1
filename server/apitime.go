package server

import (
	"bytes"
	"encoding/json"
	"time"

	"parlor/lobby"
)

// The API's times are the wall clock's (lobby.Shown): under --game-speed game time runs
// years ahead of it, and a client shows a chat line's time of day and measures a
// deadline against a view's now. The lobby stamps chat lines with the wall clock's time
// itself; a view's and a table's times stay game time in the lobby (the table screen
// counts down against the lobby's clock), so the API converts them on the way out.

// shownKeys name the times of a view or a table: rules.Header's deadline, a Quadrant
// ballot's changed_at, a seat's away_since.
var shownKeys = map[string]bool{"deadline": true, "changed_at": true, "away_since": true}

// shown is an event's JSON with its game times as the wall clock's; the JSON as it is
// when the game clock is the wall clock.
func (s *Server) shown(raw []byte) []byte {
	if _, apart := s.cfg.Clock.(lobby.ApartClock); !apart {
		return raw
	}
	return shownJSON(raw, s.lobby.Shown)
}

// shownJSON rewrites every time under a shownKeys key, at any depth, by conv; anything
// it cannot read it leaves as it is.
func shownJSON(raw []byte, conv func(time.Time) time.Time) []byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return raw
	}
	switch raw[0] {
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return raw
		}
		for k, v := range m {
			if !shownKeys[k] {
				m[k] = shownJSON(v, conv)
				continue
			}
			var at time.Time
			if json.Unmarshal(v, &at) == nil {
				if b, err := json.Marshal(conv(at)); err == nil {
					m[k] = b
				}
			}
		}
		out, err := json.Marshal(m)
		if err != nil {
			return raw
		}
		return out
	case '[':
		var a []json.RawMessage
		if json.Unmarshal(raw, &a) != nil {
			return raw
		}
		for i, v := range a {
			a[i] = shownJSON(v, conv)
		}
		out, err := json.Marshal(a)
		if err != nil {
			return raw
		}
		return out
	}
	return raw
}
