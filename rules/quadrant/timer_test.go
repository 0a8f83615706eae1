package quadrant

import (
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

func TestTimersLockTokensAndDropMissingVotes(t *testing.T) {
	g := newGame(t, 5, rules.Options{OptMode: ModeCompetitive, OptPlacement: "60s", OptVoting: "30s"})
	v := g.View(0).(View)
	if !v.Deadline.Equal(t0.Add(60 * time.Second)) {
		t.Fatalf("placement deadline %v", v.Deadline)
	}
	act(t, g, 1, Move{Type: TypeMove, X: 7, Y: -3})
	act(t, g, 2, Lock{Type: TypeLock})
	if g.Tick(t0.Add(59 * time.Second)) {
		t.Fatal("tick before the deadline changed something")
	}
	if !g.Tick(t0.Add(60 * time.Second)) {
		t.Fatal("tick at the deadline changed nothing")
	}
	v = g.View(-1).(View)
	if v.Phase != PhaseVoting || !v.Deadline.Equal(t0.Add(90*time.Second)) {
		t.Fatalf("phase %s deadline %v", v.Phase, v.Deadline)
	}
	for _, tok := range v.Tokens {
		if !tok.Locked {
			t.Fatalf("token of seat %d not locked", tok.Seat)
		}
		if tok.Seat == 1 && (tok.X != 7 || tok.Y != -3) {
			t.Fatalf("token moved when locked by the timer: %+v", tok)
		}
	}
	// Only seat 0 votes (all right); the others' votes are missing and score nothing.
	act(t, g, 0, CastVotes{Type: TypeVote, Votes: rightVotes(g, 0)})
	if !g.Tick(t0.Add(90 * time.Second)) {
		t.Fatal("voting deadline changed nothing")
	}
	v = g.View(3).(View)
	if v.Phase != PhaseScoring || v.Scores[0] != 4 || v.Scores[1] != 1 || v.Scores[4] != 1 {
		t.Fatalf("phase %s scores %v", v.Phase, v.Scores)
	}
	if !strings.Contains(strings.Join(v.Log, "\n"), "did not vote") {
		t.Fatalf("log does not say who did not vote: %v", v.Log)
	}
}

func TestTeamBallotTimesOutUncast(t *testing.T) {
	g := newGame(t, 8, rules.Options{OptMode: ModeTeam, OptPlacement: "off", OptVoting: "30s"})
	if !g.View(0).(View).Deadline.IsZero() {
		t.Fatal("placement has a deadline with the timer off")
	}
	atTeamVote(t, g)
	// Three of four inactive members approve a complete, right ballot: it is not cast.
	for _, p := range g.players {
		act(t, g, 1, BallotSet{Type: TypeBallotSet, Seat: p, Number: g.number[p]})
	}
	for _, s := range []int{1, 3, 5} {
		act(t, g, s, Approve{Type: TypeApprove})
	}
	if !g.Tick(t0.Add(30 * time.Second)) {
		t.Fatal("team vote deadline changed nothing")
	}
	if g.phase != PhaseScoring || g.teamScores != [2]int{12, 0} {
		t.Fatalf("phase %s scores %v", g.phase, g.teamScores)
	}
	if v := g.View(0).(View); v.Reveal.BallotCast || v.Ballot == nil || v.Ballot.Cast {
		t.Fatalf("reveal %+v", v.Reveal)
	}
}

func TestNewChecksPlayersAndContent(t *testing.T) {
	bad := []struct {
		n    int
		opts rules.Options
		text string
	}{
		{3, rules.Options{OptMode: ModeCompetitive}, "4 to 7"},
		{8, rules.Options{OptMode: ModeCompetitive}, "4 to 7"},
		{7, rules.Options{OptMode: ModeTeam}, "8 to 14"},
		{15, rules.Options{OptMode: ModeTeam}, "8 to 14"},
		{5, rules.Options{OptMode: "solo"}, "solo"},
	}
	for _, c := range bad {
		_, err := New(rules.Setup{Names: names(min(c.n, 14)), Options: c.opts, Content: testContent()})
		if c.n == 15 {
			_, err = New(rules.Setup{Names: append(names(14), "Oz"), Options: c.opts, Content: testContent()})
		}
		if err == nil || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%d players %v: error %v, want %q", c.n, c.opts, err, c.text)
		}
	}
	small := map[string][]byte{WordsFile: []byte("a\nb\nc\n"), CriteriaFile: []byte("x\ny\n")}
	if _, err := New(rules.Setup{Names: names(4), Content: small}); err == nil {
		t.Error("a tiny deck was accepted")
	}
	if _, err := New(rules.Setup{Names: names(4)}); err == nil {
		t.Error("missing content was accepted")
	}
	dup := map[string][]byte{WordsFile: []byte("a\nA\n"), CriteriaFile: []byte("x\n")}
	if _, err := ParseDecks(dup); err == nil || !strings.Contains(err.Error(), "repeats") {
		t.Errorf("duplicate word: %v", err)
	}
	long := map[string][]byte{WordsFile: []byte(strings.Repeat("w", 25)), CriteriaFile: []byte("x\n")}
	if _, err := ParseDecks(long); err == nil {
		t.Error("a 25-character word was accepted")
	}
}
