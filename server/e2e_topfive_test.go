package server_test

import (
	"fmt"
	"strings"
	"testing"

	"parlor/internal/testkit/e2e"
)

// topFiveRounds is the length of a 3-player game of Top Five: everyone is Player of
// Honour twice.
const topFiveRounds = 6

// TestGameTopFiveWholeGame has one human and two bots play a whole 3-player game of Top
// Five through the real TUI. The human ranks with the digit keys, places the marker when
// guessing, watches each reveal unfold and says ready; the final screen shows the winner
// line and every total.
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

	for r := 1; r <= topFiveRounds; r++ {
		if honour := rankTopFive(t, ann, r); honour != (r%3 == 1) {
			t.Fatalf("round %d: Ann is Player of Honour = %v; the screen shows:\n%s", r, honour, ann.Screen())
		}
		revealTopFive(t, r, ann)
	}
	topFiveOver(t, ann)
}

// rankTopFive plays round r's ranking as the screen asks: it ranks the topics 1 to 5
// from the top, places the marker on the last topic (where the cursor rests) unless the
// screen says p is the Player of Honour, and submits. It reports whether p was.
func rankTopFive(t *testing.T, p *e2e.Player, r int) (honour bool) {
	t.Helper()
	scr := p.WaitFor(fmt.Sprintf("round %d of %d", r, topFiveRounds), "1 = most liked")
	honour = strings.Contains(scr, "You are the Player of Honour")
	p.Press("1", "2", "3", "4", "5")
	if !honour {
		p.Press("m")
	}
	p.WaitFor("Ready: press enter to submit.")
	p.Press("enter")
	return honour
}

// revealTopFive has each human watch round r's reveal unfold and then, before the last
// round, say ready on the results. Every human's screen is watched at once: waiting for
// one human's lets game time pass, and another's reveal or results pause could go by
// unseen meanwhile (seen in CI: a cluster node slow to draw a step).
func revealTopFive(t *testing.T, r int, humans ...*e2e.Player) {
	t.Helper()
	// The reveal goes from rank 5 to rank 1, one step per beat: rank 1 is still hidden
	// while the first steps show.
	steps := [][]string{{"revealed from 5 to 1", "  1   ?"}}
	if r < topFiveRounds {
		steps = append(steps, []string{"Player of Honour: as the best Guesser", "total", "ready for the next round"})
	}
	e2e.WaitInTurn(t, humans, steps, func(i, step int) {
		if step == 1 {
			humans[i].Press("enter")
		}
	})
}

// topFiveOver waits for the final screen and checks it has the score sheet with the
// totals and a winner line.
func topFiveOver(t *testing.T, p *e2e.Player) {
	t.Helper()
	scr := p.WaitFor(fmt.Sprintf("Game over after %d rounds", topFiveRounds), "Score sheet", "Total", "Last round:", "Ann")
	if !strings.Contains(scr, "wins") && !strings.Contains(scr, "share") {
		t.Fatalf("no winner line on the final screen:\n%s", scr)
	}
	p.WaitFor("Game over after ", "Press esc for the table: the host can start another game")
}
