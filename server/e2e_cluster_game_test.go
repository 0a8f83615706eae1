package server_test

import (
	"regexp"
	"strings"
	"testing"

	"parlor/internal/testkit/e2e"
)

// ownMarkerRE is a submitted ranking's last row with the marker on it, as the player who
// submitted it sees it: "[5] topic (!)".
var ownMarkerRE = regexp.MustCompile(`\[5\] [^\n]*\(!\)`)

// Ann on node-0 (which so runs the table, and the bot with it) and Ben on node-1 play a
// whole game of Top Five while Cat watches from node-2. Each round Ben submits first, so
// his screen shows his ranking as the table holds it: the part of the view only his seat
// gets, which crosses from node-0 to node-1 on his seat's subject. Cat's screen never
// shows it, and Cat's node never subscribes to Ben's seat.
func TestClusterTopFiveAcrossNodes(t *testing.T) {
	t.Parallel() // its own servers; it waits on its game and the cluster more than it computes
	c := startCluster(t, 3)
	subs := watchSubscriptions(c.ns)
	counts := heard(t, c.ns.URL())

	ann, ben, _, code := meetAcrossNodes(t, c, "Top Five")
	ann.WaitFor("Seats 2/8")
	setOption(t, ann, "Reveal pace", "1s")
	addBots(t, ann, 2, 1)
	cat := watchAsGuest(t, c.nodes[2], "cat", code)
	ann.Press("s")

	for r := 1; r <= topFiveRounds; r++ {
		// Seats take turns as Player of Honour: Ann (seat 0), Ben (1), the bot (2).
		if honour := rankTopFive(t, ben, r); honour != (r%3 == 2) {
			t.Fatalf("round %d: Ben is Player of Honour = %v; the screen shows:\n%s", r, honour, ben.Screen())
		}
		scr := ben.WaitFor("Your ranking is in.", "[1] ", "[5] ")
		if marked := ownMarkerRE.MatchString(scr); marked == (r%3 == 2) {
			t.Fatalf("round %d: Ben's ranking shows his marker = %v; the screen shows:\n%s", r, marked, scr)
		}
		watched := cat.WaitFor("✓ Ben", "You are watching; the players are ranking.")
		for _, secret := range []string{"Your ranking is in.", "You ranked", "[5] ", "(!)"} {
			if strings.Contains(watched, secret) {
				t.Fatalf("round %d: the spectator sees %q of Ben's ranking:\n%s", r, secret, watched)
			}
		}
		if honour := rankTopFive(t, ann, r); honour != (r%3 == 1) {
			t.Fatalf("round %d: Ann is Player of Honour = %v; the screen shows:\n%s", r, honour, ann.Screen())
		}
		revealTopFive(t, r, ann, ben)
	}
	for _, p := range []*e2e.Player{ann, ben, cat} {
		topFiveOver(t, p)
	}

	checkSeatSubjects(t, subs, counts, code, 1)
}
