package quadrant

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"parlor/rules"
)

// stage brings a game to a phase for the invalid-action table.
type stage func(t *testing.T, g *Game)

func atPlacement(t *testing.T, g *Game) {}

func atVoting(t *testing.T, g *Game) { lockAll(t, g) }

func atTeamVote(t *testing.T, g *Game) {
	lockAll(t, g)
	for _, p := range g.players {
		act(t, g, p, CastVotes{Type: TypeVote, Votes: rightVotes(g, p)})
	}
}

func TestInvalidActionsChangeNothing(t *testing.T) {
	comp := untimed(ModeCompetitive)
	team := untimed(ModeTeam)
	cases := []struct {
		name   string
		opts   rules.Options
		n      int
		stage  stage
		seat   int
		action string
		want   error
		text   string // part of the message a player reads
	}{
		{"spectator", comp, 4, atPlacement, -1, `{"type":"lock"}`, rules.ErrSpectator, "spectator"},
		{"seat out of range", comp, 4, atPlacement, 4, `{"type":"lock"}`, rules.ErrNoSuchSeat, "seat"},
		{"negative seat", comp, 4, atPlacement, -7, `{"type":"lock"}`, rules.ErrNoSuchSeat, "seat"},
		{"not JSON", comp, 4, atPlacement, 0, `nope`, rules.ErrBadAction, "JSON"},
		{"no type", comp, 4, atPlacement, 0, `{}`, rules.ErrBadAction, "type"},
		{"unknown type", comp, 4, atPlacement, 0, `{"type":"dance"}`, rules.ErrUnknownAction, "dance"},
		{"unknown field", comp, 4, atPlacement, 0, `{"type":"lock","x":1}`, rules.ErrBadAction, "x"},
		{"move without y", comp, 4, atPlacement, 0, `{"type":"move","x":1}`, rules.ErrBadAction, "x and y"},
		{"move off the board x", comp, 4, atPlacement, 0, `{"type":"move","x":21,"y":0}`, ErrOffBoard, "x (across) goes from -20 to 20 and y (up) from -10 to 10, not (21, 0)"},
		{"move off the board y", comp, 4, atPlacement, 0, `{"type":"move","x":0,"y":-11}`, ErrOffBoard, "not (0, -11)"},
		{"move a float", comp, 4, atPlacement, 0, `{"type":"move","x":1.5,"y":0}`, rules.ErrBadAction, ""},
		{"unlock when unlocked", comp, 4, atPlacement, 0, `{"type":"unlock"}`, ErrNotLocked, "not locked"},
		{"vote while placing", comp, 4, atPlacement, 0, `{"type":"vote","votes":[]}`, ErrWrongPhase, "placement"},
		{"continue while placing", comp, 4, atPlacement, 0, `{"type":"continue"}`, ErrWrongPhase, "scoring"},
		{"ballot in competitive", comp, 4, atVoting, 0, `{"type":"ballot_set","seat":1,"number":1}`, ErrWrongPhase, "competitive"},
		{"move while voting", comp, 4, atVoting, 0, `{"type":"move","x":1,"y":1}`, ErrWrongPhase, "voting"},
		{"lock while voting", comp, 4, atVoting, 0, `{"type":"lock"}`, ErrWrongPhase, "voting"},
		{"self vote", comp, 4, atVoting, 0, `{"type":"vote","votes":[{"seat":0,"number":1},{"seat":1,"number":2},{"seat":2,"number":3}]}`, ErrSelfVote, "own"},
		{"duplicate number", comp, 4, atVoting, 0, `{"type":"vote","votes":[{"seat":1,"number":2},{"seat":2,"number":2},{"seat":3,"number":3}]}`, ErrNumberUsed, "both"},
		{"two votes on one token", comp, 4, atVoting, 0, `{"type":"vote","votes":[{"seat":1,"number":2},{"seat":1,"number":1},{"seat":3,"number":3}]}`, ErrBallot, "two votes"},
		{"number out of range", comp, 4, atVoting, 0, `{"type":"vote","votes":[{"seat":1,"number":5},{"seat":2,"number":2},{"seat":3,"number":3}]}`, ErrBallot, "1 to 4"},
		{"number zero", comp, 4, atVoting, 0, `{"type":"vote","votes":[{"seat":1,"number":0},{"seat":2,"number":2},{"seat":3,"number":3}]}`, ErrBallot, "1 to 4"},
		{"missing vote", comp, 4, atVoting, 0, `{"type":"vote","votes":[{"seat":1,"number":1},{"seat":2,"number":2}]}`, ErrIncomplete, "Dee"},
		{"vote on no seat", comp, 4, atVoting, 0, `{"type":"vote","votes":[{"seat":9,"number":1}]}`, ErrBallot, "seat 9"},
		{"inactive member places", team, 8, atPlacement, 1, `{"type":"move","x":1,"y":1}`, ErrNotActive, "team A"},
		{"inactive member votes", team, 8, atVoting, 1, `{"type":"vote","votes":[]}`, ErrNotActive, "ballot"},
		{"ballot before team vote", team, 8, atVoting, 1, `{"type":"ballot_set","seat":0,"number":1}`, ErrWrongPhase, "after"},
		{"active member edits ballot", team, 8, atTeamVote, 0, `{"type":"ballot_set","seat":2,"number":1}`, ErrNotInactive, "team B"},
		{"active member approves", team, 8, atTeamVote, 0, `{"type":"approve"}`, ErrNotInactive, "team B"},
		{"ballot on inactive seat", team, 8, atTeamVote, 1, `{"type":"ballot_set","seat":3,"number":1}`, ErrBallot, "seat 3"},
		{"ballot number too big", team, 8, atTeamVote, 1, `{"type":"ballot_set","seat":0,"number":5}`, ErrBallot, "1 to 4"},
		{"ballot without number", team, 8, atTeamVote, 1, `{"type":"ballot_set","seat":0}`, rules.ErrBadAction, "number"},
		{"approve empty ballot", team, 8, atTeamVote, 1, `{"type":"approve"}`, ErrIncomplete, "Ana"},
		{"unapprove without approval", team, 8, atTeamVote, 1, `{"type":"unapprove"}`, ErrNotApproved, "not approved"},
		{"vote again", team, 8, atTeamVote, 0, `{"type":"vote","votes":[]}`, ErrWrongPhase, "team ballot"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, c.n, c.opts)
			c.stage(t, g)
			before := snapshot(t, g)
			err := g.Apply(c.seat, json.RawMessage(c.action), t0)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.text) {
				t.Fatalf("error %q does not say %q", err, c.text)
			}
			if after := snapshot(t, g); after != before {
				t.Fatal("state changed after an error")
			}
		})
	}
}

func TestRepeatedActionsAreRejected(t *testing.T) {
	g := newGame(t, 4, untimed(ModeCompetitive))
	act(t, g, 0, Lock{Type: TypeLock})
	check := func(seat int, a any, want error) {
		t.Helper()
		before := snapshot(t, g)
		if err := g.Apply(seat, rules.Encode(a), t0); !errors.Is(err, want) {
			t.Fatalf("%+v: error %v, want %v", a, err, want)
		}
		if snapshot(t, g) != before {
			t.Fatal("state changed after an error")
		}
	}
	check(0, Lock{Type: TypeLock}, ErrLocked)
	check(0, Move{Type: TypeMove, X: 1, Y: 1}, ErrLocked)
	act(t, g, 0, Unlock{Type: TypeUnlock})
	act(t, g, 0, Move{Type: TypeMove, X: 20, Y: -10})
	lockAll(t, g)
	act(t, g, 0, CastVotes{Type: TypeVote, Votes: rightVotes(g, 0)})
	check(0, CastVotes{Type: TypeVote, Votes: rightVotes(g, 0)}, ErrVoted)
	for _, p := range []int{1, 2, 3} {
		act(t, g, p, CastVotes{Type: TypeVote, Votes: rightVotes(g, p)})
	}
	act(t, g, 2, Continue{Type: TypeContinue})
	check(2, Continue{Type: TypeContinue}, ErrContinued)
}

func TestTeamBallotApproval(t *testing.T) {
	g := newGame(t, 9, untimed(ModeTeam)) // team A: 5 tokens; team B: seats 1,3,5,7
	atTeamVote(t, g)
	inactive := []int{1, 3, 5, 7}
	for i, p := range g.players {
		act(t, g, inactive[i%4], BallotSet{Type: TypeBallotSet, Seat: p, Number: g.number[p]})
	}
	// A suggestion of a number already on the ballot is refused (an edit swaps).
	before := snapshot(t, g)
	err := g.Apply(1, rules.Encode(BallotSet{Type: TypeBallotSet, Seat: 0, Number: g.number[2], Suggest: true}), t0)
	if !errors.Is(err, ErrLineTaken) || snapshot(t, g) != before {
		t.Fatalf("a suggestion over an edit: %v", err)
	}
	act(t, g, 1, Approve{Type: TypeApprove, Rev: g.rev})
	act(t, g, 3, Approve{Type: TypeApprove})
	if v := g.View(5).(View); len(v.Ballot.Approved) != 2 || !sameInts(v.Waiting, []int{5, 7}) {
		t.Fatalf("approved %v waiting %v", v.Ballot.Approved, v.Waiting)
	}
	// A stale revision is refused.
	if err := g.Apply(5, rules.Encode(Approve{Type: TypeApprove, Rev: g.rev - 1}), t0); !errors.Is(err, ErrBallotChanged) {
		t.Fatalf("stale approve: %v", err)
	}
	// Any change clears every approval, and setting the same number is no change.
	rev := g.rev
	act(t, g, 7, BallotSet{Type: TypeBallotSet, Seat: 0, Number: g.number[0]})
	if g.rev != rev || len(g.View(1).(View).Ballot.Approved) != 2 {
		t.Fatal("a no-op change cleared the approvals")
	}
	act(t, g, 7, BallotSet{Type: TypeBallotSet, Seat: 0, Number: 0})
	if v := g.View(1).(View); len(v.Ballot.Approved) != 0 || v.Ballot.Rev != rev+1 {
		t.Fatalf("after a change: approved %v rev %d", v.Ballot.Approved, v.Ballot.Rev)
	}
	act(t, g, 7, BallotSet{Type: TypeBallotSet, Seat: 0, Number: g.number[0]})
	for _, s := range []int{1, 3, 5} {
		act(t, g, s, Approve{Type: TypeApprove})
	}
	act(t, g, 5, Unapprove{Type: TypeUnapprove})
	act(t, g, 5, Approve{Type: TypeApprove})
	if g.phase != PhaseTeamVote {
		t.Fatal("the ballot was cast before every member approved")
	}
	act(t, g, 7, Approve{Type: TypeApprove})
	if g.phase != PhaseScoring || !g.cast || g.teamScores[1] != 10 {
		t.Fatalf("phase %s cast %v scores %v", g.phase, g.cast, g.teamScores)
	}
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
