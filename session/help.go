package session

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"parlor/rules"
	"parlor/session/gameui"
)

// openHelp shows the help of the current screen from its top.
func (m *Model) openHelp() {
	m.help = true
	m.helpPager = newPager()
}

// helpKeyPress handles a key while the help is open: scrolling, or closing it.
func (m *Model) helpKeyPress(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case k.String() == "ctrl+c":
		m.help, m.helpPager = false, nil
		return m.quit()
	case key.Matches(k, closeHelp):
		m.help, m.helpPager = false, nil
	default:
		m.helpPager.key(k)
	}
	return nil
}

func (m *Model) renderHelp(w, h int) []string {
	out := []string{m.title(w, "parlor · help & rules", "esc closes")}
	if m.helpPager == nil {
		m.helpPager = newPager()
	}
	m.helpPager.set(m.helpLines(w-2), w-1, h-3)
	for _, l := range m.helpPager.view() {
		out = append(out, fit(" "+l, w))
	}
	out = append(out, fit(dimStyle.Paint(" "+m.helpPager.position()), w))
	out = append(out, footerLine(w, append(scrollKeys(), bind("esc", "close help", "esc"))...))
	return out
}

// helpLines is the help of the current screen: the rules of the game at hand (or what
// parlor is, in the lobby), then every key of the screen.
func (m *Model) helpLines(w int) []string {
	var body []string
	section := func(title string, lines ...string) {
		if len(body) > 0 {
			body = append(body, "")
		}
		body = append(body, headStyle.Paint(title))
		body = append(body, lines...)
	}
	game := ""
	switch m.screen {
	case screenCreate:
		if c := m.createBox(); len(c.games) > 0 {
			game = c.spec().ID
		}
	case screenTable:
		game = m.table.u.Table.Game
	}
	if t := &m.table; m.screen == screenTable && t.u.View != nil && !t.u.View.Head().Over {
		// The prompt line may be cut at the screen's width: here it reads whole.
		section("Now", gameui.Wrap(t.u.View.Head().Prompt, w)...)
		body = append(body, "")
	}
	if spec, ok := rules.Lookup(game); ok {
		body = append(body, specRules(spec, w)...)
	} else {
		section("parlor: party games over SSH", gameui.Wrap(strings.ReplaceAll(aboutParlor, "SSH_HOST", m.o.SSH()), w)...)
		var games []string
		for _, g := range rules.Games() {
			games = append(games, rulesLines(fmt.Sprintf("- %s (%s players): %s", g.Name, playersText(g), g.Summary), w)...)
		}
		section("The games", games...)
		body = append(body, "")
		body = append(body, gameui.Wrap("Each game's complete rules are on ? in the new-table screen (c) and at its table.", w)...)
	}
	switch m.screen {
	case screenName:
		section("Keys: your name", keyLines([]key.Binding{nameKeys.Save, nameKeys.Delete, nameKeys.Back, helpInTyped})...)
	case screenLobby:
		l := lobbyKeys
		section("Keys: the lobby", keyLines([]key.Binding{l.Up, l.Join, l.Watch, l.Code, l.Create, l.Back, l.Name, l.Linear, helpKey, l.Quit})...)
		shell := m.o.SSH("-t") // a command needs a terminal
		section("From your shell", dimStyle.Paint("  "+shell+" join ABCD"), dimStyle.Paint("  "+shell+" watch ABCD"),
			dimStyle.Paint("  "+m.o.SSH()+" plain     the linear mode, for screen readers and braille"))
	case screenCreate:
		c := createKeys
		section("Keys: new table", keyLines([]key.Binding{c.Up, c.Change, c.Create, bind("pgup pgdn", "scroll the rules", "pgup"), c.Back, helpKey})...)
	case screenTable:
		t := &m.table
		if t.showGame() {
			keys := t.game.Keys()
			if more, ok := t.game.(gameui.MoreKeys); ok {
				keys = append(slices.Clone(keys), more.MoreKeys()...)
			}
			if now := keyLines(gameui.Bindings(keys)); len(now) > 0 {
				section("Keys: the game now", now...)
			} else if t.u.View != nil && t.u.View.Head().Over {
				section("Keys: the game now", dimStyle.Paint("none: the game is over (esc: the table, where the host can start another)"))
			} else {
				section("Keys: the game now", dimStyle.Paint("none: nothing to do until the next phase"))
			}
			if table := keyLines(t.gameChromeKeys()); len(table) > 0 { // none while the game's text box has the keys
				section("Keys: at the table", table...)
			}
		} else {
			section("Keys: the table", keyLines(t.roomKeys())...)
		}
	}
	section("Anywhere", keyLines([]key.Binding{helpKey, bind("f1", "help, also while typing in a text box", "f1"), bind("ctrl+c", "quit (asks first during a game)", "ctrl+c")})...)
	return body
}

// aboutParlor is the lobby's help: what parlor is and how a table works.
const aboutParlor = "parlor is a place to play party games with friends over SSH. " +
	"Everyone connects with ssh and sees their own screen; nothing else is installed.\n\n" +
	"Tables: create a table for a game (c), choose its options, and share its code (4 letters; 8 for a private table). " +
	"Friends join it from the lobby (tab, then the code) or straight from their shell. " +
	"The one who created the table is its host: they start the game, add bots to fill empty seats, and can remove players. " +
	"The host can give a player more time (T on their seat): ×1.5, ×2 or ×3 in every timed phase, without slowing the others; the seat list shows it. " +
	"Anyone may watch a running game.\n\n" +
	"Your seat is yours: if your connection drops, connect again with the same SSH key and you are back in your seat. " +
	"Guests (no SSH key) cannot take a seat back.\n\n" +
	"Your own words: keep content packs (words, topics, questions, pictures; any language) from your shell with SSH_HOST pack help. " +
	"Choose one as the Deck when you create a table, or press p at a table to offer yours to its host.\n\n" +
	"In every screen, ? shows the help and the rules of the game at hand (f1 while you type in a box, where ? is a character); the bottom line shows the most important keys."
