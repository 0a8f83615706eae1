package quadrant

import (
	"reflect"
	"testing"
)

// The worked example of the rules page: A=1, B=2, C=3, D=4 and the table of votes.
var exampleVotes = [][]int{
	// on A, B, C, D
	{0, 2, 3, 4}, // A
	{1, 0, 3, 4}, // B
	{1, 4, 0, 2}, // C
	{1, 2, 4, 0}, // D
}

func TestWorkedExampleScoreVotes(t *testing.T) {
	points, verdicts := ScoreVotes([]int{1, 2, 3, 4}, exampleVotes)
	if want := []int{6, 5, 3, 4}; !reflect.DeepEqual(points, want) {
		t.Fatalf("points %v, want %v", points, want)
	}
	if len(verdicts) != 12 {
		t.Fatalf("%d verdicts, want 12", len(verdicts))
	}
}

func TestWorkedExampleFullRound(t *testing.T) {
	g := newGame(t, 4, untimed(ModeCompetitive))
	// Deal the example's cards and numbers.
	g.words = []string{"fruit yogurt", "5000-piece puzzle", "lawn mower", "luxury watch"}
	g.number = []int{1, 2, 3, 4}
	act(t, g, 0, Move{Type: TypeMove, X: -5, Y: 3})
	lockAll(t, g)
	if g.phase != PhaseVoting {
		t.Fatalf("phase %s, want voting", g.phase)
	}
	for voter, row := range exampleVotes {
		var votes []Vote
		for owner, n := range row {
			if n != 0 {
				votes = append(votes, Vote{Seat: owner, Number: n})
			}
		}
		act(t, g, voter, CastVotes{Type: TypeVote, Votes: votes})
	}
	if g.phase != PhaseScoring {
		t.Fatalf("phase %s, want scoring", g.phase)
	}
	v := g.View(2).(View)
	if want := []int{6, 5, 3, 4}; !reflect.DeepEqual(v.Scores, want) || !reflect.DeepEqual(v.Reveal.Points, want) {
		t.Fatalf("scores %v points %v, want %v", v.Scores, v.Reveal.Points, want)
	}
	if !reflect.DeepEqual(v.Reveal.Numbers, []int{1, 2, 3, 4}) {
		t.Fatalf("revealed numbers %v", v.Reveal.Numbers)
	}
}
