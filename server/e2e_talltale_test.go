package server_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/e2e"
)

// TestGameTallTaleWholeGame has two humans and a bot play a whole 3-player game of Tall
// Tale through the real TUI: six rounds (everyone narrates twice) and any tie-break
// rounds, to the final winner line. A human narrator discards with enter and types a
// story (sending it anyway if the screen warns of a forbidden word); a human racer places
// three tokens with enter and the arrow keys. Every round ends with the game's fixed 12 s
// reveal and the bot thinks for seconds before each move: about three minutes of game
// time, which the harness's clock lets pass in seconds.
func TestGameTallTaleWholeGame(t *testing.T) {
	t.Parallel()
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Tall Tale")
	ben, _ := newPlayer(t, s, "Ben")
	joinTable(t, ben, code)
	ann.WaitFor("Seats 2/")
	addBots(t, ann, 2, 1)
	ann.Press("s")
	ann.WaitFor("Tall Tale · table "+code, "round 1 of 6")

	humans := []*e2e.Player{ann, ben}
	done := map[string]bool{} // "human/round/step" already played
	sawReveal := false
	deadline := time.Now().Add(5 * time.Minute)
	for {
		over := 0
		for i, p := range humans {
			scr := p.Screen()
			if strings.Contains(scr, "The game is over: ") {
				over++
				continue
			}
			sawReveal = sawReveal || strings.Contains(scr, "'s illustrations were:") || strings.Contains(scr, "Your illustrations were:")
			m := roundRE.FindStringSubmatch(scr)
			if m == nil {
				continue
			}
			step := talltaleStep(scr)
			key := string(rune('0'+i)) + "/" + m[1] + "/" + step
			if step == "" || done[key] {
				continue
			}
			done[key] = true
			playTalltaleStep(p, step)
		}
		if over == len(humans) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end; the screens show:\n%s\n%s", ann.Screen(), ben.Screen())
		}
		s.Pause()
	}
	if !sawReveal {
		t.Error("no reveal was ever seen")
	}
	for _, p := range humans {
		scr := p.WaitFor("The game is over: ", "Score sheet", "Last round:", "Press esc for the table: the host can start another game")
		if !strings.Contains(scr, " wins with ") && !strings.Contains(scr, " share the victory with ") {
			t.Fatalf("no winner line at the end:\n%s", scr)
		}
	}
	// Everyone narrates twice and races in the other four rounds (tie-breaks add more).
	for i, name := range []string{"Ann", "Ben"} {
		count := map[string]int{}
		for key := range done {
			if key[0] == byte('0'+i) {
				count[key[strings.LastIndex(key, "/")+1:]]++
			}
		}
		if count["discard"] < 2 || count["story"] < 2 || count["race"] < 4 {
			t.Errorf("%s played %v; want 2 discards, 2 stories and 4 races at least", name, count)
		}
	}
}

var roundRE = regexp.MustCompile(`Tall Tale · table [A-Z]{4} · round (\d+)`)

// TestTallTaleRacerLeavesAndTheTableGoesOn: Ben's connection drops at the start of a
// game with no race time limit. Ann's game screen marks him away; under the default
// "away players" option a bot plays his seat after 60 s, so the round is scored and the
// next one starts instead of everyone waiting for Ben forever. Ben then comes back to his
// own seat. It takes a little over a minute: the 60 s are real.
func TestTallTaleRacerLeavesAndTheTableGoesOn(t *testing.T) {
	t.Parallel()
	s := e2e.Start(t, nil)
	ann, _ := newPlayer(t, s, "Ann")
	code := createTable(t, ann, "Tall Tale")
	ben, benKey := newPlayer(t, s, "Ben")
	joinTable(t, ben, code)
	ann.WaitFor("Seats 2/")
	addBots(t, ann, 2, 1)
	setOption(t, ann, "Race time limit", "off")
	ann.Press("s")
	ann.WaitFor("Tall Tale · table "+code, "round 1 of 6")
	ben.Close()

	done := map[string]bool{}
	sawAway, sawBot := false, false
	deadline := time.Now().Add(3 * time.Minute)
	for {
		scr := ann.Screen()
		sawAway = sawAway || strings.Contains(scr, "Ben (away)")
		sawBot = sawBot || strings.Contains(scr, "a bot plays for Ben")
		if m := roundRE.FindStringSubmatch(scr); m != nil && m[1] == "2" {
			break
		}
		step := talltaleStep(scr)
		if step != "" && !done[step] {
			done[step] = true
			playTalltaleStep(ann, step)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the table waited for Ben; Ann's screen:\n%s", scr)
		}
		s.Pause() // game time moves on while the screens are quiet
	}
	if !sawBot {
		t.Error("Ann was never told that a bot plays for Ben")
	}
	// The seat list of the room marks Ben away with how long, and the bot.
	ann.Press("esc")
	scr := ann.WaitFor("Ben (away ", "a bot plays)")
	if !sawAway && !strings.Contains(scr, "Ben (away") {
		t.Errorf("Ben was never marked away:\n%s", scr)
	}
	ann.Press("esc")
	// Ben comes back with his key and plays his own seat again.
	ben2 := s.Connect(t, "ben", benKey, "join "+code, 80, 24)
	ben2.WaitFor("Tall Tale · table "+code, "you: Ben")
	ann.Press("esc")
	ann.WaitFor("Ben is back")
}

// talltaleStep names what a Tall Tale screen asks of its player now: "discard", "story",
// "race" (the first token still to place), or "" for nothing.
func talltaleStep(scr string) string {
	switch {
	case strings.Contains(scr, "You drew these 4 illustrations"):
		return "discard"
	case strings.Contains(scr, "Your story, one or two sentences"):
		return "story"
	case strings.Contains(scr, "Race! Place your tokens") && strings.Contains(scr, ": 3 left."):
		return "race"
	}
	return ""
}

// playTalltaleStep does a step as a quick player would: keep the first three
// illustrations, tell a plain story, place the three tokens left to right.
func playTalltaleStep(p *e2e.Player, step string) {
	switch step {
	case "discard":
		p.Press("enter")
	case "story":
		p.Press("A strange day came and went, and nobody said a word.", "enter")
		time.Sleep(300 * time.Millisecond)
		if strings.Contains(p.Screen(), "Warning: ") {
			p.Press("enter") // the narrator sends it anyway and pays the penalty
		}
	case "race":
		p.Press("enter", "right", "enter", "right", "enter")
	}
}
