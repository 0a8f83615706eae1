package talltale

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"parlor/rules"
)

// plainStory reports a character of story that is no letter, space or plain punctuation
// (a glyph would give the illustrations away).
func plainStory(story string) (rune, bool) {
	for _, r := range story {
		if !unicode.IsLetter(r) && !unicode.IsSpace(r) && !strings.ContainsRune(".,!?'-:;", r) {
			return r, false
		}
	}
	return 0, true
}

// TestBotStoriesAndRaces plays seeded all-bot games of 3 to 6 players through the
// bots' own actions: every bot story is plain words with no forbidden form of its
// illustrations, and in at most 40% of the rounds do more than two bot racers find all
// three (the narrator then scores nothing).
func TestBotStoriesAndRaces(t *testing.T) {
	games := 24
	if testing.Short() {
		games = 8
	}
	rounds, spoiled, someone, found, placed := 0, 0, 0, 0, 0
	for game := range games {
		players := 3 + game%4
		seed := uint64(500 + game)
		g := newGame(t, players, seed, rules.Options{})
		bots := make([]*Bot, players)
		for s := range bots {
			bots[s] = NewBot(rules.BotSetup{Seat: s, Seed: seed*10 + uint64(s), Content: content(t)})
		}
		now := t0
		for step := 0; !g.over; step++ {
			if step > 20000 {
				t.Fatalf("seed %d: the game did not end", seed)
			}
			now = now.Add(time.Second)
			g.Tick(now)
			if g.phase == PhaseReveal && len(g.kept) == 3 && g.story != "" {
				// Count each round once, when its reveal opens.
				rounds++
				perfect := 0
				for _, s := range g.othersThan(g.narrator) {
					n := 0
					for _, id := range g.tokensOf(s) {
						if slices.Contains(g.kept, id) {
							n++
						}
					}
					found += n
					placed += 3
					if n == 3 {
						perfect++
					}
				}
				if perfect > 2 {
					spoiled++
				}
				if perfect > 0 {
					someone++
				}
				g.story = "" // counted
			}
			for s, b := range bots {
				a := b.Act(g.View(s), now)
				if a == nil {
					continue
				}
				if st, ok := a.(Story); ok {
					if uses := ForbiddenIn(st.Text, g.keptIllustrations()); len(uses) > 0 {
						t.Fatalf("story %q holds a forbidden word", st.Text)
					}
					if r, ok := plainStory(st.Text); !ok {
						t.Fatalf("story %q holds %q", st.Text, r)
					}
					if n := Sentences(st.Text); n > 2 {
						t.Fatalf("story %q has %d sentences", st.Text, n)
					}
				}
				if err := g.Apply(s, act(a), now); err != nil {
					t.Fatalf("seed %d: bot %d %+v: %v", seed, s, a, err)
				}
			}
		}
	}
	rate := float64(spoiled) / float64(rounds)
	t.Logf("%d rounds: someone found all three in %.0f%%, more than two racers in %.0f%%; racers found %.0f%% of the illustrations",
		rounds, 100*float64(someone)/float64(rounds), 100*rate, 100*float64(found)/float64(placed))
	if rate > 0.40 {
		t.Fatalf("more than two racers found all three in %.0f%% of the rounds, want at most 40%%", 100*rate)
	}
	if found == 0 {
		t.Fatal("the racers never found anything")
	}
}

// humanStories are stories people told for three illustrations, naming none of them.
var humanStories = []struct {
	story string
	kept  [3]string
}{
	{"On Valentine's day he gave her a bouquet full of thorns, then cooked a dinner so spicy she cried.", [3]string{"heart", "rose", "chili"}},
	{"We missed the last stop, so we paid a huge fare to get home, and the next morning the engine of the family motor would not start.", [3]string{"bus", "taxi", "car"}},
	{"Far out in the ocean a giant blew a spout, a playful swimmer leapt beside it, and on the ice something in a tuxedo waddled by.", [3]string{"whale", "dolphin", "penguin"}},
	{"That night the astronaut gazed at the crescent and made a wish on something twinkling, while a wise hooter watched from the barn.", [3]string{"moon", "star", "owl"}},
	{"The teacher got a crunchy treat from the orchard, then ate a slice of pepperoni with a chunk of cheddar.", [3]string{"apple", "pizza", "cheese"}},
	{"The knight saw smoke over the hills, a scaly beast guarding its treasure, and a jewelled thing fit for a king.", [3]string{"fire", "dragon", "crown"}},
	{"Something buzzing flew out of the hive, got stuck in the golden jar, and a quacking friend laughed at it from the pond.", [3]string{"bee", "honey", "duck"}},
	{"In the swamp a prince once croaked, something hissed in the reeds, and huge jaws snapped shut.", [3]string{"frog", "snake", "crocodile"}},
	{"The singer strummed a chord, the line rang and rang, and a metal machine answered in a beeping voice.", [3]string{"guitar", "telephone", "robot"}},
	{"It started to drizzle from a grey sky, so I opened my shelter, but one wet splash still landed on my nose.", [3]string{"cloud", "umbrella", "drop"}},
	{"The monkey peeled its snack, squeezed something sour into the juice, and finished with a spiky tropical fruit from Hawaii.", [3]string{"banana", "lemon", "pineapple"}},
	{"On the safari the king of the jungle roared, a long neck reached the treetops, and the bright summer heat beat down.", [3]string{"lion", "giraffe", "sun"}},
	{"We hiked to the summit, pitched our canvas shelter and slept at the campsite under a big oak.", [3]string{"mountain", "tent", "tree"}},
	{"The captain rowed across the harbour to the dock, dropped the heavy chain, and watched the surf crash on the beach.", [3]string{"boat", "anchor", "wave"}},
	{"I found a message in a corked container, needed my reading lenses to see it, and then had to unlock the old door.", [3]string{"bottle", "glasses", "key"}},
	{"At the birthday party we blew out the candles on the frosting, popped the helium toy, and heard the church chime at midnight.", [3]string{"cake", "balloon", "bell"}},
	{"For the picnic we had ketchup on everything, berries with cream, and a big juicy slice full of black seeds.", [3]string{"tomato", "strawberry", "watermelon"}},
	{"During the blizzard my fingers froze even in wool, and my toes were soaked inside my shoes.", [3]string{"snowflake", "glove", "sock"}},
	{"He pedalled to town with a wide brim on his head and spent all his coins until his wallet was empty.", [3]string{"bike", "hat", "money"}},
	{"The hungry crawler munched its way through the garden plants, spun a cocoon and flew off on colourful wings.", [3]string{"caterpillar", "butterfly", "leaf"}},
	{"The pilot flew on through the storm as thunder cracked and flashes lit the grey sky.", [3]string{"airplane", "lightning", "cloud"}},
	{"Deep underwater the periscope rose past swimming fins and gills, near a spiral treasure from the beach.", [3]string{"submarine", "fish", "shell"}},
	{"A little spotted beetle brought me luck, sitting on a lucky Irish plant beside a juicy orchard fruit.", [3]string{"ladybug", "clover", "pear"}},
}

// TestBotsReadPeoplesStories: from stories people wrote, bot racers (five different
// bots per story) find at least two of the three illustrations 60% of the time or more.
func TestBotsReadPeoplesStories(t *testing.T) {
	deck, err := ParseIllustrations(content(t)[ContentFile])
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Illustration{}
	for _, ill := range deck {
		byName[ill.Name] = ill
	}
	if len(humanStories) < 20 {
		t.Fatalf("only %d stories", len(humanStories))
	}
	good, all := 0, 0
	for _, h := range humanStories {
		var kept []Illustration
		colours := map[string]bool{}
		for _, n := range h.kept {
			ill, ok := byName[n]
			if !ok {
				t.Fatalf("no illustration %q", n)
			}
			if f, bad := FindForbidden(h.story, ill.Forbidden); bad {
				t.Fatalf("story %q names %q", h.story, f)
			}
			kept = append(kept, ill)
			colours[ill.Colour] = true
		}
		v := View{Story: h.story}
		for _, c := range Colours {
			if colours[c] {
				b := Board{Colour: c}
				for _, ill := range deck {
					if ill.Colour == c {
						b.Illustrations = append(b.Illustrations, ill)
					}
				}
				v.Boards = append(v.Boards, b)
			}
		}
		for seed := uint64(1); seed <= 5; seed++ {
			b := NewBot(rules.BotSetup{Seat: 1, Seed: seed, Content: content(t)})
			mine := View{Story: v.Story, Boards: v.Boards}
			n := 0
			for range 3 {
				id, ok := b.guess(mine)
				if !ok {
					t.Fatal("no guess")
				}
				mine.MyTokens = append(mine.MyTokens, id)
				if slices.ContainsFunc(kept, func(k Illustration) bool { return k.ID == id }) {
					n++
				}
			}
			if n >= 2 {
				good++
			} else if seed == 1 {
				var got []string
				for _, id := range mine.MyTokens {
					got = append(got, deck[id].Name)
				}
				t.Logf("%q: bot 1 chose %v", h.story, got)
			}
			all++
		}
	}
	rate := float64(good) / float64(all)
	t.Logf("bots found two or three of the illustrations of people's stories %.0f%% of the time", 100*rate)
	if rate < 0.60 {
		t.Fatalf("bots found at least two of three %.0f%% of the time, want at least 60%%", 100*rate)
	}
}
