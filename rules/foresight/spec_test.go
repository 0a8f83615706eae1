package foresight

import (
	"strings"
	"testing"

	"parlor/rules"
)

// TestSpec: the game is registered with its options, and starts from the spec's defaults.
func TestSpec(t *testing.T) {
	sp, ok := rules.Lookup("foresight")
	if !ok || sp.MinPlayers != 2 || sp.MaxPlayers != 8 || sp.HowToPlay == "" || strings.Contains(sp.HowToPlay, "\n") {
		t.Fatalf("spec %+v", sp)
	}
	g, err := sp.New(rules.Setup{Names: names8[:4], Seed: 5, Options: sp.Defaults(),
		Content: map[string][]byte{QuestionsFile: testDeck(10, 5)}, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	v := g.View(0).(View)
	if v.Deadline != t0.Add(120e9) || v.RoundLimit != 0 || v.Target != TargetPoints {
		t.Fatalf("defaults: deadline %v limit %d", v.Deadline, v.RoundLimit)
	}
	for _, q := range g.(*Game).deck {
		if q.Deck != DeckFamily {
			t.Fatal("the default deck holds adult questions")
		}
	}
	if _, err := sp.CheckOptions(rules.Options{"rounds": "7"}); err == nil {
		t.Fatal("a round limit that is not a choice was accepted")
	}
	if b := sp.NewBot(rules.BotSetup{Seat: 1, Seed: 2}); b == nil {
		t.Fatal("no bot")
	}
}
