package quadrant

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"parlor/rules"
)

// garbage is a random, mostly invalid action.
func garbage(r *rand.Rand, n int) json.RawMessage {
	num := func() int { return r.IntN(12) - 2 }
	seat := func() int { return r.IntN(n+3) - 2 }
	switch r.IntN(10) {
	case 0:
		return rules.Encode(Move{Type: TypeMove, X: r.IntN(50) - 25, Y: r.IntN(30) - 15})
	case 1:
		return rules.Encode(Lock{Type: TypeLock})
	case 2:
		return rules.Encode(Unlock{Type: TypeUnlock})
	case 3:
		var vs []Vote
		for range r.IntN(n) {
			vs = append(vs, Vote{Seat: seat(), Number: num()})
		}
		return rules.Encode(CastVotes{Type: TypeVote, Votes: vs})
	case 4:
		return rules.Encode(BallotSet{Type: TypeBallotSet, Seat: seat(), Number: num(), Suggest: r.IntN(2) == 0})
	case 5:
		return rules.Encode(Approve{Type: TypeApprove, Rev: r.IntN(4)})
	case 6:
		return rules.Encode(Unapprove{Type: TypeUnapprove})
	case 7:
		return rules.Encode(Continue{Type: TypeContinue})
	case 8:
		return json.RawMessage(`{"type":"move","x":"1"}`)
	}
	return json.RawMessage(fmt.Sprintf(`{"type":%q}`, []string{"", "vote", "x", "ballot_set"}[r.IntN(4)]))
}

// checkView decodes every seat's view strictly and checks it shows no secret it may not.
func checkView(t *testing.T, g *Game, seat int) View {
	t.Helper()
	raw, err := json.Marshal(g.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	var v View
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("view of seat %d: %v", seat, err)
	}
	if v.Reveal != nil {
		return v
	}
	// Before scoring: only the viewer's own number and own votes.
	own := 0
	if seat >= 0 {
		own = g.number[seat]
	}
	if v.MyNumber != own {
		t.Fatalf("seat %d sees number %d, holds %d", seat, v.MyNumber, own)
	}
	if seat < 0 && len(v.MyVotes) > 0 {
		t.Fatal("the spectator sees votes")
	}
	for _, mv := range v.MyVotes {
		if seat < 0 || g.votes[seat] == nil || g.votes[seat][mv.Seat] != mv.Number {
			t.Fatalf("seat %d sees a vote that is not its own: %+v", seat, mv)
		}
	}
	mayBallot := g.team && seat >= 0 && g.teamOf[seat] != g.active && g.phase == PhaseTeamVote
	if v.Ballot != nil && !mayBallot {
		t.Fatalf("seat %d (phase %s) sees the team ballot", seat, g.phase)
	}
	// Every log line must come from an entry this viewer may see: public, its own, or
	// its team's (the team ballot's lines reach only the team that edits it).
	for _, line := range v.Log {
		ok := false
		for _, e := range g.log {
			if e.text == line && ((e.seat == -1 && e.team == -1) || (seat >= 0 && e.seat == seat) ||
				(seat >= 0 && g.team && e.team == g.teamOf[seat])) {
				ok = true
			}
		}
		if !ok {
			t.Fatalf("seat %d sees a log line that is not for it: %q", seat, line)
		}
		if strings.Contains(line, " put ") && (seat < 0 || !g.team) {
			t.Fatalf("seat %d sees the team ballot in the log: %q", seat, line)
		}
	}
	return v
}

// checkInvariants checks the state after every step.
func checkInvariants(t *testing.T, g *Game, prev []int) []int {
	t.Helper()
	seen := map[int]bool{}
	for _, p := range g.players {
		n := g.number[p]
		if n < 1 || n > len(g.players) || seen[n] {
			t.Fatalf("numbers %v are not a permutation", g.number)
		}
		seen[n] = true
		if !g.pos[p].OnBoard() {
			t.Fatalf("token off the board: %+v", g.pos[p])
		}
	}
	// The team ballot never holds a number twice, and every written line says who wrote it.
	onBallot := map[int]bool{}
	for _, p := range g.players {
		n := g.ballot[p]
		if n != 0 && onBallot[n] {
			t.Fatalf("the team ballot gives %d twice: %v", n, g.ballot)
		}
		onBallot[n] = n != 0
		if (g.edited[p] || g.suggested[p]) != (g.ballotBy[p] != NoSeat) || (g.edited[p] && g.suggested[p]) {
			t.Fatalf("ballot line of seat %d: by %d edited %v suggested %v", p, g.ballotBy[p], g.edited[p], g.suggested[p])
		}
	}
	if len(g.words) != len(g.players) || g.round < 1 || g.round > g.rounds {
		t.Fatalf("round %d with %d words for %d players", g.round, len(g.words), len(g.players))
	}
	scores := g.seatScores()
	sum := 0
	for s := range scores {
		if prev != nil && scores[s] < prev[s] {
			t.Fatalf("score went down: %v -> %v", prev, scores)
		}
		sum += scores[s]
	}
	if !g.team && sum%2 != 0 {
		t.Fatalf("competitive scores %v: every right vote scores 2 in all", scores)
	}
	return scores
}

// playGame plays one whole game with bots on every seat; with noise, random actions are
// mixed in. It returns the number of steps and fails if a bot's action is refused.
func playGame(t *testing.T, seed uint64, n int, opts rules.Options, noise bool, checkViews bool) *Game {
	t.Helper()
	o, err := Spec.CheckOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(rules.Setup{Names: names(n), Seed: seed, Options: o, Content: testContent(), Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 99))
	bots := make([]rules.Bot, n)
	for s := range bots {
		bots[s] = Spec.NewBot(rules.BotSetup{Seat: s, Seed: seed + uint64(s)})
	}
	now := t0
	var prev []int
	lastKey := ""
	for step := 0; !g.over; step++ {
		if step > 20000 {
			t.Fatalf("seed %d: game did not end (round %d phase %s)", seed, g.round, g.phase)
		}
		now = now.Add(250 * time.Millisecond)
		g.Tick(now)
		for s := range n {
			if g.over {
				break
			}
			if noise && r.IntN(4) == 0 {
				// Snapshots are costly: compare them on a sample of the random actions.
				seat, a, check := r.IntN(n+2)-1, garbage(r, n), checkViews && r.IntN(8) == 0
				before := ""
				if check {
					before = snapshot(t, g)
				}
				if err := g.Apply(seat, a, now); err != nil && check && snapshot(t, g) != before {
					t.Fatalf("state changed after error %v", err)
				}
				continue
			}
			a := bots[s].Act(g.View(s), now)
			if a == nil {
				continue
			}
			if err := g.Apply(s, rules.Encode(a), now); err != nil && !noise {
				t.Fatalf("seed %d: bot %d action %+v refused: %v", seed, s, a, err)
			}
		}
		prev = checkInvariants(t, g, prev)
		// Decoding every view is the slow part under -race: do it at every phase change
		// and on every 20th step in between.
		key := fmt.Sprint(g.round, g.phase)
		if checkViews && (key != lastKey || step%20 == 0) {
			lastKey = key
			for seat := -1; seat < n; seat++ {
				checkView(t, g, seat)
			}
		}
	}
	return g
}

func TestBotsFinishGames(t *testing.T) {
	for i, n := range []int{4, 5, 6, 7, 8, 9, 11, 14} {
		mode := ModeCompetitive
		if n >= TeamMin {
			mode = ModeTeam
		}
		g := playGame(t, uint64(100+i), n, untimed(mode), false, false)
		res, over := g.Outcome()
		if !over || len(res.Winners) == 0 || res.Summary == "" {
			t.Fatalf("%d players: %+v", n, res)
		}
	}
}

func TestRandomPlayKeepsSecrets(t *testing.T) {
	games := 11
	if testing.Short() {
		games = 4
	}
	for i := range games {
		n := 4 + i%11
		mode := ModeCompetitive
		if n >= TeamMin {
			mode = ModeTeam
		}
		opts := rules.Options{OptMode: mode, OptPlacement: []string{"off", "30s"}[i%2], OptVoting: []string{"30s", "off"}[i%2]}
		playGame(t, uint64(i), n, opts, true, true)
	}
}

func TestSameSeedSameGame(t *testing.T) {
	run := func() string {
		g := playGame(t, 42, 9, untimed(ModeTeam), true, false)
		return snapshot(t, g)
	}
	if a, b := run(), run(); a != b {
		t.Fatal("same seed and actions gave different games")
	}
	o, _ := Spec.CheckOptions(nil)
	g1, _ := New(rules.Setup{Names: names(5), Seed: 1, Options: o, Content: testContent()})
	g2, _ := New(rules.Setup{Names: names(5), Seed: 2, Options: o, Content: testContent()})
	if snapshot(t, g1) == snapshot(t, g2) {
		t.Fatal("different seeds dealt the same game")
	}
}

func FuzzApply(f *testing.F) {
	f.Add(0, []byte(`{"type":"move","x":3,"y":-2}`), uint8(0))
	f.Add(1, []byte(`{"type":"lock"}`), uint8(1))
	f.Add(2, []byte(`{"type":"vote","votes":[{"seat":0,"number":1}]}`), uint8(2))
	f.Add(3, []byte(`{"type":"ballot_set","seat":0,"number":2}`), uint8(3))
	f.Add(-1, []byte(`{"type":"approve","rev":1}`), uint8(3))
	f.Add(9, []byte(`{"type":"continue"}`), uint8(4))
	f.Add(1, []byte(`{"type":"unapprove"}`), uint8(3))
	f.Add(0, []byte(`{"type":"vote","votes":null}`), uint8(1))
	f.Add(0, []byte(`[1,2]`), uint8(0))
	f.Fuzz(func(t *testing.T, seat int, raw []byte, stage uint8) {
		mode := ModeCompetitive
		n := 5
		if stage%2 == 1 {
			mode, n = ModeTeam, 9
		}
		g := newGame(t, n, untimed(mode))
		switch stage % 5 {
		case 1:
			atVoting(t, g)
		case 3, 4:
			atTeamVote(t, g)
		}
		before := snapshot(t, g)
		if err := g.Apply(seat, raw, t0); err != nil && snapshot(t, g) != before {
			t.Fatalf("state changed after error %v", err)
		}
		for s := -1; s < n; s++ {
			if _, err := json.Marshal(g.View(s)); err != nil {
				t.Fatal(err)
			}
		}
	})
}
