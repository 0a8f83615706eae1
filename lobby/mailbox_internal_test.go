package lobby

import (
	"slices"
	"testing"
)

// An update that replaces one not yet taken keeps the game's history the first carried:
// only a game's first update has it, and the member must get it once.
func TestAMailboxKeepsTheHistoryUntilTaken(t *testing.T) {
	m := newMailbox()
	m.put(Update{Seat: 1, History: []string{"Round 1"}})
	m.put(Update{Seat: 2})
	u, has, _ := m.take()
	if !has || u.Seat != 2 || !slices.Equal(u.History, []string{"Round 1"}) {
		t.Fatalf("took %+v, %v; want the newest update with the history", u, has)
	}
	m.put(Update{Seat: 3})
	if u, _, _ := m.take(); u.History != nil {
		t.Fatalf("the history came twice: %+v", u)
	}
}
