package session

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"parlor/lobby"
	"parlor/rules"
	"parlor/session/gameui"
)

type lobbyScreen struct {
	tables  []lobby.TableInfo
	online  int
	seated  []string          // codes of tables where this player holds a seat
	back    []lobby.TableInfo // those tables, to say what they are doing
	lost    []string          // tables of this player that did not survive a restart
	profile string            // the player's record, read when the lobby is entered
	sel     int
	first   int        // the first table row shown (tableRows scrolls it)
	typing  bool       // the join-by-code box has focus
	code    *lineInput // while typing
}

// refresh reads the lobby again; it reports whether anything the screen shows changed.
func (s *lobbyScreen) refresh(l *lobby.Lobby, p lobby.Player) bool {
	tables, online, seated := l.Tables(p), l.Online(), l.SeatedAt(p.ID)
	back, lost := l.SeatedTables(p.ID), l.Lost(p.ID)
	// The tables where the player holds a seat are listed first, private ones too (they
	// are the player's own), so that enter takes each seat back.
	for i := len(back) - 1; i >= 0; i-- {
		if !slices.ContainsFunc(tables, func(t lobby.TableInfo) bool { return t.Code == back[i].Code }) {
			tables = slices.Insert(tables, 0, back[i])
		}
	}
	changed := !lobby.SameTables(tables, s.tables) || online != s.online || !slices.Equal(seated, s.seated) ||
		!slices.Equal(lost, s.lost) || len(back) != len(s.back) || len(back) > 0 && waitingLine(back[0]) != waitingLine(s.back[0])
	s.tables, s.online, s.seated, s.back, s.lost = tables, online, seated, back, lost
	if s.sel >= len(s.tables) {
		s.sel = len(s.tables) - 1
	}
	if s.sel < 0 {
		s.sel = 0
	}
	return changed
}

// drop lets go of the lobby list while the player is at a table: a seated session
// keeps no copy of every table.
func (s *lobbyScreen) drop() { s.tables, s.back = nil, nil }

func (s *lobbyScreen) key(m *Model, k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	if s.typing {
		switch key {
		case "esc":
			s.typing, s.code = false, nil
		case "enter":
			code := s.code.value()
			s.typing, s.code = false, nil
			return m.join(code)
		default:
			s.code.update(k)
		}
		return nil
	}
	l := lobbyKeys
	switch {
	case keyMatches(k, l.Up):
		if s.sel > 0 {
			s.sel--
		}
	case keyMatches(k, l.Down):
		if s.sel < len(s.tables)-1 {
			s.sel++
		}
	case keyMatches(k, l.Join):
		if len(s.tables) == 0 {
			m.setStatus("No open tables yet: press c to create one.", false)
			return nil
		}
		return m.join(s.tables[s.sel].Code)
	case keyMatches(k, l.Watch):
		if len(s.tables) > 0 {
			return m.enter(m.o.Lobby.Watch(m.o.Player, s.tables[s.sel].Code))
		}
	case keyMatches(k, l.Code):
		s.typing = true
		s.code = newLineInput(lobby.PrivateCodeLen + 1) // room for "ABCD-EFGH"
	case keyMatches(k, l.Back):
		if len(s.seated) > 0 {
			return m.enter(m.o.Lobby.Join(m.o.Player, s.seated[0]))
		}
		m.setStatus("No table holds a seat for you now.", false)
	case keyMatches(k, l.Create):
		m.create = nil // made afresh, with the defaults
		m.show(screenCreate)
	case keyMatches(k, l.Name):
		m.name = newNameScreen(m.o.Player.Name)
		m.name.renaming = true
		m.show(screenName)
	case keyMatches(k, l.Linear):
		m.rememberLinear()
	case keyMatches(k, l.Quit):
		return m.quit()
	case keyMatches(k, adminKeys.Open) && m.isAdmin():
		m.openAdmin()
	}
	return nil
}

func (s *lobbyScreen) render(m *Model, w, h int) []string {
	who := m.o.Player.Name
	if m.o.Player.Guest {
		who += " (guest)"
	}
	out := []string{m.title(w, "parlor · lobby", fmt.Sprintf("%d online · you are %s", s.online, who))}
	body := []string{""}
	if s.profile != "" {
		body[0] = dimStyle.Paint("  " + s.profile)
	}
	for i, t := range s.back {
		if i == maxBackLines && len(s.back) > maxBackLines+1 {
			body = append(body, okStyle.Paint(fmt.Sprintf("  …and %d more tables of yours, listed below.", len(s.back)-i)))
			break
		}
		line := waitingLine(t)
		if i > 0 {
			line = strings.Replace(line, " — press r to go back.", ": pick it below to go back.", 1)
		}
		body = append(body, okStyle.Paint(fit("  "+line, w-2)))
	}
	for _, notice := range s.lost {
		body = append(body, errStyle.Paint(fit("  "+notice, w-2)))
	}
	body = append(body, headStyle.Paint("  Open tables"))
	l := lobbyKeys
	keys := []key.Binding{helpKey, l.Create, l.Join, l.Code, l.Up, l.Watch, l.Back, l.Name, l.Quit}
	if m.isAdmin() { // the operators' screen, for admins only
		keys = append(keys, adminKeys.Open)
	}
	if len(s.seated) == 0 { // r takes a seat back: none to take
		keys = slices.DeleteFunc(keys, func(b key.Binding) bool { return b.Help() == l.Back.Help() })
	}
	if s.typing { // the lobby's letters would type into the box
		keys = []key.Binding{bind("enter", "join", "enter"), bind("esc", "cancel", "esc"), helpInTyped}
	}
	foot := footerLines(w, keys...)
	status := m.statusLines(w, statusMax, "")
	avail := h - 2 - len(status) - len(foot) // below the title, above the code box
	games := gamesLines(w)
	if len(s.tables) == 0 {
		body = append(body, "  None yet. Press "+keyStyle.Paint("c")+" to create a table, or "+keyStyle.Paint("tab")+" to join one by its code.")
	} else {
		body = append(body, dimStyle.Paint(fmt.Sprintf("  %-8s %-12s %-8s %-9s %s", "code", "game", "seats", "state", "players")))
		// The tables come first: with more than fit beside the games, the games shrink
		// to one line (c and ? tell more of them).
		if avail-len(body)-len(games) < len(s.tables) {
			games = []string{"", fit(headStyle.Paint("  Games: ")+dimStyle.Paint(gameNames()+" · c creates one"), w)}
		}
		body = append(body, s.tableRows(w, max(1, avail-len(body)-len(games)))...)
	}
	body = append(body, games...)
	out = append(out, blockOf(body, w, avail)...)
	if s.typing {
		out = append(out, fit("  Table code: "+boxed(s.code.view(lobby.PrivateCodeLen+2, m.plain), lobby.PrivateCodeLen+2)+dimStyle.Paint("  the 4 or 8 letters a friend gave you"), w))
	} else {
		out = append(out, fit("", w))
	}
	out = append(out, status...)
	return append(out, foot...)
}

// tableRows are at most n rows of the open tables, scrolled so that the selected one is
// among them and marked; when some are not shown, the last row says how many are above
// and below.
func (s *lobbyScreen) tableRows(w, n int) []string {
	shown := n
	if len(s.tables) > n {
		shown = max(1, n-1) // a row for "more"
	}
	switch {
	case s.sel < s.first:
		s.first = s.sel
	case s.sel >= s.first+shown:
		s.first = s.sel - shown + 1
	}
	s.first = max(0, min(s.first, len(s.tables)-shown))
	var out []string
	for i := s.first; i < len(s.tables) && i < s.first+shown; i++ {
		t := s.tables[i]
		names := make([]string, 0, len(t.Seats))
		for _, seat := range t.Seats {
			names = append(names, seat.Name)
		}
		line := fit(fmt.Sprintf("  %-8s %-12s %-8s %-9s %s", t.Code, t.GameName, fmt.Sprintf("%d/%d", len(t.Seats), t.MaxPlayers), t.State, strings.Join(names, ", ")), w-2)
		if i == s.sel {
			line = selStyle.Paint("▸" + line[1:])
		}
		out = append(out, line)
	}
	if shown < len(s.tables) {
		var more []string
		if s.first > 0 {
			more = append(more, fmt.Sprintf("↑ %d more above", s.first))
		}
		if below := len(s.tables) - s.first - shown; below > 0 {
			more = append(more, fmt.Sprintf("↓ %d more below", below))
		}
		out = append(out, dimStyle.Paint(fit("  "+strings.Join(more, " · "), w-2)))
	}
	return out
}

// gamesLines list the games under the tables, each summary wrapped under itself so that
// each game's line reads whole. The list is the same for every session at a width, and
// wrapping it measures every summary (45 µs, half the time a lobby took to draw at a
// login), so it is drawn once per width for the whole process and shared: callers must
// not change it. The server clamps widths to 500 columns, which bounds what it holds.
func gamesLines(w int) []string {
	if l, ok := gamesDrawn.Load(w); ok {
		return l.([]string)
	}
	l, _ := gamesDrawn.LoadOrStore(w, drawGames(w))
	return l.([]string)
}

var gamesDrawn sync.Map // width → gamesLines

func drawGames(w int) []string {
	out := []string{"", headStyle.Paint("  Games")}
	for _, g := range rules.Games() {
		for i, l := range gameui.Wrap(fmt.Sprintf("%s players · %s", playersText(g), g.Summary), w-16) {
			name := ""
			if i == 0 {
				name = g.Name
			}
			out = append(out, fit(fmt.Sprintf("  %-12s %s", name, l), w))
		}
	}
	return out
}

// gameNames lists the games by name, for the lobby's one line of them.
func gameNames() string {
	var names []string
	for _, g := range rules.Games() {
		names = append(names, g.Name)
	}
	return strings.Join(names, ", ")
}

// maxBackLines is how many of the tables that wait for the player the lobby names.
const maxBackLines = 3

// waitingLine tells a player that their table is waiting for them, and what it does.
func waitingLine(t lobby.TableInfo) string {
	doing := "is waiting for you"
	switch {
	case t.State == lobby.StatePlaying && t.Round > 0:
		doing = "is in " + roundOf(t.Game, t.Round, 0)
	case t.State == lobby.StatePlaying:
		doing = "is playing"
	case t.State == lobby.StateFinished:
		doing = "has finished its game"
	}
	return fmt.Sprintf("Your %s table %s %s — press r to go back.", t.GameName, t.Code, doing)
}

func playersText(g *rules.Spec) string {
	if g.MinPlayers == g.MaxPlayers {
		return fmt.Sprint(g.MinPlayers)
	}
	return fmt.Sprintf("%d–%d", g.MinPlayers, g.MaxPlayers)
}

// rememberLinear is the lobby's setting for the linear mode: the player's key starts in
// it from the next connection on. The switch waits for the next connection because the
// screen's key reader holds the input until the session ends.
func (m *Model) rememberLinear() {
	plain := m.o.SSH() + " plain"
	if m.o.Linear == nil {
		m.setStatus("Only a player with an SSH key can have the linear mode remembered; "+plain+" starts it any time.", true)
		return
	}
	if err := m.o.Linear(); err != nil {
		m.setStatus("Could not save the linear mode: "+err.Error(), true)
		return
	}
	m.setStatus("Saved: your next connection with this key starts in the linear mode (plain off there turns it off). Now: q, then "+plain+".", false)
}
