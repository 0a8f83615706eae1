package server_test

import (
	"fmt"
	"strings"
	"testing"

	"parlor/internal/e2e"
)

// TestGameTopFiveWholeGame has one human and two bots play a whole 3-player game of Top
// Five (six rounds: everyone is Player of Honour twice) through the real TUI. The human
// ranks with the digit keys, places the marker when guessing, watches each reveal unfold
// and says ready; the final screen shows the winner line and every total.
func TestGameTopFiveWholeGame(t *testing.T) {
	t.Parallel()
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Top Five")
	ann.WaitFor("Seats 1/8", "★host")
	setOption(t, ann, "Reveal pace", "1s")
	addBots(t, ann, 1, 2)
	ann.Press("s")
	ann.WaitFor("Top Five · table "+code, "round 1 of 6")

	const rounds = 6
	for r := 1; r <= rounds; r++ {
		scr := ann.WaitFor(fmt.Sprintf("round %d of %d", r, rounds), "1 = most liked")
		honour := strings.Contains(scr, "You are the Player of Honour")
		if honour != (r%3 == 1) {
			t.Fatalf("round %d: Ann is Player of Honour = %v; the screen shows:\n%s", r, honour, scr)
		}
		ann.Press("1", "2", "3", "4", "5")
		if !honour {
			ann.Press("m") // the cursor rests on the last topic: mark it
		}
		ann.WaitFor("Ready: press enter to submit.")
		ann.Press("enter")
		// The reveal goes from rank 5 to rank 1, one step per beat: rank 1 is still hidden
		// while the first steps show.
		ann.WaitFor("revealed from 5 to 1", "  1   ?")
		if r < rounds {
			ann.WaitFor("Player of Honour: as the best Guesser", "total", "ready for the next round")
			ann.Press("enter")
			continue
		}
	}
	scr := ann.WaitFor("Game over after 6 rounds", "Score sheet", "Total", "Last round:", "Ann")
	if !strings.Contains(scr, "wins") && !strings.Contains(scr, "share") {
		t.Fatalf("no winner line on the final screen:\n%s", scr)
	}
	ann.WaitFor("The game is over.")
}
