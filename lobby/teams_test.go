package lobby_test

import (
	"testing"

	"parlor/lobby"
	"parlor/rules"
	qd "parlor/rules/quadrant"
)

// A team game's seats say which team each will play on, before the game starts as
// during it (Quadrant's teams sit alternately); a game without teams names none.
func TestSeatsSayTheirTeam(t *testing.T) {
	l, _ := clockLobby(t)
	a, err := l.Create(ann, qd.ID, rules.Options{qd.OptMode: qd.ModeTeam}, false)
	if err != nil {
		t.Fatal(err)
	}
	for range qd.TeamMin - 1 {
		if err := lobby.Run(a, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	teams := func(u lobby.Update) string {
		s := ""
		for _, seat := range u.Table.Seats {
			s += seat.Team + "."
		}
		return s
	}
	u := waitFor(t, a, "eight seats", func(u lobby.Update) bool { return len(u.Table.Seats) == qd.TeamMin })
	if got := teams(u); got != "A.B.A.B.A.B.A.B." {
		t.Fatalf("teams before the game: %s", got)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, a, "the game", func(u lobby.Update) bool { return u.View != nil })
	if got := teams(u); got != "A.B.A.B.A.B.A.B." {
		t.Fatalf("teams during the game: %s", got)
	}

	c, err := l.Create(ben, qd.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, c, "Ben seated", func(u lobby.Update) bool { return len(u.Table.Seats) == 1 })
	if got := teams(u); got != "." {
		t.Fatalf("a competitive game's seat names a team: %s", got)
	}
}
