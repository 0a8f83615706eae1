package talltale

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"parlor/rules"
)

func TestInvalidActions(t *testing.T) {
	type step func(g *Game) // brings a fresh game to the phase under test
	discardPhase := func(g *Game) {}
	storyPhase := func(g *Game) {
		g.drawn = []int{3, 0, 1, 2}
		mustApply(t, g, g.narrator, Discard{Type: "discard", Card: 3})
	}
	racePhase := func(g *Game) {
		storyPhase(g)
		mustApply(t, g, g.narrator, Story{Type: "story", Text: "A tale."})
		r := g.othersThan(g.narrator)
		mustApply(t, g, r[0], Token{Type: "token", Card: 5})
		mustApply(t, g, r[0], Token{Type: "token", Card: 6})
		mustApply(t, g, r[0], Token{Type: "token", Card: 7})
		mustApply(t, g, r[1], Token{Type: "token", Card: 5})
	}
	revealPhase := func(g *Game) {
		racePhase(g)
		r := g.othersThan(g.narrator)
		mustApply(t, g, r[1], Token{Type: "token", Card: 6})
		mustApply(t, g, r[1], Token{Type: "token", Card: 7})
	}
	overPhase := func(g *Game) {
		finishRegular(g, []int{1, 2, 3})
	}
	narr := func(g *Game) int { return g.narrator }
	racer := func(i int) func(g *Game) int { return func(g *Game) int { return g.othersThan(g.narrator)[i] } }
	seat := func(s int) func(g *Game) int { return func(*Game) int { return s } }
	long := strings.Repeat("word ", 57) // 284 characters
	cases := []struct {
		name   string
		at     step
		seat   func(g *Game) int
		action string
		want   error
	}{
		{"spectator", discardPhase, seat(-1), `{"type":"discard","card":0}`, rules.ErrSpectator},
		{"seat too big", discardPhase, seat(3), `{"type":"discard","card":0}`, rules.ErrNoSuchSeat},
		{"seat negative", discardPhase, seat(-7), `{"type":"discard","card":0}`, rules.ErrNoSuchSeat},
		{"not json", discardPhase, narr, `discard`, rules.ErrBadAction},
		{"no type", discardPhase, narr, `{"card":1}`, rules.ErrBadAction},
		{"unknown type", discardPhase, narr, `{"type":"shout"}`, rules.ErrUnknownAction},
		{"unknown field", discardPhase, narr, `{"type":"discard","card":0,"x":1}`, rules.ErrBadAction},
		{"wrong field type", discardPhase, narr, `{"type":"discard","card":"a"}`, rules.ErrBadAction},
		{"discard by a guesser", discardPhase, racer(0), `{"type":"discard","card":0}`, ErrNotNarrator},
		{"discard not drawn", discardPhase, narr, `{"type":"discard","card":-1}`, ErrNotDrawn},
		{"story before discard", discardPhase, narr, `{"type":"story","text":"Hi."}`, ErrWrongPhase},
		{"token before story", storyPhase, racer(0), `{"type":"token","card":0}`, ErrWrongPhase},
		{"discard twice", storyPhase, narr, `{"type":"discard","card":0}`, ErrWrongPhase},
		{"story by a guesser", storyPhase, racer(1), `{"type":"story","text":"Hi."}`, ErrNotNarrator},
		{"empty story", storyPhase, narr, `{"type":"story","text":" \n\t "}`, ErrEmptyStory},
		{"story too long", storyPhase, narr, `{"type":"story","text":"` + long + `"}`, ErrStoryTooLong},
		{"three sentences", storyPhase, narr, `{"type":"story","text":"A cat. A dog. A bird."}`, ErrTooManySentence},
		{"forbidden word warned", storyPhase, narr, `{"type":"story","text":"An APPLE."}`, ErrForbiddenWord},
		{"narrator places a token", racePhase, narr, `{"type":"token","card":0}`, ErrNarratorRaces},
		{"token out of range", racePhase, racer(1), `{"type":"token","card":100}`, ErrNoSuchCard},
		{"token negative", racePhase, racer(1), `{"type":"token","card":-1}`, ErrNoSuchCard},
		{"token on a board set aside", racePhase, racer(1), `{"type":"token","card":30}`, ErrNotInPlay},
		{"two own tokens on one", racePhase, racer(1), `{"type":"token","card":5}`, ErrAlreadyHere},
		{"fourth token", racePhase, racer(0), `{"type":"token","card":8}`, ErrNoTokensLeft},
		{"story during the race", racePhase, narr, `{"type":"story","text":"Hi."}`, ErrWrongPhase},
		{"token during the reveal", revealPhase, racer(0), `{"type":"token","card":9}`, ErrWrongPhase},
		{"after the end", overPhase, seat(0), `{"type":"token","card":9}`, rules.ErrGameOver},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, 3, 9, nil)
			c.at(g)
			before := snapshot(t, g)
			err := g.Apply(c.seat(g), json.RawMessage(c.action), t0)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			// The game's own errors name it for the logs; those every game shares do not.
			own := !strings.HasPrefix(rules.ErrorCode(err), "rules.")
			if (own && !strings.HasPrefix(err.Error(), "talltale: ")) || len(err.Error()) < 15 {
				t.Errorf("error %q is not readable", err)
			}
			if snapshot(t, g) != before {
				t.Error("state changed after an error")
			}
		})
	}
}

func TestNewRejects(t *testing.T) {
	for _, n := range []int{0, 2, 7} {
		_, err := New(rules.Setup{Names: make([]string, n), Content: content(t)})
		if err == nil || !strings.Contains(err.Error(), "3 to 6 players") {
			t.Errorf("%d players: %v", n, err)
		}
	}
	if _, err := New(rules.Setup{Names: []string{"a", "b", "c"}}); !errors.Is(err, ErrContent) {
		t.Errorf("no content: %v", err)
	}
	if _, err := New(rules.Setup{Names: []string{"a", "b", "c"}, Content: content(t), Options: rules.Options{OptMode: "loud"}}); err == nil {
		t.Error("bad mode accepted")
	}
	spec, ok := rules.Lookup(ID)
	if !ok || spec.New == nil || spec.MinPlayers != 3 || spec.MaxPlayers != 6 {
		t.Fatalf("spec %+v", spec)
	}
	if _, err := spec.CheckOptions(rules.Options{OptTimer: "90s", OptMode: ModeStrict}); err != nil {
		t.Error(err)
	}
}
