package server_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"parlor/internal/testkit/e2e"
)

// ballotLineRE reads one line of the team ballot from the tokens panel:
// "▸ B Bot Bo   +3, -1    → 2 Ben" (the name after the number wrote it last).
var ballotLineRE = regexp.MustCompile(`[A-Z] (.+?) +[+-]\d+, *[+-]\d+ (?:×\d)? *→ ([?\d])(?: ([^\n?]+?))?(\?)? *$`)

// ballotLines reads the team ballot's lines from the tokens panel right of the plane at
// 80×24: token owner → "number writer" ("?" after a suggestion's writer).
func ballotLines(screen string) map[string]string {
	const panel = 43 // the plane's block and a gap
	out := map[string]string{}
	for _, l := range strings.Split(screen, "\n") {
		rs := []rune(l)
		if len(rs) <= panel {
			continue
		}
		l = string(rs[panel:])
		if m := ballotLineRE.FindStringSubmatch(strings.TrimRight(l, " ")); m != nil {
			out[strings.TrimSpace(m[1])] = strings.TrimSpace(m[2] + " " + m[3] + m[4])
		}
	}
	return out
}

// TestGameQuadrantTeamWithBots has two people play a whole team game of Quadrant (four
// rounds) at 80×24, one on each team, with six bots. Every player always sees their team.
// When their team guesses, the person writes two lines of the shared ballot and swaps them;
// the bots fill in only the other lines, never touch the person's, and the ballot is cast
// once the person approves.
func TestGameQuadrantTeamWithBots(t *testing.T) {
	t.Parallel()
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann") // seat 0: team A
	code := createTable(t, ann, "Quadrant")
	ben, _ := newPlayer(t, s, "Ben") // seat 1: team B
	joinTable(t, ben, code)
	ann.WaitFor("Seats 2/7")
	setOption(t, ann, "Mode", "team")
	addBots(t, ann, 2, 6)
	ann.Press("s")

	const rounds = 4
	for r := 1; r <= rounds; r++ {
		placer, guesser, name := ann, ben, "Ben"
		active, other := "A", "B"
		if r%2 == 0 {
			placer, guesser, name = ben, ann, "Ann"
			active, other = "B", "A"
		}
		placer.WaitFor(fmt.Sprintf("round %d of %d", r, rounds), "Team "+active+" — your team plays this round", "Place your token for word")
		guesser.WaitFor(fmt.Sprintf("round %d of %d", r, rounds), "Team "+other+" — you are guessing this round")
		placer.Press("right", "right", "up", "space")
		placer.WaitFor("Vote on every other token")
		vote(t, placer, 4)

		// The team ballot: the guesser writes the first two lines, then swaps them.
		guesser.WaitFor("Agree on one number per token")
		guesser.Press("1")
		guesser.WaitFor("→ 1 " + name)
		guesser.Press("tab", "2")
		guesser.WaitFor("→ 2 " + name)
		before := ballotLines(guesser.Screen())
		guesser.Press("1")
		guesser.WaitFor("Swapped: 1 on")
		// That message is the screen's own; the lines come back from the table a moment
		// later: wait until both show the swap.
		var lines map[string]string
		guesser.WaitUntil("the swapped lines", func() bool {
			lines = ballotLines(guesser.Screen())
			swapped := 0
			for owner, l := range before {
				if l == "1 "+name && lines[owner] == "2 "+name || l == "2 "+name && lines[owner] == "1 "+name {
					swapped++
				}
			}
			return swapped == 2
		})
		mine := map[string]string{} // owner → line, for the lines the person wrote
		for owner, l := range lines {
			if strings.HasSuffix(l, " "+name) {
				mine[owner] = l
			}
		}
		if len(mine) != 2 {
			t.Fatalf("round %d: the person's two lines are not shown as theirs: %v\n%s", r, lines, guesser.Screen())
		}
		// The bots fill in the other two lines as suggestions, and leave the person's alone.
		guesser.WaitUntil("the bots' suggestions", func() bool {
			ls := ballotLines(guesser.Screen())
			n := 0
			for _, l := range ls {
				if strings.HasSuffix(l, "?") && !strings.HasPrefix(l, "?") {
					n++
				}
			}
			return n == 2
		})
		lines = ballotLines(guesser.Screen())
		for owner, want := range mine {
			if lines[owner] != want {
				t.Fatalf("round %d: a bot changed the person's line for %s: %q, was %q", r, owner, lines[owner], want)
			}
		}
		if scr := guesser.Screen(); strings.Contains(scr, "Totals:") {
			t.Fatalf("round %d: the ballot was cast before the person approved:\n%s", r, scr)
		}
		guesser.Press("enter")

		for _, p := range []*e2e.Player{ann, ben} {
			// The last round's scores are on the game-over score sheet, in words.
			want := []string{fmt.Sprintf("Round %d of %d", r, rounds), "Totals:", "the team ballot was cast"}
			if r == rounds {
				want = []string{"Score sheet", "Last round:", "right on its ballot"}
			}
			scr := p.WaitFor(want[:2]...)
			if !strings.Contains(scr, want[2]) {
				t.Fatalf("round %d: the ballot was not cast:\n%s", r, scr)
			}
		}
		if r < rounds {
			for _, p := range []*e2e.Player{ann, ben} {
				p.WaitFor("Press enter when you are ready for the next round.")
				p.Press("enter")
			}
		}
	}
	for _, p := range []*e2e.Player{ann, ben} {
		scr := p.WaitFor("★ ", "Press esc for the table: the host can start another game")
		if !strings.Contains(scr, "Team A wins") && !strings.Contains(scr, "Team B wins") && !strings.Contains(scr, "The teams tie") {
			t.Fatalf("no result line on the last screen:\n%s", scr)
		}
	}
}
