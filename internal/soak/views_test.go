package soak

import (
	"encoding/json"
	"fmt"
	"slices"

	"parlor/rules"
	"parlor/rules/topfive"
)

// sent is one action a player sent, by the round its view showed when it was sent.
type sent struct {
	round   int
	action  any
	outcome Outcome
}

// revealCheck compares a seat's view with the actions the seat was told "ok" for; the
// round it checked, or 0, and what does not agree.
type revealCheck func(seat int, v rules.View, mine []*sent) (round int, err error)

// revealChecks are the games whose views show the seats' submissions once a round is
// over; the other games' views are checked only through the table's log.
var revealChecks = map[string]revealCheck{topfive.ID: topFiveReveal}

// topFiveReveal: once a round's reveal is complete (its tally is in), the ranks it lists
// for the seat are those of the seat's last acknowledged ranking of that round, or of
// one sent later that got no answer (it may have been applied); none at all (every rank
// 0, out of time) only when no ranking of the seat's was acknowledged.
func topFiveReveal(seat int, view rules.View, mine []*sent) (int, error) {
	v, ok := rules.ViewAs[topfive.View](view)
	if !ok || v.Tally == nil || len(v.Reveal) == 0 {
		return 0, nil
	}
	got := make([]int, len(v.Topics))
	for _, row := range v.Reveal {
		if row.Topic < 0 || row.Topic >= len(got) {
			return v.Round, fmt.Errorf("the reveal names topic %d of %d", row.Topic, len(got))
		}
		if v.Honour == seat {
			got[row.Topic] = row.Rank
		}
		for _, g := range row.Guesses {
			if g.Seat == seat {
				got[row.Topic] = g.Rank
			}
		}
	}
	var could [][]int // the rankings the reveal may show
	acknowledged := false
	for _, s := range mine {
		if s.round != v.Round || s.outcome == Refused {
			continue
		}
		b, _ := json.Marshal(s.action)
		var r topfive.Rank
		if json.Unmarshal(b, &r) != nil || r.Type != topfive.TypeRank {
			continue
		}
		if s.outcome == OK {
			could, acknowledged = could[:0], true
		}
		could = append(could, r.Ranks)
	}
	if !acknowledged && slices.Equal(got, make([]int, len(got))) {
		return v.Round, nil
	}
	for _, c := range could {
		if slices.Equal(c, got) {
			return v.Round, nil
		}
	}
	return v.Round, fmt.Errorf("round %d's reveal gives seat %d the ranks %v; its rankings sent that round (the last acknowledged one and any unanswered after it): %v", v.Round, seat, got, could)
}
