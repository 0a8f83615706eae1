package quadrant

import (
	"math/rand/v2"
	"testing"

	"parlor/internal/testkit/contenttest"
	"parlor/rules"
	"parlor/rules/meaning"
)

// realContent is the embedded decks and their annotations.
func realContent(t testing.TB) map[string][]byte {
	return contenttest.Load(t, Spec.Content...)
}

// judgedPairs are judgements a person makes without looking at the annotations: the
// first word is more of the criterion than the second.
var judgedPairs = []struct{ more, less, criterion string }{
	{"luxury watch", "fruit yogurt", "Expensive"},
	{"lawn mower", "hammock", "Noisy"},
	{"haunted house", "teddy bear", "Scary"},
	{"chainsaw", "wool socks", "Dangerous"},
	{"wedding cake", "tax return", "Romantic"},
	{"snow globe", "frying pan", "Fragile"},
	{"grand piano", "harmonica", "Heavy"},
	{"typewriter", "solar panel", "Old-fashioned"},
	{"avocado toast", "rocking chair", "Trendy"},
	{"hot tub", "leaf blower", "Relaxing"},
	{"chocolate fondue", "paper clip", "Messy"},
	{"tuxedo", "flip-flops", "Elegant"},
	{"maple syrup", "pebble", "Sticky"},
	{"fireplace", "traffic cone", "Cosy"},
	{"rubber duck", "tax return", "Childish"},
	{"pocket knife", "disco ball", "Useful on a desert island"},
	{"perfume bottle", "blue cheese", "Smells good"},
	{"blue cheese", "sparkling water", "Smelly"},
	{"crown", "paper clip", "Luxurious"},
	{"toolbox", "tiara", "Practical"},
	{"jack-in-the-box", "stapler", "Weird"},
	{"teddy bear", "chainsaw", "Cute"},
	{"waiting room", "roller coaster", "Boring"},
	{"jet ski", "crossword puzzle", "Exciting"},
	{"herbal tea", "energy drink", "Calming for the nerves"},
	{"smoke alarm", "houseplant", "Loud at night"},
	{"double-decker bus", "postcard", "Hard to park"},
	{"paper clip", "grand piano", "Easy to lose"},
	{"wind turbine", "monster truck", "Good for the planet"},
	{"skateboard", "bathrobe", "Sporty"},
	{"microscope", "beanbag chair", "Geeky"},
	{"violin", "snow shovel", "Artistic"},
	{"magic wand", "calculator", "Magical"},
	{"castle", "vending machine", "Belongs in a museum"},
	{"toy robot", "rolling pin", "Needs batteries"},
	{"rocking chair", "skateboard", "Typical of grandparents"},
	{"karaoke machine", "tax return", "Fun at a party"},
	{"sled", "barbecue grill", "Wintry"},
	{"swimming pool", "earmuffs", "Summery"},
	{"birthday cake", "parking meter", "Festive"},
	{"crystal ball", "toothbrush", "Mysterious"},
	{"trampoline", "encyclopedia", "Bouncy"},
	{"skyscraper", "flower pot", "Takes a lot of space"},
	{"bonsai tree", "microwave popcorn", "Takes a long time"},
	{"treasure chest", "doormat", "Good in a fairy tale"},
	{"love letter", "stapler", "Sentimental"},
	{"roller coaster", "library card", "Risky"},
	{"yoga mat", "instant noodles", "Healthy"},
}

// TestBotsPlaceLikePeopleJudge: on the hand-judged pairs, bots of normal skill place
// the first word further along the criterion's axis than the second at least 85% of
// the time (the hash-based bots agreed about half the time).
func TestBotsPlaceLikePeopleJudge(t *testing.T) {
	content := realContent(t)
	if len(judgedPairs) < 40 {
		t.Fatalf("only %d judged pairs", len(judgedPairs))
	}
	agree, total := 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		j := NewJudge(content, meaning.NewTemperament(rules.SkillNormal, seed))
		for _, p := range judgedPairs {
			for _, w := range []string{p.more, p.less} {
				if _, ok := j.entry(j.words, w); !ok {
					t.Fatalf("%q is not an annotated word", w)
				}
			}
			a := j.Spot(p.more, "umbrella", p.criterion, "Heavy")
			b := j.Spot(p.less, "umbrella", p.criterion, "Heavy")
			if a.X > b.X {
				agree++
			} else if seed == 1 {
				t.Logf("bot 1 disagrees: %s %v, %s %v on %s", p.more, a, p.less, b, p.criterion)
			}
			total++
		}
	}
	rate := float64(agree) / float64(total)
	t.Logf("placements agree with the judged pairs %.0f%% of the time", 100*rate)
	if rate < 0.85 {
		t.Fatalf("placements agree with people %.0f%% of the time, want at least 85%%", 100*rate)
	}
}

// voteAccuracy plays games of n seats with the real decks: every bot places its word
// where its Judge says and votes by its Judge, through the game's own actions; it
// returns the share of right votes.
func voteAccuracy(t *testing.T, n, games int, skill string) float64 {
	content := realContent(t)
	o, err := Spec.CheckOptions(rules.Options{OptMode: ModeCompetitive, rules.OptBots: skill})
	if err != nil {
		t.Fatal(err)
	}
	right, all := 0, 0
	for game := range games {
		seed := uint64(1000*n + game)
		g, err := New(rules.Setup{Names: names(n), Seed: seed, Options: o, Content: content, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]*Bot, n)
		r := rand.New(rand.NewPCG(seed, 5))
		for s := range bots {
			bots[s] = NewBot(rules.BotSetup{Seat: s, Seed: r.Uint64(), Options: o, Content: content})
		}
		for !g.over {
			switch g.phase {
			case PhasePlacement:
				for s, b := range bots {
					v, _ := rules.ViewAs[View](g.View(s))
					p := b.judge.Spot(v.Words[v.MyNumber-1], v.Reference, v.Horizontal, v.Vertical)
					act(t, g, s, Move{Type: TypeMove, X: p.X, Y: p.Y})
					act(t, g, s, Lock{Type: TypeLock})
				}
			case PhaseVoting:
				for s, b := range bots {
					v, _ := rules.ViewAs[View](g.View(s))
					votes := b.guess(v, v.MyNumber)
					for _, vote := range votes {
						if g.number[vote.Seat] == vote.Number {
							right++
						}
						all++
					}
					act(t, g, s, CastVotes{Type: TypeVote, Votes: votes})
				}
			case PhaseScoring:
				for s := range bots {
					if !g.done[s] {
						act(t, g, s, Continue{Type: TypeContinue})
					}
				}
			default:
				t.Fatalf("unexpected phase %s", g.phase)
			}
		}
	}
	return float64(right) / float64(all)
}

// TestBotVoteAccuracy: all-bot games of 4 to 7 players read each other's tokens well but
// not telepathically: between 35% and 85% of the votes are right at every size.
func TestBotVoteAccuracy(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 40
	}
	for n := CompetitiveMin; n <= CompetitiveMax; n++ {
		acc := voteAccuracy(t, n, games, rules.SkillNormal)
		t.Logf("%d players, %d games: %.0f%% of bot votes right", n, games, 100*acc)
		if acc < 0.35 || acc > 0.85 {
			t.Errorf("%d players: %.0f%% of bot votes right, want 35%% to 85%%", n, 100*acc)
		}
	}
}

// TestBotSkillShows: sharp bots read each other better than easy ones.
func TestBotSkillShows(t *testing.T) {
	easy, sharp := voteAccuracy(t, 5, 40, rules.SkillEasy), voteAccuracy(t, 5, 40, rules.SkillSharp)
	t.Logf("5 players: easy %.0f%%, sharp %.0f%%", 100*easy, 100*sharp)
	if sharp <= easy {
		t.Fatalf("sharp bots (%.0f%%) read no better than easy ones (%.0f%%)", 100*sharp, 100*easy)
	}
}

func TestAssignFindsTheCheapestMatching(t *testing.T) {
	// Token 0 is nearest word 0, but token 1 can only go there cheaply: the total wins.
	c := [][]float64{{1, 2}, {1, 10}}
	got := assign(2, 2, func(t, w int) float64 { return c[t][w] })
	if got[0] != 1 || got[1] != 0 {
		t.Fatalf("assign = %v, want [1 0]", got)
	}
	if got := assign(3, 2, func(t, w int) float64 { return 1 }); got[2] != -1 && got[0] != -1 && got[1] != -1 {
		t.Fatalf("three tokens got two words: %v", got)
	}
}

func TestJudgeWithoutAnnotations(t *testing.T) {
	j := NewJudge(testContent(), meaning.NewTemperament(rules.SkillNormal, 1))
	if p := j.Spot("word 1", "word 2", "criterion 1", "criterion 2"); !p.OnBoard() {
		t.Fatalf("off the board: %+v", p)
	}
	if j.Spot("word 1", "word 1", "criterion 1", "criterion 2") != (Point{}) {
		t.Fatal("the reference word itself is not at the centre")
	}
}
