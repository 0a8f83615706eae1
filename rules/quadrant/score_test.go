package quadrant

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"parlor/rules"
)

func TestScoreVotesTable(t *testing.T) {
	cases := []struct {
		name    string
		numbers []int
		votes   [][]int
		want    []int
	}{
		{"nobody right", []int{1, 2, 3, 4}, [][]int{{0, 1, 2, 3}, {2, 0, 1, 3}, {2, 1, 0, 3}, {2, 1, 4, 0}}, []int{0, 0, 0, 0}},
		{"everyone right", []int{3, 1, 4, 2}, [][]int{{0, 1, 4, 2}, {3, 0, 4, 2}, {3, 1, 0, 2}, {3, 1, 4, 0}}, []int{6, 6, 6, 6}},
		{"missing votes score nothing", []int{1, 2, 3, 4}, [][]int{nil, {1, 0, 3, 4}, nil, nil}, []int{1, 3, 1, 1}},
		{"owner and voter 1 each", []int{2, 1, 3, 4}, [][]int{{0, 1, 0, 0}, nil, nil, nil}, []int{1, 1, 0, 0}},
		{"a vote on oneself never counts", []int{1, 2, 3, 4}, [][]int{{1, 0, 0, 0}, nil, nil, nil}, []int{0, 0, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := ScoreVotes(c.numbers, c.votes)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

// playTeamRound plays one team round: the active players vote right except rightActive
// limits how many of each voter's votes are right (all when -1); the inactive team's
// ballot has rightBallot right numbers (or is not cast when -1).
func playTeamRound(t *testing.T, g *Game, wrongVoters map[int]bool, rightBallot int) {
	t.Helper()
	lockAll(t, g)
	k := len(g.players)
	for _, voter := range g.players {
		votes := rightVotes(g, voter)
		if wrongVoters[voter] {
			// Rotate the numbers among the other tokens: all wrong when there are 3 or more.
			for i := range votes {
				votes[i].Number = g.number[votes[(i+1)%len(votes)].Seat]
			}
		}
		act(t, g, voter, CastVotes{Type: TypeVote, Votes: votes})
	}
	if g.phase != PhaseTeamVote {
		t.Fatalf("phase %s, want team_vote", g.phase)
	}
	if rightBallot < 0 {
		return
	}
	// A ballot with exactly rightBallot right: right numbers first, the rest rotated.
	nums := make([]int, k)
	for i, p := range g.players {
		nums[i] = g.number[p]
	}
	wrong := nums[rightBallot:]
	if len(wrong) == 1 {
		t.Fatal("cannot make exactly one wrong in a permutation")
	}
	if len(wrong) > 1 {
		rot := append(append([]int(nil), wrong[1:]...), wrong[0])
		copy(nums[rightBallot:], rot)
	}
	member := -1
	for s, tm := range g.teamOf {
		if tm != g.active {
			member = s
			break
		}
	}
	for i, p := range g.players {
		act(t, g, member, BallotSet{Type: TypeBallotSet, Seat: p, Number: nums[i]})
	}
	for s, tm := range g.teamOf {
		if tm != g.active {
			act(t, g, s, Approve{Type: TypeApprove, Rev: g.rev})
		}
	}
}

func TestTeamScoring(t *testing.T) {
	cases := []struct {
		name        string
		players     int
		wrong       map[int]bool
		rightBallot int
		active      int // points for the active team (A in round 1)
		inactive    int
	}{
		// 8 players: team A = seats 0,2,4,6 (4 tokens), each voter casts 3 votes.
		{"all right", 8, nil, 4, 12, 8},
		{"one voter all wrong", 8, map[int]bool{2: true}, 2, 9, 4},
		{"ballot not cast", 8, nil, -1, 12, 0},
		{"nothing right", 8, map[int]bool{0: true, 2: true, 4: true, 6: true}, 0, 0, 0},
		// 9 players: team A has 5, team B 4.
		{"odd table", 9, nil, 5, 20, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, c.players, untimed(ModeTeam))
			if g.active != 0 || len(g.players) != (c.players+1)/2 {
				t.Fatalf("active team %d with %d players", g.active, len(g.players))
			}
			playTeamRound(t, g, c.wrong, c.rightBallot)
			if c.rightBallot < 0 {
				g.Tick(t0) // untimed: nothing happens
				if g.phase != PhaseTeamVote {
					t.Fatal("untimed team vote ended by itself")
				}
				g.voteLimit = time.Minute
				g.clock = rules.NewTimer(t0, time.Minute)
				if !g.Tick(t0.Add(time.Minute)) {
					t.Fatal("tick at the deadline changed nothing")
				}
			}
			if g.teamScores != [2]int{c.active, c.inactive} {
				t.Fatalf("team scores %v, want [%d %d]", g.teamScores, c.active, c.inactive)
			}
			v := g.View(1).(View)
			if v.Scores[0] != c.active || v.Scores[1] != c.inactive {
				t.Fatalf("seat scores %v", v.Scores)
			}
		})
	}
}

func TestTeamsAlternate(t *testing.T) {
	g := newGame(t, 8, untimed(ModeTeam))
	for round := 1; round <= TeamRounds; round++ {
		if g.round != round || g.active != (round-1)%2 {
			t.Fatalf("round %d: active team %d", g.round, g.active)
		}
		for _, p := range g.players {
			if g.teamOf[p] != g.active {
				t.Fatalf("seat %d of team %d plays for team %d", p, g.teamOf[p], g.active)
			}
		}
		playTeamRound(t, g, nil, 4)
		if round < TeamRounds {
			for s := range g.names {
				act(t, g, s, Continue{Type: TypeContinue})
			}
		}
	}
	res, over := g.Outcome()
	if !over || res.Scores[0] != 2*12+2*8 || res.Scores[0] != res.Scores[1] {
		t.Fatalf("over %v result %+v", over, res)
	}
	if len(res.Winners) != 8 {
		t.Fatalf("a tie is shared by everyone, got winners %v", res.Winners)
	}
}

func TestCompetitiveGameEndsAfterThreeRoundsWithSharedTies(t *testing.T) {
	g := newGame(t, 4, untimed(ModeCompetitive))
	for round := 1; round <= CompetitiveRounds; round++ {
		lockAll(t, g)
		for _, p := range g.players {
			act(t, g, p, CastVotes{Type: TypeVote, Votes: rightVotes(g, p)})
		}
		if round < CompetitiveRounds {
			// The scoring pause ends at its deadline even if nobody continues.
			act(t, g, 0, Continue{Type: TypeContinue})
			if g.Tick(t0.Add(ScoringPause - time.Second)) {
				t.Fatal("pause ended early")
			}
			if !g.Tick(t0.Add(ScoringPause)) || g.round != round+1 || g.phase != PhasePlacement {
				t.Fatalf("after the pause: round %d phase %s", g.round, g.phase)
			}
		}
	}
	res, over := g.Outcome()
	if !over || !reflect.DeepEqual(res.Scores, []int{18, 18, 18, 18}) || len(res.Winners) != 4 {
		t.Fatalf("over %v result %+v", over, res)
	}
	if g.View(0).(View).Phase != PhaseOver {
		t.Fatal("phase is not over")
	}
	if err := g.Apply(0, rules.Encode(Continue{Type: TypeContinue}), t0); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("after the end: %v", err)
	}
}
