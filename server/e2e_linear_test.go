package server_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parlor/internal/testkit/e2e"
)

// TestLinearWholeGames plays a whole game of each of the five games in the linear mode
// (ssh host plain), a human with bots through the real SSH server, by a script that
// reads only the lines it receives and answers each question with one of the numbered
// choices it lists (or a typed line where the question asks for one). Every byte it
// received must be appended text: no cursor movement, no erasing, no alternate screen,
// no hidden cursor.
func TestLinearWholeGames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game    string
		bots    int
		term    string            // "" for no terminal; "dumb" for TERM=dumb, which needs no command
		options map[string]string // option name → value, set through the host's menu
	}{
		{game: "Top Five", bots: 2},
		{game: "Foresight", bots: 1, options: map[string]string{"Round limit": "5"}},
		{game: "Fingertip", bots: 2, term: "dumb"},
		{game: "Tall Tale", bots: 2},
		{game: "Quadrant", bots: 3},
		// The other modes: two players ranking together, and two teams with a ballot.
		{game: "Top Five", bots: 1, options: map[string]string{"Variant": "duo"}},
		{game: "Quadrant", bots: 7, options: map[string]string{"Mode": "team"}},
	} {
		name := strings.ReplaceAll(tc.game, " ", "")
		for _, v := range tc.options {
			name += "/" + v
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := e2e.Start(t, nil)
			cmd := "plain"
			if tc.term != "" {
				cmd = "" // the lobby, which TERM=dumb turns into the linear mode
			}
			r := s.LinearReader(t, "ann", e2e.NewKey(t), cmd, tc.term)
			p := &linearScript{t: t, r: r, rng: rand.New(rand.NewPCG(1, uint64(len(tc.game))))}
			r.Next("the name question", func(l string) bool { return strings.HasPrefix(l, "What is your name?") })
			r.Type("Ann")
			p.choose("Create a table")
			p.choose(tc.game)
			for name, value := range tc.options { // first: the mode sets how many may sit
				p.choose("Change an option")
				p.choose(name + ": ")
				p.choose(value)
			}
			for range tc.bots {
				p.choose("Add a bot")
			}
			p.choose("Start the game")
			defer func() {
				if dir := os.Getenv("PARLOR_LINEAR_TRANSCRIPTS"); dir != "" && t.Failed() {
					_ = os.WriteFile(filepath.Join(dir, "failed.txt"), r.Raw(), 0o644)
				}
			}()
			p.play()
			checkAppendedOnly(t, r.Raw())
			if dir := os.Getenv("PARLOR_LINEAR_TRANSCRIPTS"); dir != "" { // to read them, as docs/accessibility.md quotes one
				_ = os.WriteFile(filepath.Join(dir, strings.ReplaceAll(strings.TrimPrefix(t.Name(), "TestLinearWholeGames/"), "/", "-")+".txt"), r.Raw(), 0o644)
			}
		})
	}
}

// linearScript answers the linear mode's questions.
type linearScript struct {
	t   *testing.T
	r   *e2e.Reader
	rng *rand.Rand

	question string
	choices  []string
	text     bool
	over     bool
	moved    bool
}

var choiceLine = regexp.MustCompile(`^(\d+)\. (.*)$`)

// next reads up to the next question, or to the end of the game.
func (p *linearScript) next() {
	p.t.Helper()
	lines := p.r.Next("a question", func(l string) bool {
		return strings.HasPrefix(l, "Type a number") || l == "Type your answer, then Enter." || strings.HasPrefix(l, "Game over")
	})
	last := lines[len(lines)-1]
	if strings.HasPrefix(last, "Game over") {
		p.over = true
		return
	}
	p.choices, p.text = nil, last != "Type a number."
	i := len(lines) - 2
	for ; i >= 0; i-- {
		m := choiceLine.FindStringSubmatch(lines[i])
		if m == nil {
			break
		}
		p.choices = append([]string{m[2]}, p.choices...)
	}
	if i >= 0 {
		p.question = lines[i]
	}
	for k := range p.choices {
		if !strings.HasPrefix(lines[len(lines)-1-len(p.choices)+k], strconv.Itoa(k+1)+". ") {
			p.t.Fatalf("choices not numbered from 1: %q", p.choices)
		}
	}
}

// choose waits for a question that lists a choice containing want, and chooses it.
func (p *linearScript) choose(want string) {
	p.t.Helper()
	for range 5 {
		p.next()
		if p.over {
			p.t.Fatalf("the game ended while waiting for the choice %q", want)
		}
		for i, c := range p.choices {
			if strings.HasPrefix(c, want) {
				p.r.Type(strconv.Itoa(i + 1))
				return
			}
		}
	}
	p.t.Fatalf("no choice %q; the last question: %s %q", want, p.question, p.choices)
}

// avoid are choices a player who wants the game over does not take.
var avoid = []string{"Leave", "Back", "Another board", "Unlock", "Take back", "Approve (not yet", "Choose my wagers"}

// play answers every question until the game is over.
func (p *linearScript) play() {
	p.t.Helper()
	for n := 0; ; n++ {
		if n > 2000 {
			p.t.Fatal("no end of the game after 2000 questions")
		}
		p.next()
		if p.over {
			break
		}
		switch {
		case p.text && len(p.choices) == 0 && strings.Contains(p.question, "story"):
			p.r.Type("!Once upon a time a thing went far away. It came back at night.")
		case p.text && len(p.choices) == 0:
			p.r.Type("something from long ago")
		case p.text && !p.moved:
			p.moved = true
			p.r.Type("3 -2") // a Quadrant token moves, as two numbers
		default:
			var ok, lines []int
			for i, c := range p.choices {
				switch {
				case strings.HasPrefix(c, "Write "):
					lines = append(lines, i+1)
				case !avoided(c):
					ok = append(ok, i+1)
				}
			}
			if len(ok) == 0 && strings.HasPrefix(p.choices[0], "Approve (not yet") {
				ok = lines // a team ballot not yet complete: write one of its lines
			}
			if len(ok) == 0 {
				continue // only a step back is offered (a locked token): wait for the others
			}
			p.r.Type(strconv.Itoa(ok[p.rng.IntN(len(ok))]))
		}
	}
	p.r.Next("the scores", func(l string) bool { return strings.HasPrefix(l, "Final scores: ") })
}

func avoided(c string) bool {
	for _, a := range avoid {
		if strings.HasPrefix(c, a) {
			return true
		}
	}
	return false
}

// checkAppendedOnly fails on any sequence in out that moves the cursor, erases, turns
// to the alternate screen or hides the cursor, found by x/ansi's parser.
func checkAppendedOnly(t *testing.T, out []byte) {
	t.Helper()
	p := ansi.NewParser()
	var state byte
	for b := out; len(b) > 0; {
		seq, _, n, ns := ansi.DecodeSequence(b, state, p)
		state = ns
		b = b[n:]
		if len(seq) == 0 || seq[0] >= 0x20 && seq[0] != 0x7f {
			continue
		}
		switch {
		case ansi.HasCsiPrefix(seq):
			cmd := ansi.Cmd(p.Command())
			switch final := cmd.Final(); {
			case strings.IndexByte("ABCDEFGHfdea`IZ", final) >= 0:
				t.Errorf("cursor movement %q in the output", seq)
			case strings.IndexByte("JKXSTPL@M", final) >= 0:
				t.Errorf("an erase or a scroll %q in the output", seq)
			case (final == 'h' || final == 'l') && cmd.Prefix() == '?':
				for _, par := range p.Params() {
					switch par.Param(0) {
					case 1049, 1047, 47:
						t.Errorf("the alternate screen %q in the output", seq)
					case 25:
						t.Errorf("cursor visibility %q in the output", seq)
					}
				}
			}
		case ansi.HasEscPrefix(seq) && len(seq) == 2 && strings.IndexByte("78DEMc", seq[1]) >= 0:
			t.Errorf("cursor movement %q in the output", seq)
		case seq[0] == '\b':
			t.Errorf("a backspace in the output")
		}
	}
}

// TestLinearModeIsRememberedForTheKey: "plain on" makes the key's next plain `ssh host`,
// on a terminal that could draw the screen, start in the linear mode; "plain off" gives
// the screen back. A player in the linear mode and one on the screen chat at one table.
func TestLinearModeIsRememberedForTheKey(t *testing.T) {
	t.Parallel()
	s := e2e.Start(t, nil)
	key := e2e.NewKey(t)
	until := func(r *e2e.Reader, text string) {
		t.Helper()
		r.Next(text, func(l string) bool { return strings.Contains(l, text) })
	}
	r := s.LinearReader(t, "ann", key, "plain", "")
	until(r, "What is your name?")
	r.Type("Ann")
	until(r, "You are in the lobby")
	r.Type("plain on")
	until(r, "Remembered: whenever you connect with this key")
	r.Close()

	r = s.LinearReader(t, "ann", key, "", "xterm-256color")
	until(r, "in the linear mode")
	until(r, "Hello, Ann.")
	r.Type("1")
	until(r, "Which game?")
	r.Type("1") // the first game, whichever it is
	opened := r.Next("the new table", func(l string) bool { return strings.HasPrefix(l, "You opened table") })
	code := regexp.MustCompile(`table ([A-Z]{4}) for`).FindStringSubmatch(opened[len(opened)-1])
	if code == nil {
		t.Fatalf("no code in %q", opened[len(opened)-1])
	}
	ben, _ := newPlayer(t, s, "Ben")
	joinTable(t, ben, code[1])
	until(r, "Ben sits down.")
	// The linear player has twice the time from sitting down, until they give it back.
	r.Type("w")
	until(r, "seat 1 Ann (host, 2 times the time)")
	r.Type("time off")
	until(r, "You play at the table's own time limits from now on.")
	r.Type("w")
	r.Next("the seats without more time", func(l string) bool {
		if strings.Contains(l, "times the time") {
			t.Errorf("after time off: %q", l)
		}
		return strings.HasPrefix(l, "Seated: seat 1 Ann (host)")
	})
	r.Type("say hello Ben")
	ben.WaitFor("hello Ben")
	ben.Press("enter")
	ben.Paste("hi \x1b[31mAnn\x1b[0m\x07")
	ben.Press("enter")
	until(r, "Ben says: hi Ann")
	// Another player watches straight from the ssh command, and hears the chat too.
	cy := s.LinearReader(t, "cy", e2e.NewKey(t), "plain watch "+code[1], "")
	until(cy, "What is your name?")
	cy.Type("Cy")
	until(cy, "You are watching table")
	r.Type("'welcome, Cy")
	until(cy, "Ann says: welcome, Cy")
	r.Type("plain off")
	until(r, "Remembered: parlor starts with the full screen")
	r.Type("quit")
	until(r, "Goodbye.")

	p := s.Connect(t, "ann", key, "", 80, 24)
	p.WaitFor("Open tables")
	if out := string(r.Raw()); strings.Contains(out, "\x1b[") {
		t.Errorf("the linear mode on an xterm sent escape sequences: %q", out)
	}
}
