package topfive

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"parlor/rules"
)

// Every invalid action is rejected with a readable error and changes nothing.
func TestInvalidActions(t *testing.T) {
	type tc struct {
		name   string
		seat   int
		action string
		want   error
		text   string // part of the message a player reads
	}
	ranking := []tc{
		{"spectator", -1, `{"type":"rank","ranks":[1,2,3,4,5],"marker":0}`, rules.ErrSpectator, "spectators"},
		{"seat out of range", 4, `{"type":"rank","ranks":[1,2,3,4,5],"marker":0}`, rules.ErrNoSuchSeat, "seat 4"},
		{"negative seat", -7, `{"type":"rank","ranks":[1,2,3,4,5],"marker":0}`, rules.ErrNoSuchSeat, "seat -7"},
		{"acting as someone else", 1, `{"type":"rank","seat":2,"ranks":[1,2,3,4,5],"marker":0}`, rules.ErrBadAction, "seat"},
		{"not JSON", 1, `rank 1 2 3`, rules.ErrBadAction, "JSON"},
		{"no type", 1, `{"ranks":[1,2,3,4,5]}`, rules.ErrBadAction, "type"},
		{"unknown type", 1, `{"type":"guess"}`, rules.ErrUnknownAction, "guess"},
		{"ready while ranking", 1, `{"type":"ready"}`, ErrWrongPhase, "still ranking"},
		{"repeated rank", 1, `{"type":"rank","ranks":[1,1,3,4,5],"marker":0}`, ErrRanking, "rank 2 is missing"},
		{"four ranks", 1, `{"type":"rank","ranks":[1,2,3,4],"marker":0}`, ErrRanking, "each of the 5"},
		{"six ranks", 1, `{"type":"rank","ranks":[1,2,3,4,5,1],"marker":0}`, ErrRanking, "got 6"},
		{"rank 0", 1, `{"type":"rank","ranks":[0,2,3,4,5],"marker":0}`, ErrRanking, "rank 0"},
		{"rank 6", 1, `{"type":"rank","ranks":[6,2,3,4,5],"marker":0}`, ErrRanking, "rank 6"},
		{"no ranks", 1, `{"type":"rank","marker":0}`, ErrRanking, "got 0"},
		{"ranks not numbers", 1, `{"type":"rank","ranks":"12345","marker":0}`, rules.ErrBadAction, "ranks"},
		{"no marker", 1, `{"type":"rank","ranks":[1,2,3,4,5]}`, ErrMarker, "surest"},
		{"null marker", 1, `{"type":"rank","ranks":[1,2,3,4,5],"marker":null}`, ErrMarker, "missing"},
		{"two markers", 1, `{"type":"rank","ranks":[1,2,3,4,5],"marker":[0,3]}`, ErrTwoMarkers, "placed 2"},
		{"marker given twice", 1, `{"type":"rank","ranks":[1,2,3,4,5],"marker":0,"marker":3}`, ErrTwoMarkers, "twice"},
		{"marker out of range", 1, `{"type":"rank","ranks":[1,2,3,4,5],"marker":5}`, rules.ErrBadAction, "0 to 4"},
		{"negative marker", 1, `{"type":"rank","ranks":[1,2,3,4,5],"marker":-1}`, rules.ErrBadAction, "0 to 4"},
		{"marker not a number", 1, `{"type":"rank","ranks":[1,2,3,4,5],"marker":"A"}`, rules.ErrBadAction, "0 to 4"},
		{"Player of Honour places a marker", 0, `{"type":"rank","ranks":[1,2,3,4,5],"marker":2}`, ErrNoMarker, "only Guessers"},
		{"trailing data", 1, `{"type":"rank","ranks":[1,2,3,4,5],"marker":0} {}`, rules.ErrBadAction, ""},
		{"already submitted", 2, `{"type":"rank","ranks":[5,4,3,2,1],"marker":1}`, ErrSubmitted, "already"},
	}
	g := newGame(t, seatNames(4), nil, 11)
	mustApply(t, g, 2, NewRank(r5(1, 2, 3, 4, 5), 0), t0)
	check := func(t *testing.T, g *Game, cases []tc) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				before := snapshot(t, g)
				err := g.Apply(c.seat, json.RawMessage(c.action), t0)
				if err == nil {
					t.Fatal("accepted")
				}
				if !errors.Is(err, c.want) {
					t.Errorf("error %q is not %q", err, c.want)
				}
				if !strings.Contains(err.Error(), c.text) {
					t.Errorf("error %q does not say %q", err, c.text)
				}
				if after := snapshot(t, g); after != before {
					t.Error("state changed after an error")
				}
			})
		}
	}
	check(t, g, ranking)

	// During the reveal and the results, ranking is the wrong phase.
	for s := range 4 {
		if s != 2 {
			m := 0
			if s == 0 {
				m = -1
			}
			mustApply(t, g, s, NewRank(r5(1, 2, 3, 4, 5), m), t0)
		}
	}
	check(t, g, []tc{
		{"rank during the reveal", 1, `{"type":"rank","ranks":[1,2,3,4,5],"marker":0}`, ErrWrongPhase, "being revealed"},
		{"ready during the reveal", 1, `{"type":"ready"}`, ErrWrongPhase, "being revealed"},
	})
	now := runReveal(t, g, t0)
	mustApply(t, g, 3, Ready{Type: TypeReady}, now)
	check(t, g, []tc{
		{"rank during results", 1, `{"type":"rank","ranks":[1,2,3,4,5],"marker":0}`, ErrWrongPhase, "say you are ready"},
		{"ready twice", 3, `{"type":"ready"}`, ErrAlreadyReady, "already"},
		{"ready with a field", 1, `{"type":"ready","now":true}`, rules.ErrBadAction, "now"},
	})
	g.phase = PhaseOver
	check(t, g, []tc{
		{"rank after the end", 1, `{"type":"rank","ranks":[1,2,3,4,5],"marker":0}`, rules.ErrGameOver, "over"},
		{"ready after the end", 1, `{"type":"ready"}`, rules.ErrGameOver, "over"},
	})
}
