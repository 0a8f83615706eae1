package session

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"parlor/rules"
	ft "parlor/rules/fingertip"
	qd "parlor/rules/quadrant"
	tt "parlor/rules/talltale"
)

// Colour is never the only cue: each game's screens, drawn in colour and read with the
// colour taken out (the harness's screens are ansi.Strip'ed), still tell teams, seats,
// Tall Tale's boards, Fingertip's target and right from wrong apart by a letter, a name
// or a mark. A player sits with bots and does nothing: the timers and the bots walk the
// game through its phases, and every screen on the way is read.
func TestScreensWithoutColourKeepTheirMarks(t *testing.T) {
	type mark struct {
		what string
		re   *regexp.Regexp
		// when, if set, is the view in which the mark must show on the screen it makes;
		// else the mark must show on some screen of the walk.
		when func(v rules.View, seat int) bool
	}
	phase := func(p string) func(rules.View, int) bool {
		return func(v rules.View, _ int) bool { return v.Head().Phase == p }
	}
	cases := []struct {
		game    string
		opts    rules.Options
		players int
		marks   []mark
	}{
		{"topfive", rules.Options{"timer": "30s"}, 3, []mark{
			{"the Player of Honour by name", regexp.MustCompile(`Player of Honour`), phase("ranking")},
			{"right and wrong guesses by ✓ and ✗", regexp.MustCompile(`[✓✗]`), phase("reveal")},
		}},
		{"foresight", rules.Options{"timer": "60s"}, 3, []mark{
			{"the round's results by name", regexp.MustCompile(`Round \d+ results`), phase("reveal")},
		}},
		{qd.ID, rules.Options{qd.OptMode: qd.ModeTeam, qd.OptPlacement: "30s", qd.OptVoting: "30s"}, qd.TeamMin, []mark{
			{"the teams by letter", regexp.MustCompile(`[Tt]eam [AB]`), func(v rules.View, _ int) bool { return v.Head().Phase != "" }},
			{"a locked token by ✓", regexp.MustCompile(`✓ locked`), nil},
		}},
		{ft.ID, rules.Options{ft.OptClueTime: "30s", ft.OptRaceTime: "30s"}, 3, []mark{
			{"the active player's target by ★", regexp.MustCompile(`★ your card`), func(v rules.View, seat int) bool {
				fv, ok := v.(ft.View)
				return ok && fv.Phase == ft.PhaseClue && fv.Active == seat
			}},
			{"the revealed target by ★", regexp.MustCompile(`★ (target|yes|discarded)`), phase(ft.PhaseReveal)},
			{"a wrong card by ✗ and its pointer's name", regexp.MustCompile(`✗ (no: )?\S`), nil},
		}},
		{tt.ID, rules.Options{tt.OptTimer: "60s", tt.OptRaceTime: "30s"}, 3, []mark{
			{"each board by its colour's name", regexp.MustCompile(`(Red|Blue|Green|Yellow) board`), phase(tt.PhaseRace)},
			{"the shown board in brackets", regexp.MustCompile(`\[(Red|Blue|Green|Yellow) board\]`), phase(tt.PhaseRace)},
		}},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			h := newHarness(t, "Amy", 80, 24)
			if h.m.plain {
				t.Fatal("the harness draws without colour: this test reads colour screens stripped")
			}
			h.sitAt(c.game, c.opts, c.players)
			found := make([]bool, len(c.marks))
			room := false
			for step := 0; step < 400; step++ {
				v := h.m.table.u.View
				if v == nil || v.Head().Over {
					break
				}
				screen := h.screen()
				for i, mk := range c.marks {
					hit := mk.re.MatchString(screen)
					found[i] = found[i] || hit
					if mk.when != nil && mk.when(v, h.m.table.gameSeat()) && !hit {
						t.Fatalf("step %d, %s phase: the screen does not show %s without colour:\n%s", step, v.Head().Phase, mk.what, screen)
					}
				}
				if !strings.Contains(screen, "you: Amy") && !strings.Contains(screen, "(you)") && !strings.Contains(screen, "Amy") {
					t.Fatalf("step %d: the screen does not say who the viewer is:\n%s", step, screen)
				}
				if !room && step == 3 { // the room: seats by name and mark
					h.press("esc")
					seats := h.screen()
					for _, want := range []string{"Amy ", "★host", "(bot)", "← you"} {
						if !strings.Contains(seats, want) {
							t.Fatalf("the room without colour lacks %q:\n%s", want, seats)
						}
					}
					if c.game == qd.ID && (!strings.Contains(seats, "team A") || !strings.Contains(seats, "team B")) {
						t.Fatalf("the room without colour does not name the teams:\n%s", seats)
					}
					h.press("esc")
					room = true
				}
				if all(found) && room {
					break
				}
				h.clock.Advance(2 * time.Second)
				h.drain()
			}
			for i, mk := range c.marks {
				if !found[i] {
					t.Errorf("no screen of the walk showed %s without colour", mk.what)
				}
			}
		})
	}
}

func all(bs []bool) bool {
	for _, b := range bs {
		if !b {
			return false
		}
	}
	return true
}

// drain delivers the table's updates to the model until none comes for a moment.
func (h *harness) drain() {
	h.t.Helper()
	for {
		mem := h.m.table.member
		if mem == nil {
			return
		}
		ctx, cancel := context.WithTimeout(h.ctx, 15*time.Millisecond)
		u, ok, _ := mem.Next(ctx)
		cancel()
		if !ok {
			return
		}
		h.m.Update(updateMsg{mem, u})
	}
}
