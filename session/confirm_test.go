package session

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// A question's words come from its value: its kind, and for a removal the player it
// names and whether a game runs; every question offers the key that answers yes.
func TestAQuestionSaysWhatItsYesDoes(t *testing.T) {
	for _, c := range []struct {
		q              question
		guest, playing bool
		want           string
	}{
		{question{confirm: confirmQuit}, false, true, "Leave parlor mid-game? Your seat waits for you. y: yes · other keys: no"},
		{question{confirm: confirmQuit}, true, true, "Leave parlor mid-game? A guest cannot come back. y: yes · other keys: no"},
		{question{confirm: confirmLeave}, false, true, "Leave this game? Your seat waits for you while it runs. y: yes · other keys: no"},
		{question{confirm: confirmClose}, false, false, "Close the table for everyone? y: yes · other keys: no"},
		{question{confirm: confirmRemove, seat: 1, player: "Ben"}, false, false, "Remove Ben from the table? y: yes · other keys: no"},
		{question{confirm: confirmRemove, seat: 1, player: "Ben"}, false, true, "Give Ben's seat to a bot for good? y: yes · other keys: no"},
		{question{}, false, true, ""},
	} {
		if got := c.q.text(c.guest, c.playing); got != c.want {
			t.Errorf("%+v (guest %v, playing %v): %q, want %q", c.q, c.guest, c.playing, got, c.want)
		}
	}
}

// A question longer than the screen is wide wraps onto the lines above the bottom one:
// its keys are never cut.
func TestALongQuestionKeepsItsKeys(t *testing.T) {
	l, ctx := newLobbyT(t, nil)
	m := New(ctx, Options{Lobby: l, Player: annP})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.question = question{confirm: confirmBlock, seat: 1, player: "Bartholomew Long"}
	out := ansi.Strip(strings.Join(m.Frame(), "\n"))
	if !strings.Contains(out, "y: yes · other keys: no") || strings.Contains(out, "…") {
		t.Fatalf("the question is cut:\n%s", out)
	}
}
