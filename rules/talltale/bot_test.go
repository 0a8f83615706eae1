package talltale

import (
	"slices"
	"testing"
	"time"

	"parlor/rules"
)

func TestBotNarrator(t *testing.T) {
	g := newGame(t, 3, 12, nil)
	n := g.narrator
	g.drawn = []int{0, 30, 31, 32} // discarding the red one leaves one board
	b := NewBot(rules.BotSetup{Seat: n, Seed: 1, Content: content(t)})
	if a := b.Act(g.View(n), t0); a != nil {
		t.Fatalf("bot acted with no delay: %+v", a)
	}
	a := b.Act(g.View(n), t0.Add(5*time.Second))
	d, ok := a.(Discard)
	if !ok || d.Card != 0 {
		t.Fatalf("discard %+v", a)
	}
	mustApply(t, g, n, d)
	b.Act(g.View(n), t0.Add(5*time.Second))
	a = b.Act(g.View(n), t0.Add(20*time.Second))
	s, ok := a.(Story)
	if !ok || Sentences(s.Text) > 2 || len(s.Text) > MaxStory {
		t.Fatalf("story %+v", a)
	}
	if uses := ForbiddenIn(s.Text, g.keptIllustrations()); len(uses) > 0 {
		t.Fatalf("bot story %q has a forbidden word", s.Text)
	}
	mustApply(t, g, n, s)
	// Guessers never act for another seat or out of turn.
	if a := NewBot(rules.BotSetup{Seat: n, Seed: 2, Content: content(t)}).Act(g.View(n), t0.Add(time.Hour)); a != nil {
		t.Fatalf("narrator bot raced: %+v", a)
	}
}

func TestBotGuesserReadsStems(t *testing.T) {
	g := newGame(t, 3, 13, nil)
	g.drawn = []int{3, 0, 1, 2}
	mustApply(t, g, g.narrator, Discard{Type: "discard", Card: 3})
	// "Hearty" shares a stem with heart, "cherries" is a form of cherry, "foxy" with fox.
	mustApply(t, g, g.narrator, Story{Type: "story", Text: "A hearty foxy fellow ate the cherries.", Confirm: true})
	s := g.othersThan(g.narrator)[0]
	b := NewBot(rules.BotSetup{Seat: s, Seed: 3, Content: content(t)})
	var got []int
	now := t0
	for len(got) < 3 {
		now = now.Add(time.Second)
		if a := b.Act(g.View(s), now); a != nil {
			tok := a.(Token)
			mustApply(t, g, s, tok)
			got = append(got, tok.Card)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, []int{0, 6, 23}) {
		t.Fatalf("bot guessed %v", got)
	}
}

// Bots understand each other: a bot racer finds some of what a bot narrator hints at.
func TestBotsFindEachOther(t *testing.T) {
	g := newGame(t, 3, 14, nil)
	n := g.narrator
	g.drawn = []int{3, 0, 1, 2}
	nb := NewBot(rules.BotSetup{Seat: n, Seed: 4, Content: content(t)})
	now := t0
	for g.phase != PhaseRace {
		now = now.Add(time.Second)
		if a := nb.Act(g.View(n), now); a != nil {
			mustApply(t, g, n, a)
		}
	}
	s := g.othersThan(n)[0]
	gb := NewBot(rules.BotSetup{Seat: s, Seed: 5, Content: content(t)})
	for len(g.tokensOf(s)) < 3 {
		now = now.Add(time.Second)
		if a := gb.Act(g.View(s), now); a != nil {
			mustApply(t, g, s, a)
		}
	}
	found := 0
	for _, id := range g.tokensOf(s) {
		if slices.Contains(g.kept, id) {
			found++
		}
	}
	if found == 0 {
		t.Fatalf("story %q: guessed %v, kept %v", g.story, g.tokensOf(s), g.kept)
	}
}

// TestBotRacerReadsTheSameStoryAgain: a story told again (people do repeat themselves)
// over other illustrations is read afresh, not from the last reading, whose
// illustrations are no longer in play.
func TestBotRacerReadsTheSameStoryAgain(t *testing.T) {
	const story = "A hearty foxy fellow ate the cherries."
	var b *Bot
	now := t0
	for _, drawn := range [][]int{{3, 0, 1, 2}, {0, 30, 31, 32}} {
		g := newGame(t, 3, 13, nil)
		g.drawn = drawn
		mustApply(t, g, g.narrator, Discard{Type: "discard", Card: drawn[0]})
		mustApply(t, g, g.narrator, Story{Type: "story", Text: story, Confirm: true})
		s := g.othersThan(g.narrator)[0]
		if b == nil {
			b = NewBot(rules.BotSetup{Seat: s, Seed: 3, Content: content(t)})
		}
		placed := false
		for i := 0; i < 60 && !placed; i++ {
			now = now.Add(time.Second)
			if a := b.Act(g.View(s), now); a != nil {
				mustApply(t, g, s, a)
				placed = true
			}
		}
		if !placed {
			t.Fatalf("drawn %v: the bot never placed a token on a story it had read before", drawn)
		}
	}
}
