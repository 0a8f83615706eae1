package lobby

import (
	"slices"
	"testing"
)

// Members that see the same lines share one chat and one Shared (sessions draw the chat
// once for all of them); a member who sees other lines has its own of both, so no
// session draws a line for another that is not for it.
func TestAudiencesShareOnlyTheSameLines(t *testing.T) {
	a := &audiences{chat: []ChatLine{
		{ID: 1, Seat: 0, Text: "hi"},
		{ID: 2, Seat: -2, Text: "for Ben", To: []int{1}},
		{ID: 3, Seat: -2, Text: "about Ben", NotTo: []int{1}},
	}}
	ids := func(chat []ChatLine) []int {
		var out []int
		for _, c := range chat {
			if c.addressed() {
				t.Errorf("line %d still says whom it is for", c.ID)
			}
			out = append(out, c.ID)
		}
		return out
	}
	ann, annShared := a.forSeat(0)
	watcher, watcherShared := a.forSeat(-1)
	ben, benShared := a.forSeat(1)
	if !slices.Equal(ids(ann), []int{1, 3}) || !slices.Equal(ids(watcher), []int{1, 3}) || !slices.Equal(ids(ben), []int{1, 2}) {
		t.Errorf("Ann's lines %v, the watcher's %v, Ben's %v", ids(ann), ids(watcher), ids(ben))
	}
	if annShared != watcherShared || &ann[0] != &watcher[0] {
		t.Error("Ann and the watcher see the same lines but do not share them")
	}
	if benShared == annShared {
		t.Error("Ben shares Ann's drawings of lines he does not see")
	}
}
