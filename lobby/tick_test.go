package lobby_test

import (
	"testing"

	"parlor/lobby"
	fi "parlor/rules/fingertip"
	fs "parlor/rules/foresight"
	qd "parlor/rules/quadrant"
	tt "parlor/rules/talltale"
	tf "parlor/rules/topfive"
)

// TestAQuietTickAllocatesNothing: a table ticks four times a second however quiet it
// is, and every goroutine that allocates while the collector marks is made to help it
// mark (at least 64 KB of scanning, whatever it allocated): at 700 tables, tables that
// allocated on every tick paid a third of the collector's assists at 5,000 players
// (docs/performance.md). So a tick that changes nothing allocates nothing, in every game.
func TestAQuietTickAllocatesNothing(t *testing.T) {
	for _, game := range []string{tf.ID, qd.ID, fi.ID, fs.ID, tt.ID} {
		t.Run(game, func(t *testing.T) {
			l, _ := clockLobby(t)
			members := humans(t, l, game, 4, nil)
			allocs, err := lobby.QuietTickAllocs(members[0], 50)
			if err != nil {
				t.Fatal(err)
			}
			if allocs != 0 {
				t.Errorf("a quiet tick of %s allocates %.1f times", game, allocs)
			}
		})
	}
}
