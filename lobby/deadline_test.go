package lobby_test

import (
	"errors"
	"testing"
	"time"

	"parlor/lobby"
	"parlor/rules"
	ft "parlor/rules/fingertip"
	fs "parlor/rules/foresight"
	qd "parlor/rules/quadrant"
	tt "parlor/rules/talltale"
	tf "parlor/rules/topfive"
)

// Each test below sends an action one second after its phase's deadline, before the
// table's ticker has come round (the tests' tickers never fire), and expects the game
// to have handled the deadline first, as its rules fix the outcome at expiry.

func TestLateRankingDoesNotScore(t *testing.T) {
	l, clk := clockLobby(t)
	ms := humans(t, l, tf.ID, 3, rules.Options{tf.OptTimer: "30s"})
	v := viewOf[tf.View](t, ms[0], tf.PhaseRanking)
	ranks := [tf.Hand]int{1, 2, 3, 4, 5}
	late := -1
	for seat, m := range ms {
		switch {
		case seat == v.Honour:
			mustAct(t, m, tf.NewRank(ranks, -1))
		case late < 0:
			late = seat // ranks too late
		default:
			clk.Advance(29 * time.Second) // one second before the deadline: still in time
			mustAct(t, m, tf.NewRank(ranks, 0))
		}
	}
	clk.Advance(2 * time.Second)
	mustRefuse(t, ms[late], tf.NewRank(ranks, 0), tf.ErrWrongPhase) // a ranking 1 s late
}

func TestLateQuadrantMoveIsRefused(t *testing.T) {
	l, clk := clockLobby(t)
	ms := humans(t, l, qd.ID, 4, rules.Options{qd.OptPlacement: "30s"})
	viewOf[qd.View](t, ms[0], qd.PhasePlacement)
	clk.Advance(29 * time.Second)
	mustAct(t, ms[0], qd.Move{Type: "move", X: 1, Y: 1})
	clk.Advance(2 * time.Second)
	mustRefuse(t, ms[1], qd.Move{Type: "move", X: 2, Y: 2}, qd.ErrWrongPhase) // a move after placement closed
	if v := viewOf[qd.View](t, ms[1], qd.PhaseVoting); v.Phase != qd.PhaseVoting {
		t.Fatalf("phase %q", v.Phase)
	}
}

func TestLateFingertipPointIsRefused(t *testing.T) {
	l, clk := clockLobby(t)
	ms := humans(t, l, ft.ID, 3, rules.Options{ft.OptRaceTime: "30s"})
	v := viewOf[ft.View](t, ms[0], ft.PhaseClue)
	mustAct(t, ms[v.Active], ft.Clue{Type: ft.TypeClue, Text: "home"})
	clk.Advance(31 * time.Second)
	guesser := ms[(v.Active+1)%3]
	mustRefuse(t, guesser, map[string]any{"type": "point", "position": 5}, ft.ErrNotNow) // a point after the race time
}

func TestLateForesightSubmissionIsRefused(t *testing.T) {
	l, clk := clockLobby(t)
	ms := humans(t, l, "foresight", 3, rules.Options{"timer": "60s"})
	viewOf[fs.View](t, ms[0], fs.PhaseAnswering)
	submit := func(seat int) fs.Submit {
		s := fs.Submit{Type: "submit", Answer: 1}
		for other := range ms {
			if other != seat {
				s.Predictions = append(s.Predictions, fs.Prediction{Seat: other, Choice: 1})
			}
		}
		return s
	}
	clk.Advance(59 * time.Second)
	mustAct(t, ms[0], submit(0))
	clk.Advance(2 * time.Second)
	mustRefuse(t, ms[1], submit(1), fs.ErrNotAnswering) // a submission after the timer
}

func TestLateTallTaleStoryIsRefused(t *testing.T) {
	l, clk := clockLobby(t)
	ms := humans(t, l, tt.ID, 3, rules.Options{tt.OptTimer: "60s"})
	narrator, nv := findNarrator(t, ms)
	mustAct(t, narrator, tt.Discard{Type: "discard", Card: nv.Hand.Drawn[0].ID})
	clk.Advance(60*time.Second + tt.ReminderTime + time.Second)                                             // the reminder's 15 s are over too
	mustRefuse(t, narrator, tt.Story{Type: "story", Text: "A long tale.", Confirm: true}, tt.ErrWrongPhase) // a story after the time limit
}

// The deadline a late action meets is also sent to everyone at once, not at the next tick.
func TestDeadlineSeenByALateActionIsFannedOut(t *testing.T) {
	l, clk := clockLobby(t)
	ms := humans(t, l, qd.ID, 4, rules.Options{qd.OptPlacement: "30s"})
	viewOf[qd.View](t, ms[3], qd.PhasePlacement)
	clk.Advance(31 * time.Second)
	_ = lobby.Run(ms[0], lobby.ActOf(qd.Move{Type: "move", X: 1, Y: 1}))
	viewOf[qd.View](t, ms[3], qd.PhaseVoting)
}

func mustRefuse(t *testing.T, m lobby.Place, action any, want error) {
	t.Helper()
	if err := lobby.Run(m, lobby.ActOf(action)); !errors.Is(err, want) {
		t.Fatalf("act %+v: %v, want %v", action, err, want)
	}
}

func mustAct(t *testing.T, m lobby.Place, action any) {
	t.Helper()
	if err := lobby.Run(m, lobby.ActOf(action)); err != nil {
		t.Fatalf("act %+v: %v", action, err)
	}
}
