package quadrant

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"parlor/lobby"
	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
)

func TestRenderFitsOtherFrameSizes(t *testing.T) {
	g := newGame(t, 7, qd.ModeCompetitive)
	s := screenFor(g, 2)
	for _, f := range []gameui.Frame{{Width: 80, Height: 18}, {Width: 100, Height: 30}, {Width: 132, Height: 43}, {Width: 60, Height: 19}} {
		out := s.Render(f)
		lines := strings.Split(out, "\n")
		if len(lines) > f.Height {
			t.Fatalf("%dx%d: %d lines", f.Width, f.Height, len(lines))
		}
		for _, l := range lines {
			if lipgloss.Width(l) != f.Width {
				t.Fatalf("%dx%d: a line is %d wide", f.Width, f.Height, lipgloss.Width(l))
			}
		}
	}
}

// BenchmarkMoveToFrame is the screen's share of a token move reaching another player:
// the move is applied, the other seat's view is made and its frame drawn at 80×19.
func BenchmarkMoveToFrame(b *testing.B) {
	o, _ := qd.Spec.CheckOptions(rules.Options{qd.OptMode: qd.ModeCompetitive})
	g, err := qd.New(rules.Setup{Names: allNames[:7], Seed: 1, Options: o, Content: content(), Now: t0})
	if err != nil {
		b.Fatal(err)
	}
	s := New(1)
	f := gameui.Frame{Width: 80, Height: 19, Seat: 1}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := g.Apply(0, rules.Encode(qd.Move{Type: qd.TypeMove, X: i%41 - 20, Y: 0}), t0); err != nil {
			b.Fatal(err)
		}
		s.SetView(g.View(1))
		_ = s.Render(f)
	}
}

// BenchmarkMoveToSevenFrames is a whole table's share of one token move: the move is
// applied, and each of the seven seats gets its view and draws its frame at 80×19, all
// from one table state (one fan-out of the lobby, whose lobby.Shared they draw with).
func BenchmarkMoveToSevenFrames(b *testing.B) {
	o, _ := qd.Spec.CheckOptions(rules.Options{qd.OptMode: qd.ModeCompetitive})
	g, err := qd.New(rules.Setup{Names: allNames[:7], Seed: 1, Options: o, Content: content(), Now: t0})
	if err != nil {
		b.Fatal(err)
	}
	screens := make([]*Screen, 7)
	for seat := range screens {
		screens[seat] = New(seat)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := g.Apply(0, rules.Encode(qd.Move{Type: qd.TypeMove, X: i%41 - 20, Y: 0}), t0); err != nil {
			b.Fatal(err)
		}
		memo := &lobby.Shared{}
		for seat, s := range screens {
			s.SetView(g.View(seat))
			_ = s.Render(gameui.Frame{Width: 80, Height: 19, Seat: seat, Memo: memo})
		}
	}
}
