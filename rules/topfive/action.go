package topfive

import (
	"bytes"
	"encoding/json"
	"fmt"

	"parlor/rules"
)

// Action types, the "type" field of every action.
const (
	TypeRank  = "rank"  // submit a ranking (and, for a Guesser, the marker)
	TypeReady = "ready" // done looking at the round's scores
)

// Rank submits a ranking. Ranks[i] is the rank (1 = most liked … 5 = least liked) given
// to Topics[i] of the view; it must use each of 1..5 exactly once. Marker is the index of
// the topic that carries the "I know this one!" marker: required from a Guesser, absent
// for the Player of Honour and in duo.
type Rank struct {
	Type   string `json:"type"` // always "rank"
	Ranks  []int  `json:"ranks"`
	Marker *int   `json:"marker,omitempty"`
}

// Ready says the player has seen the round's scores; the next round starts when all are ready.
type Ready struct {
	Type string `json:"type"` // always "ready"
}

// NewRank builds a rank action; marker < 0 means no marker.
func NewRank(ranks [Hand]int, marker int) Rank {
	a := Rank{Type: TypeRank, Ranks: ranks[:]}
	if marker >= 0 {
		m := marker
		a.Marker = &m
	}
	return a
}

// Sentinel errors; the wrapped text names what is wrong in words a player can read. The
// errors every game shares (a spectator, a seat not at the table, an unknown action, the
// end of the game) are the rules package's.
var (
	ErrWrongPhase   = rules.Sentinel("topfive.wrong_phase", "topfive: not now")
	ErrSubmitted    = rules.Sentinel("topfive.submitted", "topfive: already submitted")
	ErrRanking      = rules.Sentinel("topfive.ranking", "topfive: the ranking is not complete")
	ErrMarker       = rules.Sentinel("topfive.marker", "topfive: the marker is missing")
	ErrTwoMarkers   = rules.Sentinel("topfive.two_markers", "topfive: only one \"I know this one!\" marker")
	ErrNoMarker     = rules.Sentinel("topfive.no_marker", "topfive: no marker here")
	ErrAlreadyReady = rules.Sentinel("topfive.already_ready", "topfive: already ready")
)

// rankAction is Rank as decoded: the marker stays raw so that two markers can be told apart
// from a malformed one.
type rankAction struct {
	Type   string          `json:"type"`
	Ranks  []int           `json:"ranks"`
	Marker json.RawMessage `json:"marker"`
}

// decodeRank decodes and checks the shape of a rank action (not whether it may be played now).
// wantMarker says whether this seat must place a marker.
func decodeRank(raw json.RawMessage, wantMarker bool) (ranking, error) {
	if k, dup := duplicateKey(raw); dup {
		if k == "marker" {
			return ranking{}, fmt.Errorf("%w: the action gives \"marker\" twice", ErrTwoMarkers)
		}
		return ranking{}, fmt.Errorf("%w: the action gives %q twice", rules.ErrBadAction, k)
	}
	var a rankAction
	if err := rules.Decode(raw, &a); err != nil {
		return ranking{}, err
	}
	r := ranking{marker: -1}
	if err := checkPermutation(a.Ranks); err != nil {
		return ranking{}, err
	}
	copy(r.ranks[:], a.Ranks)
	m := bytes.TrimSpace(a.Marker)
	switch {
	case len(m) == 0 || string(m) == "null":
		if wantMarker {
			return ranking{}, fmt.Errorf("%w: put it on the guess you are surest of", ErrMarker)
		}
	case !wantMarker:
		return ranking{}, fmt.Errorf("%w: only Guessers place the \"I know this one!\" marker", ErrNoMarker)
	case m[0] == '[':
		var list []json.RawMessage
		if json.Unmarshal(m, &list) == nil && len(list) > 1 {
			return ranking{}, fmt.Errorf("%w: you placed %d", ErrTwoMarkers, len(list))
		}
		return ranking{}, fmt.Errorf("%w: \"marker\" is one topic number from 0 to 4", rules.ErrBadAction)
	default:
		var idx int
		if err := json.Unmarshal(m, &idx); err != nil || idx < 0 || idx >= Hand {
			return ranking{}, fmt.Errorf("%w: \"marker\" is one topic number from 0 to 4", rules.ErrBadAction)
		}
		r.marker = idx
	}
	return r, nil
}

// checkPermutation explains the first thing that keeps ranks from being 1..5 once each.
func checkPermutation(ranks []int) error {
	if len(ranks) != Hand {
		return fmt.Errorf("%w: give a rank to each of the %d topics (got %d)", ErrRanking, Hand, len(ranks))
	}
	var used [Hand + 1]int
	for i, r := range ranks {
		if r < 1 || r > Hand {
			return fmt.Errorf("%w: topic %d has rank %d; ranks go from 1 to %d", ErrRanking, i+1, r, Hand)
		}
		used[r]++
	}
	for r := 1; r <= Hand; r++ {
		if used[r] == 0 {
			return fmt.Errorf("%w: rank %d is missing", ErrRanking, r)
		}
	}
	return nil
}

// duplicateKey finds a key given twice at the top level of a JSON object; the standard
// decoder would silently keep the last one.
func duplicateKey(raw json.RawMessage) (string, bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	seen := map[string]bool{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return "", false
		}
		k, ok := t.(string)
		if !ok {
			return "", false
		}
		if seen[k] {
			return k, true
		}
		seen[k] = true
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return "", false
		}
	}
	return "", false
}
