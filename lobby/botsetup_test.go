package lobby_test

import (
	"context"
	"testing"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
)

// setupGame is the test game with content, whose bots report how they were made.
const setupGame = "pick-setup"

var botSetups = make(chan rules.BotSetup, 64)

func init() {
	pick, _ := rules.Lookup(testgame.ID)
	rules.Register(&rules.Spec{
		ID: setupGame, Name: "Pick with content", MinPlayers: 2, MaxPlayers: 4,
		Options: []rules.Option{{Key: "rounds", Name: "Rounds", Choices: []string{"1"}, Default: "1"}},
		Content: []string{"pick/words.txt"},
		New:     testgame.New,
		NewBot: func(b rules.BotSetup) rules.Bot {
			botSetups <- b
			return pick.NewBot(b)
		},
	})
}

// TestBotsGetContentAndSkill: the bots of a started game get the table's options (the
// bot skill among them) and the game's content, so they can build their meaning model.
func TestBotsGetContentAndSkill(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	l := lobby.New(ctx, lobby.Config{Content: func(names []string) (map[string][]byte, error) {
		out := map[string][]byte{}
		for _, n := range names {
			out[n] = []byte("content of " + n)
		}
		return out, nil
	}})
	t.Cleanup(func() {
		cancel()
		if err := l.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	a, err := l.Create(ann, setupGame, rules.Options{rules.OptBots: rules.SkillSharp}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.AddBot{}); err != nil {
		t.Fatal(err)
	}
	<-botSetups // the bot made when it sat down, before there is any content
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	b := <-botSetups
	if b.Seat != 1 || rules.Skill(b.Options) != rules.SkillSharp || string(b.Content["pick/words.txt"]) != "content of pick/words.txt" {
		t.Fatalf("the bot was made with %+v", b)
	}
}
