package quadrant

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"parlor/lobby"
	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
	"parlor/session/gameui/gameuitest"
)

// Every seat's frame drawn over the table's shared plane, token list and words (one
// lobby.Shared per table state, as the session passes it), with the background and the
// rows of the plane it kept from its last frame, is exactly the frame the seat draws
// alone and from nothing, in
// every phase of bot-played games, at every size of plane, without colour, with players
// away and with the list alone on a narrow area. Half the seats move their token ahead of
// the views while placing, and the seats voting have a token in focus: the cells that are
// theirs alone, on the plane and in the list.
func TestSharedPlaneDrawsTheSameFrames(t *testing.T) {
	away := gameui.SeatSet(0).With(1).With(4)
	frames := append([]gameui.Frame{
		{Width: 80, Height: 19, Plain: true}, {Width: 100, Height: 25, Plain: true},
		{Width: 80, Height: 19, Away: away}, {Width: 60, Height: 19},
	}, areas...)
	for _, tc := range []struct {
		mode    string
		players int
	}{{qd.ModeCompetitive, 7}, {qd.ModeTeam, 9}} {
		t.Run(tc.mode, func(t *testing.T) {
			tb := gameuitest.NewTable(t, qd.ID, allNames[:tc.players], rules.Options{qd.OptMode: tc.mode}, nil, 5)
			var memo *lobby.Shared
			phases := map[string]bool{}
			ahead, redrawn := 0, 0
			listShared, listOwn, awayShown := 0, 0, 0
			type keptAt struct{ seat, frame int }
			kept, reused, boardReused := map[keptAt]rows{}, 0, 0
			move := func(seat int, sc gameui.Screen, bot any) any {
				if s := sc.(*Screen); s.role() == placing && seat%2 == 0 {
					s.Update(gameuitest.Key("right")) // the table never hears of it
				}
				return bot
			}
			visit := func(seat int, sc gameui.Screen) {
				if seat == rules.Spectator {
					memo = &lobby.Shared{} // a new table state
				}
				s := sc.(*Screen)
				if t, ok := s.myToken(); ok && s.v.Phase == qd.PhasePlacement && s.mine != (qd.Point{X: t.X, Y: t.Y}) {
					ahead++
				}
				for i, f := range frames {
					f.Seat = seat
					// The seat draws at each size as a session would, over the table's
					// drawings and with what it kept from its frame at that size before;
					// then alone and from nothing.
					k := keptAt{seat, i}
					s.rows, s.dirty = kept[k], true
					f.Memo = memo
					shared := s.Render(f)
					kept[k], reused, boardReused = s.rows, reused+s.rows.reused, boardReused+s.rows.boardReused
					s.forget()
					s.dirty = true
					f.Memo = nil
					alone := s.Render(f)
					if shared != alone {
						t.Fatalf("round %d, %s, seat %d, %dx%d plain %v: with the shared plane\n%s\nalone\n%s",
							s.v.Round, s.v.Phase, seat, f.Width, f.Height, f.Plain, shared, alone)
					}
					f.Memo = memo
					if s.have && s.v.Reveal == nil && !s.v.Over {
						pub := memo.Remember(listKey{f.Plain, f.Away}, func() any { return nil })
						if pub, ok := pub.(*publicList); ok {
							listShared++
							if own := cellTexts(s.v.Tokens, s.shown); s.ownAhead() && fmt.Sprint(own) != fmt.Sprint(pub.cells) {
								listOwn++
							}
						}
						if f.Away != 0 && strings.Contains(shared, awayLegend) {
							awayShown++
						}
					}
					if geo := s.layout(f.Width, f.Height); s.v.Reveal == nil && !s.v.Over && s.have {
						pub := memo.Remember(planeKey{geo, f.Plain, s.letterKey}, func() any { return nil })
						if pub, ok := pub.(*publicPlane); ok && fmt.Sprint(pub.lines) != fmt.Sprint(s.drawPlane(geo, f.Plain, nil)) {
							redrawn++
						}
					}
				}
				phases[s.v.Phase] = true
			}
			tb.Play(t, move, visit, nil)
			for _, p := range []string{qd.PhasePlacement, qd.PhaseVoting, qd.PhaseScoring} {
				if !phases[p] {
					t.Errorf("the game never showed phase %s", p)
				}
			}
			if tc.mode == qd.ModeTeam && !phases[qd.PhaseTeamVote] {
				t.Errorf("the team game never showed the team vote")
			}
			if ahead == 0 || redrawn == 0 {
				t.Errorf("no seat's plane differed from the table's (own token ahead %d times, %d planes of a seat's own): the test checks nothing of its own", ahead, redrawn)
			}
			if reused == 0 || boardReused == 0 {
				t.Errorf("seats drew %d rows of the plane and %d of the board they kept from their last frame: the test checks nothing of its own", reused, boardReused)
			}
			if listShared == 0 || listOwn == 0 || awayShown == 0 {
				t.Errorf("token list shared %d times, a seat's own cells %d times, away marks shown %d times: the test checks nothing of its own", listShared, listOwn, awayShown)
			}
		})
	}
}

// The seats of one table state draw over the shared plane at once, as sessions do, and
// each still gets its own frame (run with -race: nobody writes to the shared drawing).
func TestSharedPlaneFromManySessionsAtOnce(t *testing.T) {
	g := newGame(t, 7, qd.ModeCompetitive)
	memo := &lobby.Shared{}
	f := gameui.Frame{Width: 80, Height: 19}
	want := make([]string, 7)
	screens := make([]*Screen, 7)
	for seat := range screens {
		screens[seat] = screenFor(g, seat)
		screens[seat].Update(gameuitest.Key("up")) // every own token ahead of the views
		f.Seat = seat
		want[seat] = screens[seat].Render(f)
		screens[seat].dirty = true
	}
	got := make([]string, 7)
	var wg sync.WaitGroup
	for seat, s := range screens {
		wg.Go(func() {
			f := f
			f.Seat, f.Memo = seat, memo
			got[seat] = s.Render(f)
		})
	}
	wg.Wait()
	for seat := range got {
		if got[seat] != want[seat] {
			t.Errorf("seat %d over the shared plane:\n%s\nalone:\n%s", seat, got[seat], want[seat])
		}
	}
}

// The seats of a table draw over one background of the plane, whichever seat draws a
// table state's plane first: a canvas per seat would cost every session some 25 KB.
func TestSeatsOfATableKeepOneBackground(t *testing.T) {
	g := newGame(t, 7, qd.ModeCompetitive)
	screens := make([]*Screen, 7)
	for seat := range screens {
		screens[seat] = screenFor(g, seat)
	}
	for i := range 7 {
		if err := g.Apply(i, rules.Encode(qd.Move{Type: qd.TypeMove, X: i, Y: -i}), t0); err != nil {
			t.Fatal(err)
		}
		memo := &lobby.Shared{}
		for k := range screens {
			seat := (k + i) % 7 // a different seat draws each table state first
			screens[seat].SetView(g.View(seat))
			screens[seat].Render(gameui.Frame{Width: 80, Height: 19, Seat: seat, Memo: memo})
		}
	}
	for seat, s := range screens {
		if s.rows.bg == nil || s.rows.bg != screens[0].rows.bg {
			t.Fatalf("seat %d keeps background %p, seat 0 %p", seat, s.rows.bg, screens[0].rows.bg)
		}
	}
}
