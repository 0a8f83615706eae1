package lobby_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"parlor/lobby"
	"parlor/rules"
	"parlor/rules/quadrant"
	"parlor/rules/topfive"
)

// The host can switch the table to another game between games, so that friends play
// several games at one table: the table's Game option. The new game's options start
// from its defaults (an option both games have keeps its value), packs that game cannot
// play leave the deck's choices, and a finished game makes way for the next.
func TestTheHostSwitchesTheTablesGame(t *testing.T) {
	l, lib := packLobby(t)
	a, err := l.Create(ann, topfive.ID, rules.Options{lobby.OptAway: lobby.AwayHost}, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	words := addPack(t, lib, ben.ID, "quadrant-words", "Wörter", "Apfel\nBaum\nHaus\nMaus\nTisch\nStuhl\n")
	if err := l.Share(ben, a.Code(), words); err == nil {
		t.Fatal("a Quadrant pack was shared with a Top Five table")
	}
	u := waitFor(t, a, "the game option", func(u lobby.Update) bool {
		return len(u.Table.Choices) > 0 && u.Table.Choices[0].Key == lobby.OptGame
	})
	if got := u.Table.Options[lobby.OptGame]; got != "Top Five" || !slices.Contains(u.Table.Choices[0].Choices, "Foresight") {
		t.Fatalf("game option %q, choices %q", got, u.Table.Choices[0].Choices)
	}
	if err := lobby.Run(b, lobby.SetOptions{Options: rules.Options{lobby.OptGame: "Foresight"}}); err == nil {
		t.Error("a player who is not the host switched the game")
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptGame: "Crossword"}}); err == nil || !strings.Contains(err.Error(), "Quadrant") {
		t.Errorf("an unknown game: %v", err)
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptGame: "Foresight"}}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, b, "Foresight", func(u lobby.Update) bool { return u.Table.Game == "foresight" })
	if u.Table.Options[lobby.OptGame] != "Foresight" || u.Table.Options["rounds"] == "" || u.Table.Options[lobby.OptAway] != lobby.AwayHost {
		t.Errorf("options after the switch: %v", u.Table.Options)
	}
	if said := u.Chat[len(u.Chat)-1].Text; !strings.Contains(said, "The host switched to Foresight; its options start at their defaults.") {
		t.Errorf("chat says %q", said)
	}

	// Quadrant takes the pack; a game is played and finishes; the next can be another.
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptGame: "Quadrant"}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, b, "Quadrant", func(u lobby.Update) bool { return u.Table.Game == quadrant.ID })
	if err := l.Share(ben, a.Code(), words); err != nil {
		t.Fatalf("sharing a Quadrant pack with a Quadrant table: %v", err)
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptGame: "Top Five"}}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, a, "Top Five", func(u lobby.Update) bool { return u.Table.Game == topfive.ID })
	if !chatSays(u, `Top Five cannot play the shared packs Wörter (Ben): they are no longer offered`) {
		t.Errorf("the chat does not say the pack went: %+v", u.Chat)
	}
	for _, c := range deckChoices(t, u) {
		if strings.Contains(c, "Wörter") {
			t.Errorf("Top Five offers the Quadrant pack: %q", deckChoices(t, u))
		}
	}
}

// A game that seats fewer players than are at the table is refused, with the way out.
func TestASwitchToAGameWithFewerSeatsIsRefused(t *testing.T) {
	l, _ := packLobby(t)
	a, err := l.Create(ann, quadrant.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	for range 6 {
		if err := lobby.Run(a, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	err = lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptGame: "Fingertip"}})
	if !errors.Is(err, lobby.ErrSeats) || !strings.Contains(err.Error(), "Fingertip seats at most 6 players and 7 are seated") {
		t.Fatalf("a switch to a smaller game: %v", err)
	}
}

// A game's own option of the same key as another game's is a different option: a switch
// does not carry its value (Tall Tale's narrator limit "off" is not Top Five's ranking
// limit). And a game that seats the players in another mode is switched to in that mode.
func TestASwitchCarriesOnlyTheOptionsEveryGameHas(t *testing.T) {
	l, _ := packLobby(t)
	a, err := l.Create(ann, "talltale", rules.Options{"timer": "off", rules.OptBots: rules.SkillSharp}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptGame: "Top Five"}}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a, "Top Five", func(u lobby.Update) bool { return u.Table.Game == topfive.ID })
	if u.Table.Options["timer"] != "90s" || u.Table.Options[rules.OptBots] != rules.SkillSharp {
		t.Errorf("Top Five's options after Tall Tale's: %v", u.Table.Options)
	}
	for range 7 {
		if err := lobby.Run(a, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptGame: "Quadrant"}}); err != nil {
		t.Fatal(err)
	}
	u = waitFor(t, a, "Quadrant", func(u lobby.Update) bool { return u.Table.Game == quadrant.ID })
	if u.Table.Options[quadrant.OptMode] != quadrant.ModeTeam {
		t.Errorf("eight players at Quadrant: mode %q", u.Table.Options[quadrant.OptMode])
	}
}

// A switch with other options the new game refuses changes nothing: the switch and
// the options are one change.
func TestASwitchWithBadOptionsChangesNothing(t *testing.T) {
	l, _ := packLobby(t)
	a, err := l.Create(ann, topfive.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []rules.Options{
		{lobby.OptGame: "Foresight", "rounds": "bogus"},
		{lobby.OptGame: "Quadrant", lobby.OptDeck: "Mine"},
	} {
		if err := lobby.Run(a, lobby.SetOptions{Options: o}); err == nil {
			t.Errorf("%v was taken", o)
		}
	}
	if err := lobby.Run(a, lobby.Chat{Text: "done"}); err != nil { // a step after the refusals
		t.Fatal(err)
	}
	u := waitFor(t, a, "the chat", func(u lobby.Update) bool { return chatSays(u, "done") })
	if u.Table.Game != topfive.ID || chatSays(u, "switched") {
		t.Errorf("after refused switches: %s, chat %+v", u.Table.Game, u.Chat)
	}
}

// Sharing reads which packs the table's game takes while the host switches the game: the
// game is the actor's to read (go test -race tells).
func TestSharingWhileTheGameSwitches(t *testing.T) {
	l, lib := packLobby(t)
	a, err := l.Create(ann, topfive.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	addPack(t, lib, ben.ID, "quadrant-words", "Wörter", "Apfel\nBaum\nHaus\nMaus\nTisch\nStuhl\n")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 20 {
			game := []string{"Quadrant", "Top Five"}[i%2]
			if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptGame: game}}); err != nil {
				t.Errorf("switch to %s: %v", game, err)
				return
			}
		}
	}()
	shared := 0
	for range 20 {
		// Refused while the table plays Top Five, which takes no word packs.
		if n, err := lobby.Do(b, lobby.ShareAll{}); err == nil {
			shared += n.Count
		}
		_ = lobby.Run(b, lobby.Share{Pack: "Wörter"})
	}
	<-done
	if err := lobby.Run(a, lobby.SetOptions{Options: rules.Options{lobby.OptGame: "Quadrant"}}); err != nil {
		t.Fatal(err)
	}
	if n, err := lobby.Do(b, lobby.ShareAll{}); err != nil || n.Count != 1 {
		t.Errorf("ShareAll at Quadrant = %+v, %v; want the one pack", n, err)
	}
}
