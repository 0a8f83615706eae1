package lobby_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
)

func hasLine(chat []lobby.ChatLine, text string) bool {
	return slices.ContainsFunc(chat, func(l lobby.ChatLine) bool { return l.Text == text })
}

func TestAMutedPlayerCannotChatOrWriteInGames(t *testing.T) {
	until := time.Date(2026, 12, 1, 18, 30, 0, 0, time.UTC)
	l := newLobbyWith(t, lobby.Config{Muted: func(id string) (string, time.Time, bool) {
		return "spam", until, id == ben.ID
	}})
	a, _ := l.Create(ann, testgame.ID, nil, false)
	b, _ := l.Join(ben, a.Code())
	err := lobby.Run(b, lobby.Chat{Text: "buy my stuff"})
	if !errors.Is(err, lobby.ErrMuted) || !strings.Contains(err.Error(), "spam") || !strings.Contains(err.Error(), "1 Dec 2026 18:30 UTC") {
		t.Fatalf("muted chat: %v", err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(b, lobby.ActOf(map[string]any{"type": "pick", "n": 1, "note": "buy my stuff"})); !errors.Is(err, lobby.ErrMuted) {
		t.Fatalf("muted game text: %v", err)
	}
	if err := lobby.Run(b, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatalf("a muted player's move without text: %v", err)
	}
	if err := lobby.Run(a, lobby.Chat{Text: "Ann here"}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a, "Ann's line", func(u lobby.Update) bool { return hasLine(u.Chat, "Ann here") })
	if hasLine(u.Chat, "buy my stuff") {
		t.Fatalf("a muted line was sent: %+v", u.Chat)
	}
}
