package server_test

import (
	"fmt"
	"strings"
	"testing"

	"parlor/internal/testkit/e2e"
)

// TestGameForesightWholeGame has a human and a bot play a whole 2-player game of
// Foresight through the real TUI, with the table's shortest round limit (5) so it ends
// even if nobody reaches 1200. Each round the human picks an answer, predicts the bot,
// wagers 50 in column A and 25 in column B, submits, reads the round's results and says
// ready; the last screen names the winner.
func TestGameForesightWholeGame(t *testing.T) {
	t.Parallel()
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Foresight")
	ann.WaitFor("Seats 1/")
	setOption(t, ann, "Round limit", "5")
	setOption(t, ann, "Results time", "15s")
	addBots(t, ann, 1, 1)
	ann.Press("s")
	ann.WaitFor("Foresight · table " + code)

	rounds := 0
	for r := 1; ; r++ {
		if r > 5 {
			t.Fatalf("round %d of a game limited to 5:\n%s", r, ann.Screen())
		}
		var scr string
		ann.WaitUntil(fmt.Sprintf("round %d or the end", r), func() bool {
			scr = ann.Screen()
			return strings.Contains(scr, "Game over: ") ||
				(strings.Contains(scr, fmt.Sprintf("round %d of 5", r)) && strings.Contains(scr, "Pick your answer"))
		})
		if strings.Contains(scr, "Game over: ") {
			break
		}
		rounds++
		// Own answer 1; down to the bot's row: prediction 1, wager A 50, wager B 25.
		ann.Press("1", "down", "1", "right", "5", "right", "2")
		ann.WaitFor("Wagered 75 of your", "Ready: press enter to submit.")
		ann.Press("enter")
		ann.WaitUntil(fmt.Sprintf("round %d's results", r), func() bool {
			scr = ann.Screen()
			return strings.Contains(scr, fmt.Sprintf("Round %d results: ", r)) || strings.Contains(scr, "Game over: ")
		})
		if strings.Contains(scr, "Game over: ") {
			// The end shows the standings; tab shows the last round's table.
			ann.Press("tab")
			ann.WaitFor(fmt.Sprintf("Round %d results: ", r))
			ann.Press("tab")
			break
		}
		ann.WaitFor("ready for the next question")
		ann.Press("enter")
	}
	scr := ann.WaitFor("Game over, all 5 rounds are played: ", "Press esc for the table: the host can start another game")
	if !strings.Contains(scr, " wins with ") && !strings.Contains(scr, " share the victory with ") {
		t.Fatalf("no winner line at the end:\n%s", scr)
	}
	if rounds < 3 {
		t.Fatalf("the game ended after %d rounds; nobody can reach 1200 that fast with these wagers", rounds)
	}
}
