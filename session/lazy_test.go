package session

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"parlor/assets"
	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui/gameuitest"
)

// A player who logs in, names themself and sits down holds no screen they left or never
// opened: no name box, no new-table screen, no code, chat or help box, no log pager.
// Each is made when first used, and works as before.
func TestASeatedSessionHoldsOnlyWhatItShows(t *testing.T) {
	sh := newSendHarness(t, Options{AskName: true, Player: lobby.Player{ID: "SHA256:Zed", Name: "Zed"}})
	if sh.m.name == nil || !strings.Contains(sh.screen(), "Welcome to parlor") {
		t.Fatalf("no name screen at the first visit:\n%s", sh.screen())
	}
	sh.press("enter")
	host := tableFor(t, sh.l, "quadrant", rules.Options{qd.OptPlacement: "off", qd.OptVoting: "off"}, 4)
	sh.joinByCode(host.Code(), 4)
	if err := lobby.Run(host, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	sh.deliver(func() bool { return sh.m.table.showGame() })
	sh.screen()
	m := sh.m
	if m.name != nil || m.create != nil || m.lobby.code != nil || m.helpPager != nil || m.table.chat != nil || m.table.log != nil {
		t.Fatalf("a seated session holds name %v, create %v, code %v, help %v, chat %v, log %v",
			m.name != nil, m.create != nil, m.lobby.code != nil, m.helpPager != nil, m.table.chat != nil, m.table.log != nil)
	}
	sh.press("/", "h", "i")
	if m.table.chat == nil || m.table.chat.value() != "hi" || !strings.Contains(sh.screen(), "say: hi") {
		t.Fatalf("the chat box made on first use does not hold what was typed:\n%s", sh.screen())
	}
	sh.press("esc", "v")
	if m.table.log == nil || !strings.Contains(sh.screen(), "the whole log") {
		t.Fatalf("the log made on first use is not shown:\n%s", sh.screen())
	}
	sh.press("esc")
	if m.table.log != nil {
		t.Fatal("the closed log is still held")
	}
}

// Text boxes are copies of one blank box: what is typed into one is in no other.
func TestTextBoxesAreIndependent(t *testing.T) {
	a, b := newLineInput(10), newLineInput(20)
	a.update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	a.update(tea.KeyPressMsg{Code: 'y', Text: "y"})
	b.update(tea.KeyPressMsg{Code: tea.KeyLeft})
	if a.value() != "xy" || b.value() != "" || b.ed.Position() != 0 || b.ed.CharLimit != 20 {
		t.Fatalf("boxes share state: a %q, b %q at %d, limit %d", a.value(), b.value(), b.ed.Position(), b.ed.CharLimit)
	}
	a.view(10, false)
	if !b.ed.Focused() || blankInput().Value() != "" {
		t.Fatal("blurring one box changed another, or the blank box")
	}
}

// A text box makes its editor at the first key that may edit it: a name accepted as
// suggested, or a box never typed in, costs none. Text set before then is cut to the
// box's limit and its cursor put at the end, as the editor would, and the first keys
// edit that text from there.
func TestATextBoxMakesItsEditorAtTheFirstKey(t *testing.T) {
	lazy, eager := newLineInput(5), newLineInput(5)
	eager.update(tea.KeyPressMsg{Code: tea.KeyEnd})
	if eager.ed == nil {
		t.Fatal("a key made no editor")
	}
	for _, s := range []string{"abcdefg", "é✓ab", ""} {
		lazy.set(s)
		eager.set(s)
		if lazy.ed != nil {
			t.Fatal("setting the text made an editor")
		}
		if lazy.value() != eager.value() || lazy.pos != eager.ed.Position() || lazy.view(8, true) != eager.view(8, true) {
			t.Fatalf("set(%q): %q at %d without an editor, %q at %d with one", s, lazy.value(), lazy.pos, eager.value(), eager.ed.Position())
		}
	}
	lazy.set("abcdefg")
	lazy.update(tea.KeyPressMsg{Code: tea.KeyLeft})
	lazy.update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	if lazy.value() != "abce" || lazy.pos != 3 || lazy.ed.Position() != 3 {
		t.Fatalf("left and backspace after set: %q at %d, want \"abce\" at 3", lazy.value(), lazy.pos)
	}
	lazy.reset()
	if lazy.value() != "" || lazy.pos != 0 || lazy.ed.Value() != "" {
		t.Fatalf("reset left %q at %d", lazy.value(), lazy.pos)
	}
}

// A first visit with "join CODE" goes from the name straight to the table without
// reading the lobby (every table, and the player's record from the store) for a screen
// it never shows; with a code that fails, the player is in the lobby, read then, and
// the status line says why.
func TestDirectJoinFromTheNameReadsNoLobby(t *testing.T) {
	for _, good := range []bool{true, false} {
		ctx, cancel := context.WithCancel(context.Background())
		l := lobby.New(ctx, lobby.Config{Content: assets.Load})
		host, err := l.Create(lobby.Player{ID: "SHA256:Host", Name: "Host"}, testgame.ID, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		code := host.Code()
		if !good {
			code = "ZZZZ"
		}
		records := 0
		m := New(ctx, Options{Lobby: l, Player: lobby.Player{ID: "SHA256:Zed"}, AskName: true, Join: code,
			Profile: func() string { records++; return "You have played 3 games." }})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		if records != 0 || m.lobby.tables != nil {
			t.Fatalf("the lobby was read for the name screen: %d records, %d tables", records, len(m.lobby.tables))
		}
		for _, k := range []string{"Z", "e", "d", "enter"} {
			m.Update(gameuitest.Key(k))
		}
		if good && (m.screen != screenTable || records != 0 || m.lobby.tables != nil) {
			t.Fatalf("a good code: screen %v, %d records read, %d tables listed; want the table and no lobby", m.screen, records, len(m.lobby.tables))
		}
		if !good && (m.screen != screenLobby || records != 1 || len(m.lobby.tables) != 1 || !strings.Contains(m.status, "ZZZZ")) {
			t.Fatalf("a bad code: screen %v, %d records read, %d tables listed, status %q; want the lobby, read once, with the reason", m.screen, records, len(m.lobby.tables), m.status)
		}
		m.leaveTable()
		cancel()
		_ = l.Shutdown(context.Background())
	}
}
