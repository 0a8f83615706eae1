package topfive

import (
	"testing"
	"time"

	"parlor/internal/testkit/contenttest"
	"parlor/rules"
	"parlor/rules/meaning"
)

// realContent is the embedded decks and their annotations.
func realContent(t testing.TB) map[string][]byte {
	return contenttest.Load(t, Spec.Content...)
}

// rightPerRound plays all-bot games of n players (through the bots' own actions) and
// returns, per round, the Guessers' right ranks summed over the games.
func rightPerRound(t *testing.T, n, games int) []int {
	content := realContent(t)
	o, err := Spec.CheckOptions(rules.Options{OptPace: "1s", OptTimer: "off"})
	if err != nil {
		t.Fatal(err)
	}
	var right []int
	for game := range games {
		seed := uint64(7000 + 10*n + game)
		g, err := New(rules.Setup{Names: seatNames(n), Seed: seed, Options: o, Content: content, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]*Bot, n)
		for s := range bots {
			bots[s] = NewBot(rules.BotSetup{Seat: s, Seed: seed*31 + uint64(s), Options: o, Content: content})
		}
		counted := 0
		now := t0
		for step := 0; g.phase != PhaseOver; step++ {
			if step > 5000 {
				t.Fatal("the game did not end")
			}
			now = now.Add(time.Second)
			g.Tick(now)
			if v := view(g, rules.Spectator); g.phase == PhaseResults && g.round > counted {
				counted = g.round
				for len(right) < g.round {
					right = append(right, 0)
				}
				for _, row := range v.Reveal {
					for _, gs := range row.Guesses {
						if gs.Right {
							right[g.round-1]++
						}
					}
				}
			}
			for s, b := range bots {
				if a := b.Act(g.View(s), now); a != nil {
					mustApply(t, g, s, a, now)
				}
			}
		}
	}
	return right
}

// TestGuessersLearn: over 3- and 4-player games, where everyone is Player of Honour
// twice, bot Guessers get more ranks right in the second half of a game (when they have
// seen this Player of Honour's taste) than in the first.
func TestGuessersLearn(t *testing.T) {
	games := 150
	if testing.Short() {
		games = 60
	}
	for _, n := range []int{3, 4} {
		right := rightPerRound(t, n, games)
		first, second := 0, 0
		for r, c := range right {
			if r < len(right)/2 {
				first += c
			} else {
				second += c
			}
		}
		perRound := func(c int) float64 { return float64(c) / float64(games*len(right)/2*(n-1)) }
		t.Logf("%d players, %d games: right ranks per Guesser per round %.2f in the first half, %.2f in the second", n, games, perRound(first), perRound(second))
		if second <= first {
			t.Errorf("%d players: Guessers got %d ranks right in the first half and %d in the second: no learning", n, first, second)
		}
	}
}

func TestTasteLearnsARanking(t *testing.T) {
	outdoors := meaning.Values{}
	indoors := meaning.Values{}
	outdoors[index(t, "outdoor")] = 4
	indoors[index(t, "cosy")] = 4
	guess := ownTaste(1)
	// Someone who ranks the outdoors first, again and again.
	for range 3 {
		guess.learn([]meaning.Values{indoors, outdoors}, []int{2, 1})
	}
	if guess.like(outdoors) <= guess.like(indoors) {
		t.Fatal("the guess did not learn that they prefer the outdoors")
	}
}

func index(t *testing.T, name string) int {
	for i, a := range meaning.Attributes {
		if a.Name == name {
			return i
		}
	}
	t.Fatalf("no attribute %q", name)
	return -1
}
