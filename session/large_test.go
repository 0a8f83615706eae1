package session

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
	tt "parlor/rules/talltale"
	tf "parlor/rules/topfive"
	"parlor/session/gameui"
	"parlor/session/gameui/gameuitest"
)

// A 120×40 terminal gives every game the large area the game screens' own tests draw
// (gameuitest.Width120x40 × Height120x40), beside the log panel, and the games use it.
func TestBigTerminalGivesEveryGameTheLargeArea(t *testing.T) {
	h := newHarness(t, "Zed", 120, 40)
	for _, g := range []struct {
		id      string
		players int
		large   func(lines []string) bool // the game's large layout is on screen
	}{
		{"fingertip", 3, func(lines []string) bool {
			// A row's header line names its three cards; one may be labelled (the
			// player's target, a pointing) instead of ruled, so any of the three marks it.
			row := func(cards ...int) int {
				for i, l := range lines {
					for _, c := range cards {
						if strings.Contains(l, fmt.Sprintf(" %d ─", c)) {
							return i
						}
					}
				}
				return -1
			}
			return row(4, 5, 6)-row(1, 2, 3) > 1+7 // taller than the tallest picture
		}},
		{"topfive", 3, func(lines []string) bool {
			v, _ := rules.ViewAs[tf.View](h.m.table.u.View)
			// A topic's row: its box, the topic, then padding. (One topic may begin
			// another, as "Museums" does "Museums with a guided tour".)
			row := func(topic string) int {
				re := regexp.MustCompile(`\] ` + regexp.QuoteMeta(topic) + `( {2,}|$)`)
				for i, l := range lines {
					if re.MatchString(l) {
						return i
					}
				}
				return -1
			}
			return row(v.Topics[1])-row(v.Topics[0]) == 2
		}},
		{"foresight", 3, func(lines []string) bool {
			// (Two spaces each side: the side panel also names Bot Ada, "» Bot Ada takes a seat.")
			return gameuitest.Index(lines, "  Bot Ada  ")-gameuitest.Index(lines, "You (answer)") == 2
		}},
		{"quadrant", 4, func(lines []string) bool { // a row per y, not half-height cells
			return gameuitest.Index(lines, "╵")-gameuitest.Index(lines, "▲") > 20
		}},
	} {
		h.closeTable()
		h.sitAt(g.id, nil, g.players)
		h.checkFrame(g.id + " at 120×40")
		lines := h.lines()
		side := strings.Index(lines[2], "Log and chat")
		if got := len([]rune(lines[2][:max(side, 0)])); side < 0 || got != gameuitest.Width120x40+2 {
			t.Fatalf("%s: the side panel starts at column %d, want %d:\n%s", g.id, got, gameuitest.Width120x40+2, h.screen())
		}
		if area := len(lines) - 3; area != gameuitest.Height120x40 || area < gameui.LargeHeight {
			t.Fatalf("%s: the game area has %d rows", g.id, area)
		}
		if !g.large(lines) {
			t.Errorf("%s: no large layout at 120×40:\n%s", g.id, h.screen())
		}
	}
}

// Tall Tale's boards at 120×40: every board of the round shows at once, each named
// (colour is never the only cue), and a board drawn large sets its cells apart with
// rules. The boards show once the narrator has kept 3 illustrations: the clock moves on
// for the bots, and when the narrator is the player, they discard and tell a story
// through the keys.
func TestBigTerminalShowsAllTallTaleBoards(t *testing.T) {
	for range 6 { // a round whose 3 illustrations share a colour has one board: deal again
		h := newHarness(t, "Zed", 120, 40)
		h.sitAt(tt.ID, nil, 3)
		var v tt.View
		h.pump(func() bool {
			v, _ = rules.ViewAs[tt.View](h.m.table.u.View)
			switch {
			case v.Phase == tt.PhaseDiscard && v.Narrator == v.Seat:
				h.press("enter")
			case v.Phase == tt.PhaseStory && v.Narrator == v.Seat && h.m.table.game.Typing():
				for _, r := range "A quiet tale. The end." {
					h.press(string(r))
				}
				h.press("enter", "enter")
			case v.Phase == tt.PhaseStory && v.Narrator == v.Seat:
				h.press("enter")
			}
			h.clock.Advance(time.Second)
			return v.Phase == tt.PhaseRace
		})
		h.checkFrame("talltale at 120×40")
		screen := h.screen()
		for _, b := range v.Boards {
			name := strings.ToUpper(b.Colour[:1]) + b.Colour[1:] + " board"
			if !strings.Contains(screen, name) {
				t.Fatalf("%d boards in play, %q not named:\n%s", len(v.Boards), name, screen)
			}
			for _, ill := range b.Illustrations {
				if short := []rune(ill.Name)[:min(10, len([]rune(ill.Name)))]; !strings.Contains(screen, string(short)) {
					t.Fatalf("%d boards in play, %s's %s not shown:\n%s", len(v.Boards), name, ill.Name, screen)
				}
			}
		}
		rule := " " + strings.Repeat("─", 14) + " "
		if n := strings.Count(screen, rule); len(v.Boards) <= 2 && n != 25*len(v.Boards) {
			t.Fatalf("%d cell rules on %d boards, want %d:\n%s", n, len(v.Boards), 25*len(v.Boards), screen)
		}
		if len(v.Boards) > 1 {
			if testing.Verbose() {
				t.Log("\n" + screen)
			}
			return
		}
	}
	t.Fatal("no round with more than one board")
}

// A very wide terminal widens the log and chat panel too (up to 60 columns), instead of
// wrapping every line in 36 columns beside hundreds of empty ones.
func TestAWideTerminalWidensTheSidePanel(t *testing.T) {
	h := newHarness(t, "Zed", 240, 60)
	h.sitAt("topfive", nil, 3)
	for _, l := range h.lines() {
		if i := strings.Index(l, "Log and chat"); i >= 0 {
			if col := len([]rune(l[:i])); col > 240-50 {
				t.Errorf("the panel starts at column %d of 240", col)
			}
			return
		}
	}
	t.Fatalf("no side panel:\n%s", h.screen())
}

// The log and chat panel beside the game keeps its heading with its lines: the newest
// entries follow the heading, not the bottom of the screen thirty rows below it.
func TestTheSidePanelKeepsItsHeadingWithItsLines(t *testing.T) {
	h := newHarness(t, "Zed", 120, 40)
	h.sitAt("topfive", nil, 3)
	lines := h.lines()
	side := func(l string) string {
		return strings.TrimSpace(ansi.Strip(ansi.Cut(l, gameuitest.Width120x40+2, 120)))
	}
	for i, l := range lines {
		if strings.HasPrefix(side(l), "Log and chat") {
			if i+1 >= len(lines) || side(lines[i+1]) == "" {
				t.Fatalf("no entry right under the heading on row %d:\n%s", i+1, h.screen())
			}
			return
		}
	}
	t.Fatalf("no side panel:\n%s", h.screen())
}
