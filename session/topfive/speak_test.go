package topfive

import (
	"reflect"
	"testing"

	"parlor/rules"
	"parlor/rules/topfive"
	"parlor/session/gameui"
)

func guesserView() topfive.View {
	return topfive.View{
		Header: rules.Header{Game: topfive.ID, Seat: 1, Round: 1, Rounds: 3, Phase: topfive.PhaseRanking},
		Names:  []string{"Ann", "Ben", "Cat"}, Role: topfive.RoleGuesser, Honour: 0,
		Topics: []string{"Tea", "Rain", "Jazz", "Chess", "Soup"}, Ready: []bool{false, false, false},
	}
}

// A Guesser chooses the topics from rank 1 down (the last goes by itself), then the
// marker among them, and sends the same rank action the screen sends.
func TestSpeakerBuildsTheRankAction(t *testing.T) {
	f, ok := gameui.LookupSpeaker(topfive.ID)
	if !ok {
		t.Fatal("no speaker registered for Top Five")
	}
	s := f(1)
	s.SetView(guesserView())
	for _, pick := range []int{3, 1, 3, 1} { // Jazz, Tea, Soup, Rain; Chess is left
		a := s.Ask()
		if !a.Asking() || len(a.Choices) < 2 {
			t.Fatalf("ask = %+v", a)
		}
		if act, err := s.Answer(pick, ""); act != nil || err != nil {
			t.Fatalf("a step of the ranking answered %v, %v", act, err)
		}
	}
	a := s.Ask()
	want := []string{"Jazz (your rank 1)", "Tea (your rank 2)", "Soup (your rank 3)", "Rain (your rank 4)", "Chess (your rank 5)"}
	if !reflect.DeepEqual(a.Choices, want) {
		t.Fatalf("marker choices = %q, want %q", a.Choices, want)
	}
	if _, err := s.Answer(6, ""); err == nil {
		t.Fatal("choice 6 of 5 was taken")
	}
	act, err := s.Answer(2, "")
	if err != nil {
		t.Fatal(err)
	}
	marker := 0
	if got, want := act, (topfive.Rank{Type: topfive.TypeRank, Ranks: []int{2, 4, 1, 5, 3}, Marker: &marker}); !reflect.DeepEqual(got, want) {
		t.Fatalf("action = %+v, want %+v", got, want)
	}
}

// Each reveal step says who said what, beside the game's own line about the topic.
func TestSpeakerSaysTheGuessesOfEachRevealStep(t *testing.T) {
	s := &speaker{}
	v := guesserView()
	s.SetView(v)
	v.Phase = topfive.PhaseReveal
	v.Reveal = []topfive.Row{{Rank: 5, Topic: 4, Guesses: []topfive.Guess{{Seat: 1, Rank: 5, Right: true, Marker: true, Points: 2}, {Seat: 2, Rank: 3}}}}
	s.SetView(v)
	if got, want := s.Events(), []string{"Ben said 5, right, with the marker; Cat said 3."}; !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %q, want %q", got, want)
	}
	s.SetView(v)
	if got := s.Events(); got != nil {
		t.Fatalf("the same view again: %q", got)
	}
}
