package quadrant

import (
	"errors"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

// line is the team ballot's line for the token of seat, as member sees it.
func line(t *testing.T, g *Game, member, seat int) BallotLine {
	t.Helper()
	v := g.View(member).(View)
	if v.Ballot == nil {
		t.Fatalf("seat %d sees no ballot", member)
	}
	for _, l := range v.Ballot.Votes {
		if l.Seat == seat {
			return l
		}
	}
	t.Fatalf("no ballot line for seat %d", seat)
	return BallotLine{}
}

func TestBallotNumberUsedElsewhereSwaps(t *testing.T) {
	g := newGame(t, 8, untimed(ModeTeam))
	atTeamVote(t, g)
	a, b, c := g.players[0], g.players[1], g.players[2]
	act(t, g, 1, BallotSet{Type: TypeBallotSet, Seat: a, Number: 1})
	act(t, g, 3, BallotSet{Type: TypeBallotSet, Seat: b, Number: 2})
	act(t, g, 3, BallotSet{Type: TypeBallotSet, Seat: b, Number: 1}) // 1 is on a's line: swap
	if la, lb := line(t, g, 1, a), line(t, g, 1, b); la.Number != 2 || lb.Number != 1 || la.By != 3 || lb.By != 3 {
		t.Fatalf("after the swap: %+v %+v", la, lb)
	}
	v := g.View(5).(View)
	if last := v.Log[len(v.Log)-1]; !strings.Contains(last, "swapped") || !strings.Contains(last, g.names[a]) || !strings.Contains(last, g.names[b]) {
		t.Fatalf("the log does not say what was swapped: %q", last)
	}
	// A number moved to an empty line leaves its old line empty (and untouched).
	act(t, g, 1, BallotSet{Type: TypeBallotSet, Seat: c, Number: 2})
	if la, lc := line(t, g, 1, a), line(t, g, 1, c); la.Number != 0 || la.By != NoSeat || lc.Number != 2 || lc.By != 1 {
		t.Fatalf("after moving 2 to an empty line: %+v %+v", la, lc)
	}
	if l := line(t, g, 1, g.players[3]); l.By != NoSeat || l.Suggested {
		t.Fatalf("an untouched line: %+v", l)
	}
}

func TestBallotSuggestionsNeverOverwriteAnEdit(t *testing.T) {
	g := newGame(t, 8, untimed(ModeTeam))
	atTeamVote(t, g)
	a, b, c, d := g.players[0], g.players[1], g.players[2], g.players[3]
	suggest := func(seat, n int) error {
		return g.Apply(5, rules.Encode(BallotSet{Type: TypeBallotSet, Seat: seat, Number: n, Suggest: true}), t0)
	}
	if err := suggest(a, 1); err != nil {
		t.Fatal(err)
	}
	if l := line(t, g, 1, a); l.Number != 1 || l.By != 5 || !l.Suggested {
		t.Fatalf("a suggested line: %+v", l)
	}
	if err := suggest(c, 3); err != nil {
		t.Fatal(err)
	}
	act(t, g, 1, BallotSet{Type: TypeBallotSet, Seat: b, Number: 2}) // a person's edit
	act(t, g, 1, BallotSet{Type: TypeBallotSet, Seat: c, Number: 0}) // a person clears a suggestion
	before := snapshot(t, g)
	for _, bad := range []struct {
		seat, n int
		err     error
	}{{b, 3, ErrLineTaken}, {c, 4, ErrLineTaken}, {d, 2, ErrNumberUsed}, {d, 1, ErrNumberUsed}, {a, 0, ErrBallot}} {
		if err := suggest(bad.seat, bad.n); !errors.Is(err, bad.err) {
			t.Errorf("suggesting %d for seat %d: %v, want %v", bad.n, bad.seat, err, bad.err)
		}
	}
	if snapshot(t, g) != before {
		t.Fatal("a refused suggestion changed the game")
	}
	// A person may overwrite a suggestion.
	act(t, g, 3, BallotSet{Type: TypeBallotSet, Seat: a, Number: 4})
	if l := line(t, g, 1, a); l.Number != 4 || l.By != 3 || l.Suggested {
		t.Fatalf("an edited suggestion: %+v", l)
	}
}

// TestTeamBallotOneHumanThreeBots: the inactive team is one person (seat 1) and three
// bots. The person sets two lines and swaps them; the bots fill only the other lines,
// never change the person's, and the ballot is cast only once the person approves.
func TestTeamBallotOneHumanThreeBots(t *testing.T) {
	for _, approve := range []bool{true, false} {
		g := newGame(t, 8, rules.Options{OptMode: ModeTeam, OptPlacement: "off", OptVoting: "120s"})
		atTeamVote(t, g)
		start := g.due().Add(-120 * time.Second)
		bots := map[int]*Bot{3: NewBot(rules.BotSetup{Seat: 3, Seed: 1}), 5: NewBot(rules.BotSetup{Seat: 5, Seed: 2}), 7: NewBot(rules.BotSetup{Seat: 7, Seed: 3})}
		a, b := g.players[0], g.players[1]
		mine := map[int]int{}
		now := start
		step := func() {
			now = now.Add(250 * time.Millisecond)
			g.Tick(now)
			for _, s := range []int{3, 5, 7} {
				if act := bots[s].Act(g.View(s), now); act != nil {
					if err := g.Apply(s, rules.Encode(act), now); err != nil {
						t.Fatalf("bot %d %+v: %v", s, act, err)
					}
				}
			}
			for seat, n := range mine {
				if g.phase == PhaseTeamVote && g.ballot[seat] != n {
					t.Fatalf("a bot changed the person's line for seat %d: %d, want %d", seat, g.ballot[seat], n)
				}
			}
		}
		// mine holds the lines the person set last (a swap sets two).
		edit := func(seat, n int) {
			if err := g.Apply(1, rules.Encode(BallotSet{Type: TypeBallotSet, Seat: seat, Number: n}), now); err != nil {
				t.Fatal(err)
			}
			clear(mine)
			for _, l := range g.View(1).(View).Ballot.Votes {
				if l.By == 1 {
					mine[l.Seat] = l.Number
				}
			}
		}
		for range 4 { // the bots think first, then the person writes
			step()
		}
		edit(a, 1)
		for range 8 {
			step()
		}
		edit(b, 2)
		step()
		edit(b, 1) // swap
		if mine[a] != 2 || mine[b] != 1 {
			t.Fatalf("the swap gave %v", mine)
		}
		for now.Sub(start) < 60*time.Second && g.phase == PhaseTeamVote {
			step()
		}
		if g.phase != PhaseTeamVote || g.cast {
			t.Fatalf("approve=%v: the ballot was cast (phase %s) without the person", approve, g.phase)
		}
		if !g.ballotComplete() {
			t.Fatalf("the bots did not fill the other lines: %v", g.ballot)
		}
		for _, p := range g.players {
			if _, ok := mine[p]; ok {
				continue
			}
			if l := line(t, g, 1, p); !l.Suggested || l.By < 0 {
				t.Fatalf("line of seat %d is not a bot's suggestion: %+v", p, l)
			}
		}
		if approve {
			if err := g.Apply(1, rules.Encode(Approve{Type: TypeApprove, Rev: g.rev}), now); err != nil {
				t.Fatal(err)
			}
		}
		for g.phase == PhaseTeamVote {
			step()
		}
		if g.cast != approve {
			t.Fatalf("approve=%v: cast %v", approve, g.cast)
		}
		if !approve && !now.Equal(start.Add(120*time.Second)) {
			t.Fatalf("without the person's approval the phase ended at %v, not at the time limit", now.Sub(start))
		}
	}
}

// TestBotApprovesAfterTeammateOrPause: a bot approves a complete ballot once a teammate
// has approved it, or once nobody has changed it for botBallotPause; not before.
func TestBotApprovesAfterTeammateOrPause(t *testing.T) {
	g := newGame(t, 8, untimed(ModeTeam))
	atTeamVote(t, g)
	for _, p := range g.players {
		act(t, g, 1, BallotSet{Type: TypeBallotSet, Seat: p, Number: g.number[p]})
	}
	edited := t0.Add(3 * time.Second)
	act(t, g, 1, BallotSet{Type: TypeBallotSet, Seat: g.players[0], Number: 0})
	if err := g.Apply(1, rules.Encode(BallotSet{Type: TypeBallotSet, Seat: g.players[0], Number: g.number[g.players[0]]}), edited); err != nil {
		t.Fatal(err)
	}
	if got := g.View(3).(View).Ballot.ChangedAt; !got.Equal(edited) {
		t.Fatalf("changed_at %v, want %v", got, edited)
	}
	b := NewBot(rules.BotSetup{Seat: 3, Seed: 9}) // a fresh bot (it may take a seat any time) reads the pause from the view
	now := t0
	for ; now.Before(edited.Add(botBallotPause)); now = now.Add(500 * time.Millisecond) {
		if a := b.Act(g.View(3), now); a != nil {
			t.Fatalf("the bot acted %v after the last edit: %+v", now.Sub(edited), a)
		}
	}
	if a, ok := b.Act(g.View(3), now).(Approve); !ok || a.Rev != g.rev {
		t.Fatalf("after the pause: %+v", a)
	}
	// A new edit restarts the pause; a teammate's approval ends it.
	if err := g.Apply(1, rules.Encode(BallotSet{Type: TypeBallotSet, Seat: g.players[0], Number: g.number[g.players[1]]}), now); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Second)
	if a := b.Act(g.View(3), now); a != nil {
		t.Fatalf("approved a fresh change: %+v", a)
	}
	act(t, g, 1, Approve{Type: TypeApprove})
	now = now.Add(5 * time.Second)
	if a, ok := b.Act(g.View(3), now).(Approve); !ok || a.Rev != g.rev {
		t.Fatalf("after a teammate approved: %+v", a)
	}
}
