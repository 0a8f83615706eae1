package server_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/e2e"
)

// TestGameFingertipWholeGame has two humans and a bot play a whole 3-player game of
// Fingertip through the real TUI, until the square can no longer be refilled. A human
// who is active reads their secret card off the screen and types a clue; a human in the
// race points with the digit keys. To keep the game short the test plays the humans for
// speed: knowing the active human's card, the other human points at a wrong one, so
// every turn takes two cards out of play. Even so a 3-player game is at least 16 turns,
// each with a fixed 5 s reveal and a bot that thinks 1.5-4.5 s before its clue or its
// pointing: minutes of game time, which the harness's clock lets pass in seconds.
func TestGameFingertipWholeGame(t *testing.T) {
	t.Parallel()
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Fingertip")
	ben, _ := newPlayer(t, s, "Ben")
	joinTable(t, ben, code)
	ann.WaitFor("Seats 2/")
	addBots(t, ann, 2, 1)
	ann.Press("s")

	humans := []*e2e.Player{ann, ben}
	for turn := 1; ; turn++ {
		if turn > 60 {
			t.Fatalf("no end after %d turns", turn-1)
		}
		// Wait for this turn to start (or for the game to end).
		var scrs [2]string
		over := false
		ann.WaitUntil(fmt.Sprintf("turn %d", turn), func() bool {
			for i, p := range humans {
				scrs[i] = p.Screen()
			}
			over = strings.Contains(scrs[0], "Game over")
			return over || (onTurn(scrs[0], turn) && onTurn(scrs[1], turn) &&
				(strings.Contains(scrs[0], "Your target is card") || strings.Contains(scrs[1], "Your target is card") ||
					strings.Contains(scrs[0], "is thinking of a clue") || strings.Contains(scrs[0], "Point at the card")))
		})
		if over {
			break
		}
		active := -1
		target := 0
		for i, scr := range scrs {
			if m := targetRE.FindStringSubmatch(scr); m != nil {
				active, target = i, int(m[1][0]-'0')
			}
		}
		if active >= 0 {
			p, racer := humans[active], humans[1-active]
			p.WaitFor("Press enter to write your clue")
			p.Press("enter")
			p.WaitFor("Clue: ")
			p.Press("something", "enter")
			racer.WaitFor("Point at the card that matches the clue")
			point(t, racer, target, false)
		} else {
			// The bot gives the clue: both humans point, at opposite ends of the square.
			for _, p := range humans {
				p.WaitFor("Point at the card that matches the clue")
			}
			point(t, ann, 0, false)
			point(t, ben, 0, true)
		}
		for _, p := range humans {
			p.WaitFor("Turn over: ")
		}
	}
	for _, p := range humans {
		scr := p.WaitFor("Game over, the square cannot be refilled: ", "Score sheet", "Last turn:", "Press esc for the table: the host can start another game")
		if !strings.Contains(scr, " wins with ") && !strings.Contains(scr, " share the victory with ") {
			t.Fatalf("no winner line on the results:\n%s", scr)
		}
	}
}

var (
	targetRE = regexp.MustCompile(`Your target is card (\d)`)
	noRE     = regexp.MustCompile(`[ \[](\d)[ \]]  ?✗ no:`)
	turnRE   = regexp.MustCompile(`Turn (\d+)\b`)
)

// onTurn reports whether a Fingertip screen's side column shows turn n.
func onTurn(screen string, n int) bool {
	m := turnRE.FindStringSubmatch(screen)
	return m != nil && m[1] == strconv.Itoa(n)
}

// point has a racing human point at a card that is free and is not avoid, searching
// from the last position when fromEnd; it tries again when another finger got there
// first, and returns once the pointing is answered (or the turn is over).
func point(t *testing.T, p *e2e.Player, avoid int, fromEnd bool) {
	t.Helper()
	tried := map[int]bool{}
	for attempt := 0; attempt < 4; attempt++ {
		scr := p.Screen()
		if strings.Contains(scr, "Turn over: ") || strings.Contains(scr, "You are out") {
			return
		}
		taken := map[int]bool{}
		for _, m := range noRE.FindAllStringSubmatch(scr, -1) {
			taken[int(m[1][0]-'0')] = true
		}
		pos := 0
		for k := 1; k <= 9; k++ {
			c := k
			if fromEnd {
				c = 10 - k
			}
			if c != avoid && !taken[c] && !tried[c] {
				pos = c
				break
			}
		}
		if pos == 0 {
			t.Fatalf("no free card to point at:\n%s", scr)
		}
		tried[pos] = true
		p.Press(strconv.Itoa(pos))
		deadline := time.Now().Add(2 * time.Second)
		for time.Now().Before(deadline) {
			scr = p.Screen()
			if strings.Contains(scr, "You are out") || strings.Contains(scr, "Turn over: ") {
				return
			}
			if strings.Contains(scr, "taken — pick another") || strings.Contains(scr, "already") {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	p.WaitFor("Turn over: ")
}
