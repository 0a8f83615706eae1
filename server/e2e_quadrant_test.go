package server_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"parlor/internal/testkit/e2e"
)

// TestGameQuadrantWholeGame has two humans and two bots play a whole competitive game of
// Quadrant (three rounds) through the real TUI. In every placement phase each human moves
// their token and the other human's screen shows it move while it moves; then both lock,
// vote with the digit keys, read the scores and continue; the last screen names the winner.
func TestGameQuadrantWholeGame(t *testing.T) {
	t.Parallel()
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Quadrant")
	ben, _ := newPlayer(t, s, "Ben")
	joinTable(t, ben, code)
	ann.WaitFor("Seats 2/7")
	addBots(t, ann, 2, 2)
	ann.Press("s")

	const rounds = 3
	humans := []*e2e.Player{ann, ben}
	for r := 1; r <= rounds; r++ {
		for _, p := range humans {
			p.WaitFor(fmt.Sprintf("round %d of %d", r, rounds), "Place your token for word")
		}
		// Live moves: each human moves, the other one sees the token go there.
		for i, mover := range humans {
			watcher, name := humans[1-i], []string{"Ann", "Ben"}[i]
			x, y := tokenAt(t, watcher, name)
			key, dx := "right", 1
			if x > 0 {
				key, dx = "left", -1
			}
			mover.Press(key, key, key)
			want := fmt.Sprintf("%s at %+d,%+d", name, x+3*dx, y)
			watcher.WaitUntil(want, func() bool {
				nx, ny, ok := findToken(watcher.Screen(), name)
				return ok && nx == x+3*dx && ny == y
			})
		}
		for _, p := range humans {
			p.Press("space")
		}
		for _, p := range humans {
			p.WaitFor("Vote on every other token")
		}
		for _, p := range humans {
			vote(t, p, 4)
		}
		for _, p := range humans {
			if r < rounds {
				p.WaitFor(fmt.Sprintf("Round %d of %d", r, rounds), "Totals:")
			} else { // the last round's scores are on the game-over score sheet
				p.WaitFor("Score sheet", "Last round:")
			}
		}
		if r < rounds {
			for _, p := range humans {
				p.WaitFor("Press enter when you are ready for the next round.")
				p.Press("enter")
			}
		}
	}
	for _, p := range humans {
		scr := p.WaitFor("★ ", "Press esc for the table: the host can start another game")
		if !strings.Contains(scr, " wins with ") && !strings.Contains(scr, " share the win with ") {
			t.Fatalf("no winner line on the last screen:\n%s", scr)
		}
	}
}

var myNumberRE = regexp.MustCompile(`▶(\d) `)

// findToken reads the position of name's token from the tokens panel ("B Ben  +3, -1").
func findToken(screen, name string) (x, y int, ok bool) {
	m := regexp.MustCompile(`[A-Z] ` + regexp.QuoteMeta(name) + ` +([+-]\d+), *([+-]\d+) `).FindStringSubmatch(screen)
	if m == nil {
		return 0, 0, false
	}
	x, _ = strconv.Atoi(m[1])
	y, _ = strconv.Atoi(m[2])
	return x, y, true
}

// tokenAt waits until p's screen shows name's token and returns its position.
func tokenAt(t *testing.T, p *e2e.Player, name string) (int, int) {
	t.Helper()
	var x, y int
	p.WaitUntil(name+"'s token", func() bool {
		var ok bool
		x, y, ok = findToken(p.Screen(), name)
		return ok
	})
	return x, y
}

// vote gives every other token one of the numbers 1..n other than the player's own
// (a number stays on the selected token; tab moves on) and sends the ballot.
func vote(t *testing.T, p *e2e.Player, n int) {
	t.Helper()
	m := myNumberRE.FindStringSubmatch(p.WaitFor("◀ yours"))
	if m == nil {
		t.Fatalf("no own word number on screen:\n%s", p.Screen())
	}
	first := true
	for k := 1; k <= n; k++ {
		if strconv.Itoa(k) == m[1] {
			continue
		}
		if !first {
			p.Press("tab")
		}
		p.Press(strconv.Itoa(k))
		first = false
	}
	p.WaitFor("Your ballot is complete")
	p.Press("enter")
}
