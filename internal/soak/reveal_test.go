package soak

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"parlor/assets"
	"parlor/rules"
	"parlor/rules/fingertip"
	"parlor/rules/foresight"
	"parlor/rules/quadrant"
	"parlor/rules/talltale"
	"parlor/rules/topfive"
)

// played is one seat's view at the end of a round, with what the seat had sent.
type played struct {
	seat int
	view rules.View
	mine []*sent
}

// playChecked plays a game of spec with its bots alone, in the engine (no server), each
// seat's actions recorded as a soak player records them: ok or refused, and now and then
// one marked unanswered, applied or not. Every seat's view goes through JSON, as the API
// sends it, and through the game's reveal check after every change, once a round as the
// soak does; a failure is fatal. It stops at the game's end or once enough seats' rounds
// are checked, and returns each seat's first view of each checked round
// with the seat's actions as the engine answered them all (none unanswered).
func playChecked(t *testing.T, spec *rules.Spec, seed uint64, enough int) []played {
	t.Helper()
	content, err := assets.Load(spec.Content)
	if err != nil {
		t.Fatal(err)
	}
	least, _ := spec.PlayerRange(spec.Defaults())
	n := max(least, 4)
	names := make([]string, n)
	bots := make([]rules.Bot, n)
	for s := range n {
		names[s] = fmt.Sprintf("P%d", s)
		bots[s] = spec.NewBot(rules.BotSetup{Seat: s, Seed: seed + uint64(s), Options: spec.Defaults(), Content: content})
	}
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	g, err := spec.New(rules.Setup{Names: names, Seed: seed, Options: spec.Defaults(), Content: content, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 41))
	check := revealChecks[spec.ID]
	mine := make([][]*sent, n)
	truth := make([][]*sent, n) // the same actions, each ok or refused as the engine said
	checked := make([]map[int]bool, n)
	var out []played
	virtual := now
	viewOf := func(s int) rules.View {
		b, err := json.Marshal(g.View(s))
		if err != nil {
			t.Fatal(err)
		}
		v, err := spec.DecodeView(b)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	checkAll := func() {
		for s := range n {
			// The engine's own view says whether a round is to check; the check itself
			// reads the view as the API sends it.
			if round, _ := check(s, g.View(s), mine[s]); round == 0 || checked[s][round] {
				continue
			}
			v := viewOf(s)
			round, err := check(s, v, mine[s])
			if checked[s] == nil {
				checked[s] = map[int]bool{}
			}
			checked[s][round] = true
			if err != nil {
				t.Fatalf("seed %d, %s, seat %d: %v", seed, spec.ID, s, err)
			}
			out = append(out, played{seat: s, view: v, mine: append([]*sent(nil), truth[s]...)})
		}
	}
	for step := 0; step < 20000; step++ {
		if _, over := g.Outcome(); over || len(out) >= enough {
			return out
		}
		for s := range n {
			v := g.View(s)
			virtual = virtual.Add(time.Minute)
			a := bots[s].Act(v, virtual)
			if a == nil {
				continue
			}
			raw, err := json.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			rec := &sent{round: v.Head().Round, action: a}
			mine[s] = append(mine[s], rec)
			if rng.IntN(12) == 0 { // sent, never answered, never applied
				rec.done, rec.upTo = true, rec.round
				continue
			}
			rec.outcome = OK
			if err := g.Apply(s, raw, now); err != nil {
				rec.outcome = Refused
			}
			rec.done, rec.upTo = true, g.View(s).Head().Round
			truth[s] = append(truth[s], &sent{round: rec.round, upTo: rec.upTo, done: true, action: a, outcome: rec.outcome})
			if rec.outcome == OK && rng.IntN(12) == 0 { // applied, never answered
				rec.outcome = Unknown
			}
			if rec.outcome != Refused {
				checkAll()
			}
		}
		now = now.Add(time.Second)
		if g.Tick(now) {
			checkAll()
		}
	}
	t.Fatalf("seed %d: %s did not end", seed, spec.ID)
	return nil
}

// Every game's reveal check holds on what the engine really shows (bots playing whole
// games, some of their actions unanswered), checks rounds of every game, and fails on a
// view that shows another submission than the one acknowledged, or scores that do not
// follow from what it reveals.
func TestRevealChecksOnPlayedGames(t *testing.T) {
	// Each tampering changes a checked view as a lost action or a wrong score would; it
	// reports false when the view has nothing it can change.
	tamper := map[string][]struct {
		name string
		f    func(seat int, v rules.View) (rules.View, bool)
	}{
		topfive.ID: {
			{"a guess's rank", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(topfive.View)
				for i, row := range v.Reveal {
					for j, g := range row.Guesses {
						if g.Seat == seat && g.Rank > 0 {
							v.Reveal[i].Guesses[j].Rank = g.Rank%topfive.Hand + 1
							return v, true
						}
					}
				}
				return v, false
			}},
			{"the marker", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(topfive.View)
				for i, row := range v.Reveal {
					for j, g := range row.Guesses {
						if g.Seat == seat && g.Marker {
							v.Reveal[i].Guesses[j].Marker = false
							v.Reveal[(i+1)%len(v.Reveal)].Guesses[j].Marker = true
							return v, true
						}
					}
				}
				return v, false
			}},
			{"a line's points", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(topfive.View)
				v.Tally.Lines[seat].Points++
				return v, true
			}},
		},
		quadrant.ID: {
			{"the token", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(quadrant.View)
				for i, tk := range v.Tokens {
					if tk.Seat == seat {
						v.Tokens[i].X++
						return v, true
					}
				}
				return v, false
			}},
			{"a vote", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(quadrant.View)
				for i, vote := range v.Reveal.Votes {
					if vote.Voter == seat {
						v.Reveal.Votes = append(v.Reveal.Votes[:i:i], v.Reveal.Votes[i+1:]...)
						return v, true
					}
				}
				return v, false
			}},
			{"the points", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(quadrant.View)
				v.Reveal.Points[seat]++
				return v, true
			}},
		},
		fingertip.ID: {
			{"the finger", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(fingertip.View)
				for i, c := range v.Square {
					if c.Finger == seat {
						v.Square[i].Finger = -1
						return v, true
					}
				}
				return v, false
			}},
			{"the clue", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(fingertip.View)
				if v.LastTurn.Active != seat || v.LastTurn.Clue == "" {
					return v, false
				}
				v.LastTurn.Clue += " too"
				return v, true
			}},
			{"the cards taken", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(fingertip.View)
				v.LastTurn.Taken[seat]++
				return v, true
			}},
		},
		foresight.ID: {
			{"the answer", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(foresight.View)
				if v.Reveal.Players[seat].TimedOut {
					return v, false
				}
				v.Reveal.Players[seat].Answer = v.Reveal.Players[seat].Answer%len(v.Reveal.Choices) + 1
				return v, true
			}},
			{"a wager", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(foresight.View)
				if v.Reveal.Players[seat].TimedOut {
					return v, false
				}
				v.Reveal.Players[seat].Predictions[0].A += 25
				return v, true
			}},
			{"the change", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(foresight.View)
				v.Reveal.Players[seat].Change++
				return v, true
			}},
		},
		talltale.ID: {
			{"the story", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(talltale.View)
				if v.Reveal.Narrator != seat || v.Reveal.Story == "" {
					return v, false
				}
				v.Reveal.Story += " Then"
				return v, true
			}},
			{"a token", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(talltale.View)
				for i, tk := range v.Reveal.Tokens {
					if tk.Seat == seat {
						v.Reveal.Tokens = append(v.Reveal.Tokens[:i:i], v.Reveal.Tokens[i+1:]...)
						return v, true
					}
				}
				return v, false
			}},
			{"the points", func(seat int, view rules.View) (rules.View, bool) {
				v := view.(talltale.View)
				v.Reveal.Points[seat]++
				return v, true
			}},
		},
	}
	for _, spec := range games() {
		t.Run(spec.ID, func(t *testing.T) {
			var rounds []played
			for seed := uint64(1); seed <= 2; seed++ {
				rounds = append(rounds, playChecked(t, spec, seed, 24)...)
			}
			if len(rounds) < 10 {
				t.Fatalf("%d seats' rounds checked in two games, want at least 10", len(rounds))
			}
			for _, tc := range tamper[spec.ID] {
				caught, tried := 0, 0
				for _, r := range rounds {
					b, _ := json.Marshal(r.view)
					fresh, _ := spec.DecodeView(b) // a copy to change
					v, ok := tc.f(r.seat, fresh)
					if !ok {
						continue
					}
					tried++
					if _, err := revealChecks[spec.ID](r.seat, v, r.mine); err != nil {
						caught++
					} else {
						t.Errorf("%s changed in round %d for seat %d: the check saw nothing", tc.name, v.Head().Round, r.seat)
					}
				}
				if tried == 0 {
					t.Errorf("%s: no checked round to change", tc.name)
				}
				t.Logf("%s: %d rounds checked; %s changed in %d, caught in %d", spec.ID, len(rounds), tc.name, tried, caught)
			}
		})
	}
}

// The rule every game's check applies to a seat's submissions of a round: the last one
// acknowledged stands (one sent after it without an answer may stand instead); nothing
// only when none was acknowledged; refused ones and other rounds' never; an action whose
// round is not sure (sent on one round's view, answered in the next) may stand or not.
// Actions that add up (tokens) stand in the order sent, the unanswered ones optional.
func TestSubmissionRules(t *testing.T) {
	rank := func(round, upTo int, o Outcome, first int) *sent {
		return &sent{round: round, upTo: upTo, done: true, outcome: o,
			action: topfive.Rank{Type: topfive.TypeRank, Ranks: []int{first, 2, 3, 4, 5}}}
	}
	for _, tc := range []struct {
		name string
		mine []*sent
		got  int // the first rank the reveal shows; 0: nothing
		ok   bool
	}{
		{"the acknowledged one", []*sent{rank(2, 2, OK, 1)}, 1, true},
		{"another", []*sent{rank(2, 2, OK, 1)}, 9, false},
		{"an earlier one, replaced", []*sent{rank(2, 2, OK, 9), rank(2, 2, OK, 1)}, 9, false},
		{"an earlier round's", []*sent{rank(1, 1, OK, 1)}, 1, false},
		{"a refused one", []*sent{rank(2, 2, Refused, 1)}, 1, false},
		{"an unanswered one, applied", []*sent{rank(2, 2, Unknown, 1)}, 1, true},
		{"an unanswered one, not applied", []*sent{rank(2, 2, Unknown, 1)}, 0, true},
		{"an unanswered one after the acknowledged", []*sent{rank(2, 2, OK, 9), rank(2, 2, Unknown, 1)}, 1, true},
		{"acknowledged, then lost", []*sent{rank(2, 2, OK, 1)}, 0, false},
		{"sent on the last round's view, taken in this one", []*sent{rank(1, 2, OK, 1)}, 1, true},
		{"sent on the last round's view, taken in that one", []*sent{rank(1, 2, OK, 1)}, 0, true},
		{"sent in the last game, answered in this one's round, taken by it", []*sent{{round: 2, upTo: 2, done: true, carried: true, outcome: OK, action: topfive.Rank{Type: topfive.TypeRank, Ranks: []int{1, 2, 3, 4, 5}}}}, 1, true},
		{"sent in the last game, answered in this one's round, taken by the last", []*sent{{round: 2, upTo: 2, done: true, carried: true, outcome: OK, action: topfive.Rank{Type: topfive.TypeRank, Ranks: []int{1, 2, 3, 4, 5}}}}, 0, true},
		{"sent on this round's view, not yet settled", []*sent{{round: 2, outcome: OK, action: topfive.Rank{Type: topfive.TypeRank, Ranks: []int{1, 2, 3, 4, 5}}}}, 0, true},
	} {
		could, none := lastOf(actionsOf[topfive.Rank](tc.mine, 2, topfive.TypeRank))
		got := topfive.Rank{Type: topfive.TypeRank, Ranks: []int{tc.got, 2, 3, 4, 5}}
		eq := func(a, b topfive.Rank) bool { return slices.Equal(a.Ranks, b.Ranks) }
		if ok := oneOf(got, tc.got == 0, could, none, eq); ok != tc.ok {
			t.Errorf("%s: shown %d, the seat's %s: ok %v, want %v", tc.name, tc.got, sentAround(tc.mine, 2), ok, tc.ok)
		}
	}
	token := func(card int, ack bool) tried[int] { return tried[int]{a: card, ack: ack} }
	for _, tc := range []struct {
		name string
		sent []tried[int]
		got  []int
		ok   bool
	}{
		{"in order", []tried[int]{token(1, true), token(2, true)}, []int{1, 2}, true},
		{"out of order", []tried[int]{token(1, true), token(2, true)}, []int{2, 1}, false},
		{"one lost", []tried[int]{token(1, true), token(2, true)}, []int{1}, false},
		{"one more", []tried[int]{token(1, true)}, []int{1, 2}, false},
		{"an unanswered one, applied", []tried[int]{token(1, true), token(3, false), token(2, true)}, []int{1, 3, 2}, true},
		{"an unanswered one, not applied", []tried[int]{token(1, true), token(3, false), token(2, true)}, []int{1, 2}, true},
		{"an unanswered one, resent", []tried[int]{token(3, false), token(3, true)}, []int{3}, true},
		{"an unanswered one, out of its place", []tried[int]{token(1, true), token(3, false), token(2, true)}, []int{1, 2, 3}, false},
	} {
		if ok := seq(tc.sent, tc.got); ok != tc.ok {
			t.Errorf("%s: sent %s, shown %v: ok %v, want %v", tc.name, triedString(tc.sent), tc.got, ok, tc.ok)
		}
	}
}
