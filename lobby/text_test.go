package lobby_test

import (
	"errors"
	"strings"
	"testing"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	ft "parlor/rules/fingertip"
	tt "parlor/rules/talltale"
)

// A Fingertip clue sent with escape sequences arrives clean, and its length limit counts
// only what shows: the sequences cost nothing.
func TestFingertipClueIsCleanedByTheLobby(t *testing.T) {
	l, _ := clockLobby(t)
	ms := humans(t, l, ft.ID, 3, nil)
	v := viewOf[ft.View](t, ms[0], ft.PhaseClue)
	active := ms[v.Active]
	long := "\x1b[1m" + strings.Repeat("x", ft.ClueMax-4) + "\x1b[0m \x1b]52;c;aGk=\x07end" // 80 columns
	if err := lobby.Run(active, lobby.ActOf(ft.Clue{Type: ft.TypeClue, Text: long})); err != nil {
		t.Fatalf("an 80-column clue with escape sequences was refused: %v", err)
	}
	got := viewOf[ft.View](t, ms[0], ft.PhaseRace).Clue
	if want := strings.Repeat("x", ft.ClueMax-4) + " end"; got != want {
		t.Fatalf("clue = %q, want %q", got, want)
	}
}

func TestFingertipClueTooWideIsRefused(t *testing.T) {
	l, _ := clockLobby(t)
	ms := humans(t, l, ft.ID, 3, nil)
	v := viewOf[ft.View](t, ms[0], ft.PhaseClue)
	if err := lobby.Run(ms[v.Active], lobby.ActOf(ft.Clue{Type: ft.TypeClue, Text: "\x1b[1m" + strings.Repeat("你", ft.ClueMax/2+1)})); !errors.Is(err, ft.ErrLongClue) {
		t.Fatalf("a clue %d columns wide: %v", ft.ClueMax+2, err)
	}
}

func TestTallTaleStoryIsCleanedByTheLobby(t *testing.T) {
	l, _ := clockLobby(t)
	ms := humans(t, l, tt.ID, 3, nil)
	narrator, nv := findNarrator(t, ms)
	if err := lobby.Run(narrator, lobby.ActOf(tt.Discard{Type: "discard", Card: nv.Hand.Drawn[0].ID})); err != nil {
		t.Fatal(err)
	}
	// 280 columns of text once the sequences are gone: exactly the limit.
	story := "\x1b[1mOnce\x1b[0m upon a time\u202e " + strings.Repeat("z", tt.MaxStory-22) + "\u009b31m end."
	if err := lobby.Run(narrator, lobby.ActOf(tt.Story{Type: "story", Text: story, Confirm: true})); err != nil {
		t.Fatalf("a %d-column story with escape sequences was refused: %v", tt.MaxStory, err)
	}
	got := viewOf[tt.View](t, ms[0], tt.PhaseRace).Story
	if want := "Once upon a time " + strings.Repeat("z", tt.MaxStory-22) + " end."; got != want {
		t.Fatalf("story = %q, want %q", got, want)
	}
}

func TestChatIsCleaned(t *testing.T) {
	l := newLobby(t)
	a, _ := l.Create(ann, testgame.ID, nil, false)
	if err := lobby.Run(a, lobby.Chat{Text: "hi \u009b31mthere\u009b0m \U0001F469\u200D\U0001F469\u200D\U0001F467"}); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, a, "chat", func(u lobby.Update) bool { return len(u.Chat) > 1 })
	if got, want := u.Chat[len(u.Chat)-1].Text, "hi there \U0001F469\U0001F469\U0001F467"; got != want { // the family's pictures side by side, as every terminal draws them
		t.Fatalf("chat = %q, want %q", got, want)
	}
	if err := lobby.Run(a, lobby.Chat{Text: "\u202e\u2066 \x1b]0;x\x07"}); !errors.Is(err, lobby.ErrEmptyChat) {
		t.Fatalf("invisible chat: %v", err)
	}
}
