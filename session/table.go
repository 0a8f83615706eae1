package session

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parlor/lobby"
	"parlor/rules"
	"parlor/session/gameui"
)

// tableScreen is a seat (or a spectator's chair) at a table: the room (seats, options,
// chat, host controls) and, once a game runs, the game's own screen.
type tableScreen struct {
	member   *lobby.Member
	u        lobby.Update
	game     gameui.Screen
	gameKey  string // game id and seat the game screen was made for
	room     bool   // show the room over a running game
	panel    int    // room focus: 0 seats, 1 options
	seatSel  int
	optSel   int
	chatting bool
	chat     lineInput
	scroll   int      // chat lines scrolled back
	feed     []string // recent game events and chat, for the game screen
	lastLog  []string
	lastChat int
}

func newTableScreen(m *lobby.Member) tableScreen {
	return tableScreen{member: m, chat: lineInput{limit: 200}}
}

func (t *tableScreen) playing() bool { return t.u.Table.State == lobby.StatePlaying }
func (t *tableScreen) seat() int     { return t.u.Seat }
func (t *tableScreen) showGame() bool {
	return t.game != nil && t.u.View != nil && !t.room
}

func (t *tableScreen) typing() bool {
	return t.chatting || (t.showGame() && t.game.Typing())
}

// apply takes a new update from the table.
func (t *tableScreen) apply(u lobby.Update) {
	wasPlaying := t.playing()
	t.u = u
	if u.View != nil {
		key := fmt.Sprintf("%s/%d", u.Table.Game, u.Seat)
		if key != t.gameKey || (!wasPlaying && t.playing()) {
			t.game, t.gameKey = gameScreen(u.Table.Game, u.Seat), key
			t.lastLog = nil
		}
		if t.game != nil {
			t.game.SetView(u.View)
		}
		t.addLog(u.View.Head().Log)
	}
	if !wasPlaying && t.playing() {
		t.room = false
	}
	for _, c := range u.Chat {
		if c.ID > t.lastChat {
			t.lastChat = c.ID
			if c.Seat == -2 {
				t.feed = append(t.feed, "» "+c.Text)
			} else {
				t.feed = append(t.feed, c.From+": "+c.Text)
			}
		}
	}
	if len(t.feed) > 100 {
		t.feed = t.feed[len(t.feed)-100:]
	}
	if t.seatSel >= len(u.Table.Seats) {
		t.seatSel = max(0, len(u.Table.Seats)-1)
	}
}

// addLog appends the lines of a game log that are new since the last view.
func (t *tableScreen) addLog(log []string) {
	k := 0
	for k = min(len(t.lastLog), len(log)); k > 0; k-- {
		if equal(t.lastLog[len(t.lastLog)-k:], log[:k]) {
			break
		}
	}
	t.feed = append(t.feed, log[k:]...)
	t.lastLog = append(t.lastLog[:0], log...)
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (t *tableScreen) text(m *Model, msg tea.Msg) tea.Cmd {
	switch {
	case t.chatting:
		t.chat.update(msg)
	case t.showGame() && t.game.Typing():
		return t.toGame(m, msg)
	}
	return nil
}

// toGame passes a key or paste to the game screen and sends the action it makes.
func (t *tableScreen) toGame(m *Model, msg tea.Msg) tea.Cmd {
	action, cmd := t.game.Update(msg)
	if action != nil {
		if err := t.member.Act(action); err != nil {
			m.setStatus(err.Error(), true)
		}
	}
	return cmd
}

func (t *tableScreen) key(m *Model, k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	if t.chatting {
		switch key {
		case "esc":
			t.chatting = false
		case "enter":
			if text := t.chat.value(); text != "" {
				if err := t.member.Chat(text); err != nil {
					m.setStatus(err.Error(), true)
					return nil
				}
			}
			t.chat.reset()
			t.chatting = false
		default:
			t.chat.update(k)
		}
		return nil
	}
	if t.showGame() {
		if t.game.Typing() {
			return t.toGame(m, k)
		}
		switch key {
		case "/":
			t.chatting = true
		case "esc":
			t.room = true
		case "q":
			return t.leave(m)
		default:
			return t.toGame(m, k)
		}
		return nil
	}
	return t.roomKey(m, key)
}

func (t *tableScreen) leave(m *Model) tea.Cmd {
	if t.playing() && t.seat() >= 0 {
		m.confirm = "leave"
		return nil
	}
	m.leaveTable()
	m.toLobby()
	return nil
}

func (t *tableScreen) roomKey(m *Model, key string) tea.Cmd {
	mem := t.member
	report := func(err error, ok string) {
		if err != nil {
			m.setStatus(err.Error(), true)
		} else if ok != "" {
			m.setStatus(ok, false)
		}
	}
	spec, _ := rules.Lookup(t.u.Table.Game)
	switch key {
	case "enter", "/":
		t.chatting = true
	case "esc":
		if t.u.View != nil {
			t.room = false
		}
	case "q":
		return t.leave(m)
	case "tab":
		t.panel = 1 - t.panel
	case "up", "k":
		if t.panel == 0 && t.seatSel > 0 {
			t.seatSel--
		} else if t.panel == 1 && t.optSel > 0 {
			t.optSel--
		}
	case "down", "j":
		if t.panel == 0 && t.seatSel < len(t.u.Table.Seats)-1 {
			t.seatSel++
		} else if t.panel == 1 && spec != nil && t.optSel < len(spec.Options)-1 {
			t.optSel++
		}
	case "left", "right", "h", "l":
		if spec == nil || len(spec.Options) == 0 {
			return nil
		}
		if !t.u.Host {
			m.setStatus("Only the host can change the options.", true)
			return nil
		}
		t.panel = 1
		opt := spec.Options[t.optSel]
		d := 1
		if key == "left" || key == "h" {
			d = -1
		}
		report(mem.SetOptions(rules.Options{opt.Key: cycle(opt.Choices, t.u.Table.Options[opt.Key], d)}), "")
	case "s":
		report(mem.Start(), "")
	case "b":
		report(mem.AddBot(), "")
	case "x":
		report(mem.Kick(t.seatSel), "")
	case "H":
		report(mem.MakeHost(t.seatSel), "")
	case "C":
		if !t.u.Host {
			report(lobby.ErrNotHost, "")
			return nil
		}
		m.confirm = "close"
	case "pgup", "ctrl+b":
		t.scroll += 5
	case "pgdown", "ctrl+f":
		t.scroll = max(0, t.scroll-5)
	}
	return nil
}

func (t *tableScreen) render(m *Model, w, h int) []string {
	if t.showGame() {
		return t.renderGame(m, w, h)
	}
	return t.renderRoom(m, w, h)
}

func (t *tableScreen) names() []string {
	names := make([]string, len(t.u.Table.Seats))
	for i, s := range t.u.Table.Seats {
		names[i] = s.Name
	}
	return names
}

func (t *tableScreen) who(m *Model) string {
	if t.u.Seat < 0 {
		return "watching"
	}
	return "you: " + m.o.Player.Name
}

func (t *tableScreen) renderGame(m *Model, w, h int) []string {
	head := t.u.View.Head()
	left := fmt.Sprintf("%s · table %s", t.u.Table.GameName, t.u.Table.Code)
	if head.Round > 0 {
		if head.Rounds > 0 {
			left += fmt.Sprintf(" · round %d of %d", head.Round, head.Rounds)
		} else {
			left += fmt.Sprintf(" · round %d", head.Round)
		}
	}
	right := t.who(m)
	if left := gameui.Remaining(head.Deadline, m.now); left != "" && !head.Over {
		right = "⏱ " + left + " left · " + right
	}
	out := []string{m.title(w, left, right)}
	prompt := head.Prompt
	if head.Over {
		prompt = "The game is over. Press esc for the table: the host can start another game."
	} else if len(head.Waiting) > 0 && !contains(head.Waiting, t.u.Seat) {
		prompt = strings.TrimSpace(prompt + " " + dimStyle.Render("Waiting for "+nameList(t.names(), head.Waiting)+"."))
	}
	out = append(out, m.statusLine(w, headStyle.Render(prompt)))
	area := t.game.Render(gameui.Frame{Width: w, Height: h - 5, Now: m.now, Seat: t.u.Seat, Names: t.names(), Plain: m.plain})
	out = append(out, block(area, w, h-5)...)
	feed := t.feed
	if len(feed) > 2 {
		feed = feed[len(feed)-2:]
	}
	for len(feed) < 2 {
		feed = append([]string{""}, feed...)
	}
	for _, f := range feed {
		out = append(out, fit(dimStyle.Render(" "+f), w))
	}
	if t.chatting {
		out = append(out, fit(" say: "+t.chat.view(w-10, true), w))
		return out
	}
	keys := [][2]string{{"?", "help"}}
	for _, k := range t.game.Keys() {
		keys = append(keys, [2]string{k.Keys, k.Help})
	}
	keys = append(keys, [2]string{"/", "chat"}, [2]string{"esc", "table"}, [2]string{"q", "leave"})
	out = append(out, fit(keyHelp(keys...), w))
	return out
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func nameList(names []string, seats []int) string {
	parts := make([]string, 0, len(seats))
	for _, s := range seats {
		parts = append(parts, seatName(names, s))
	}
	if len(parts) > 3 {
		return fmt.Sprintf("%s and %d more", strings.Join(parts[:3], ", "), len(parts)-3)
	}
	return strings.Join(parts, ", ")
}

func (t *tableScreen) renderRoom(m *Model, w, h int) []string {
	info := t.u.Table
	spec, _ := rules.Lookup(info.Game)
	right := fmt.Sprintf("%d watching · %s", info.Spectators, t.who(m))
	out := []string{m.title(w, fmt.Sprintf("%s · table %s · %s", info.GameName, info.Code, info.State), right)}
	out = append(out, m.statusLine(w, t.hint(info)))

	leftW := 34
	seats := []string{headStyle.Render(fmt.Sprintf("Seats %d/%d", len(info.Seats), info.MaxPlayers)) + dimStyle.Render(fmt.Sprintf(" (needs %s)", playerRange(info.MinPlayers, info.MaxPlayers)))}
	for i, s := range info.Seats {
		marks := ""
		if s.Host {
			marks += " ★host"
		}
		switch {
		case s.Bot:
			marks += " (bot)"
		case s.Away:
			marks += " (away)"
		case s.Guest:
			marks += " (guest)"
		}
		if i == t.u.Seat {
			marks += " ← you"
		}
		name := gameui.SeatStyle(i).Render(s.Name)
		line := fmt.Sprintf("%d %s%s", i+1, name, dimStyle.Render(marks))
		if t.panel == 0 && i == t.seatSel && t.u.Host {
			line = selStyle.Render(fit(fmt.Sprintf("▸%d %s%s", i+1, s.Name, marks), leftW))
		}
		seats = append(seats, line)
	}
	var opts []string
	if spec != nil {
		opts = append(opts, headStyle.Render("Options"))
		for i, o := range spec.Options {
			line := fmt.Sprintf("%-20s %s", o.Name, info.Options[o.Key])
			if t.panel == 1 && i == t.optSel && t.u.Host {
				line = selStyle.Render("‹ " + line + " ›")
			} else {
				line = "  " + line
			}
			opts = append(opts, line)
		}
		if info.Result != nil {
			opts = append(opts, "", headStyle.Render("Last game: ")+info.Result.Summary)
		}
		opts = append(opts, "")
		opts = append(opts, wrap(spec.HowToPlay, w-leftW-3)...)
	}
	topH := (h - 4) / 2
	if n := len(info.Seats) + 1; n > topH {
		topH = min(n, h-9)
	}
	out = append(out, columns(2, block(joinLines(seats), leftW, topH), block(joinLines(opts), w-leftW-2, topH))...)

	chatH := h - 4 - topH - 1
	out = append(out, fit(headStyle.Render("Chat")+dimStyle.Render(" · pgup/pgdn scroll"), w))
	lines := t.chatLines(w)
	end := max(0, len(lines)-t.scroll)
	start := max(0, end-chatH)
	out = append(out, block(joinLines(lines[start:end]), w, chatH)...)
	if t.chatting {
		out = append(out, fit("say: "+t.chat.view(w-6, true), w))
	} else {
		out = append(out, fit(dimStyle.Render("press enter to chat"), w))
	}
	out = append(out, fit(keyHelp(t.roomKeys()...), w))
	return out
}

// hint tells the player what happens next at the table.
func (t *tableScreen) hint(info lobby.TableInfo) string {
	n := len(info.Seats)
	switch {
	case info.State == lobby.StatePlaying:
		return "The game is running: press esc to go back to it."
	case !t.u.Host:
		return "Waiting for the host to start the game."
	case n < info.MinPlayers:
		return fmt.Sprintf("Share the code %s with friends, or add bots with b: %s are needed.", info.Code, playerRange(info.MinPlayers, info.MaxPlayers))
	default:
		return "Everyone here? Press s to start the game."
	}
}

func (t *tableScreen) roomKeys() [][2]string {
	keys := [][2]string{{"?", "help"}}
	if t.u.View != nil {
		keys = append(keys, [2]string{"esc", "back to game"})
	}
	if t.u.Host {
		if t.playing() {
			keys = append(keys, [2]string{"↑↓", "seat"}, [2]string{"x", "bot takes seat"}, [2]string{"H", "make host"}, [2]string{"C", "close table"})
		} else {
			keys = append(keys, [2]string{"s", "start"}, [2]string{"b", "add bot"}, [2]string{"↑↓", "seat"}, [2]string{"x", "remove"}, [2]string{"H", "make host"}, [2]string{"tab ←→", "options"}, [2]string{"C", "close"})
		}
	}
	return append(keys, [2]string{"q", "leave"})
}

func (t *tableScreen) chatLines(w int) []string {
	var out []string
	for _, c := range t.u.Chat {
		stamp := dimStyle.Render(c.At.Format("15:04") + " ")
		if c.Seat == -2 {
			out = append(out, fit(stamp+dimStyle.Render("» "+c.Text), w))
			continue
		}
		name := c.From
		if c.Seat >= 0 {
			name = gameui.SeatStyle(c.Seat).Render(name)
		} else {
			name = dimStyle.Render(name + " (watching)")
		}
		for i, l := range wrap(c.Text, w-len(c.From)-10) {
			if i == 0 {
				out = append(out, fit(stamp+name+": "+l, w))
			} else {
				out = append(out, fit("      "+strings.Repeat(" ", len(c.From)+2)+l, w))
			}
		}
	}
	return out
}
