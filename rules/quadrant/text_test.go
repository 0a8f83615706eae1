package quadrant

import (
	"slices"
	"strings"
	"testing"
)

// The breakdowns count with the noun agreeing: "1 right vote", "2 right votes".
func TestBreakdownCountsAgree(t *testing.T) {
	g := newGame(t, 4, untimed(ModeCompetitive))
	r := &Reveal{
		Votes:  []Verdict{{Voter: 0, Seat: 1, Number: 2, Right: true}, {Voter: 2, Seat: 1, Number: 2, Right: true}, {Voter: 2, Seat: 3, Number: 4, Right: true}},
		Points: []int{1, 2, 2, 1},
	}
	got := strings.Join(g.breakdown(r), "\n")
	for _, want := range []string{"Ana: nobody guessed their word; 1 right vote (+1) = 1.", "Cid: nobody guessed their word; 2 right votes (+2) = 2.", "Bob: Ana, Cid guessed their word (+2); 0 right votes (+0) = 2."} {
		if !strings.Contains(got, want) {
			t.Errorf("breakdown lacks %q:\n%s", want, got)
		}
	}
	tg := newGame(t, 8, untimed(ModeTeam))
	tr := &Reveal{Votes: []Verdict{{Voter: 0, Seat: 2, Number: 1, Right: true}}, BallotCast: true,
		TeamVotes: []Verdict{{Voter: TeamVoter, Seat: 0, Number: 1, Right: true}}, Points: make([]int, 8), TeamPoints: []int{1, 2}}
	got = strings.Join(tg.breakdown(tr), "\n")
	if !strings.Contains(got, "Team A (active): 1 right vote, 1 point each = 1.") {
		t.Errorf("team breakdown:\n%s", got)
	}
}

// The lobby announces the result in the table's feed ("Game over: …"), and the game's
// prompt says it: the game's log does not say it a second time.
func TestGameOverLogSaysTheWinnerOnce(t *testing.T) {
	for _, mode := range []string{ModeCompetitive, ModeTeam} {
		n := 4
		if mode == ModeTeam {
			n = 8
		}
		g := playGame(t, 5, n, untimed(mode), false, false)
		res, over := g.Outcome()
		if !over {
			t.Fatalf("%s: not over", mode)
		}
		v := g.View(0).(View)
		if slices.ContainsFunc(v.Log, func(l string) bool { return strings.Contains(l, res.Summary) }) {
			t.Errorf("%s: the log repeats %q:\n%s", mode, res.Summary, strings.Join(v.Log, "\n"))
		}
		if !strings.Contains(v.Prompt, res.Summary) {
			t.Errorf("%s: prompt %q", mode, v.Prompt)
		}
	}
}

// A voter is told that votes count only once sent: a playtester's half-filled ballot was
// dropped silently when the time ran out.
func TestTheVotingPromptSaysVotesMustBeSent(t *testing.T) {
	g := newGame(t, 4, untimed(ModeCompetitive))
	lockAll(t, g)
	if p := g.View(0).(View).Prompt; !strings.Contains(p, "only the votes you send count") {
		t.Fatalf("the voting prompt: %q", p)
	}
}
