package session

// The room: the table's seats, options and rules, its chat, and the host's controls,
// before a game and over a running one (esc).

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/lobby"
	"parlor/rules"
	"parlor/session/gameui"
)

// rulesPager is the rules beside the seats, made when the room is first shown.
func (t *tableScreen) rulesPager() *pager {
	if t.rules == nil {
		t.rules = newPager()
	}
	return t.rules
}

// Room panels: tab moves the focus among them.
const (
	panelSeats = iota
	panelOptions
	panelRules
	panels
)

// roomKey handles a key in the room: only through the room's keymap as it is now
// (roomKeymap), so that a key works exactly when the footer or the help shows it.
func (t *tableScreen) roomKey(m *Model, k tea.KeyPressMsg) tea.Cmd {
	mem := t.member
	report := func(err error, ok string) {
		if err != nil {
			m.setStatus(t.refusal(err), true)
		} else if ok != "" {
			m.setStatus(ok, false)
		}
	}
	km := t.roomKeymap()
	switch {
	case key.Matches(k, km.Scroll):
		t.rulesPager().key(k)
	case key.Matches(k, km.Chat):
		t.chatting = true
	case key.Matches(k, km.Back):
		t.room = false
	case key.Matches(k, km.Leave):
		return t.leave(m)
	case key.Matches(k, km.Panel):
		d := 1
		if step(k) < 0 {
			d = panels - 1
		}
		if t.panel = (t.panel + d) % panels; t.panel == panelRules && !t.rulesShown {
			t.panel = (t.panel + d) % panels
		}
	case key.Matches(k, km.Seat, km.MoreSeats):
		t.seatSel = max(0, min(len(t.u.Table.Seats)-1, t.seatSel+step(k)))
	case key.Matches(k, km.Option):
		t.optSel = max(0, min(len(t.u.Table.Choices)-1, t.optSel+step(k)))
	case key.Matches(k, km.Choose, km.Change):
		t.panel = panelOptions
		t.optSel = min(t.optSel, len(t.u.Table.Choices)-1)
		opt := t.u.Table.Choices[t.optSel]
		d := step(k)
		next := cycle(opt.Choices, t.u.Table.Options[opt.Key], d)
		err := lobby.Run(mem, lobby.SetOptions{Options: rules.Options{opt.Key: next}})
		var skipped []string
		for errors.Is(err, lobby.ErrSeats) && len(skipped) < len(opt.Choices)-2 {
			// A game that seats fewer than are here is passed over, as ←→ goes on.
			skipped = append(skipped, next)
			next = cycle(opt.Choices, next, d)
			err = lobby.Run(mem, lobby.SetOptions{Options: rules.Options{opt.Key: next}})
		}
		if err == nil && len(skipped) > 0 {
			report(nil, fmt.Sprintf("Passed over %s: too few seats for the %d players here.", rules.List(skipped), len(t.u.Table.Seats)))
		} else {
			report(err, "")
		}
	case key.Matches(k, km.Start):
		report(lobby.Run(mem, lobby.Start{}), "")
	case key.Matches(k, km.AddBot):
		report(lobby.Run(mem, lobby.AddBot{}), "")
	case key.Matches(k, km.Packs):
		if n, err := lobby.Do(mem, lobby.ShareAll{}); err != nil {
			report(err, "")
		} else {
			report(nil, fmt.Sprintf("You shared %d pack(s) with the table: the host can choose them as the deck.", n.Count))
		}
	case key.Matches(k, km.Remove, km.GiveSeat):
		// A person loses their seat: ask first (a bot's seat goes at once).
		if seats := t.u.Table.Seats; t.seatSel < len(seats) && !seats[t.seatSel].Bot && t.seatSel != t.u.Seat {
			m.question = question{confirm: confirmRemove, seat: t.seatSel, player: seats[t.seatSel].Name}
			return nil
		}
		report(lobby.Run(mem, lobby.Kick{Seat: t.seatSel}), "")
	case key.Matches(k, km.StandIn):
		report(lobby.Run(mem, lobby.StandIn{Seat: t.seatSel}), "")
	case key.Matches(k, km.TakeSeat):
		report(lobby.Run(mem, lobby.TakeSeat{}), "")
	case key.Matches(k, km.MakeHost):
		report(lobby.Run(mem, lobby.MakeHost{Seat: t.seatSel}), "")
	case key.Matches(k, km.Close):
		m.question = question{confirm: confirmClose}
	case key.Matches(k, km.ChatScroll):
		t.scroll = max(0, t.scroll-5*step(k)) // back, up the chat, for pgup
	default:
		t.notTheHost(m, k)
	}
	return nil
}

// notTheHost tells a player who pressed one of the host's keys, which the room offers
// the host alone, that they are not the host.
func (t *tableScreen) notTheHost(m *Model, k tea.KeyPressMsg) {
	all := roomBindings // every key, enabled
	switch {
	case t.u.Host:
	case key.Matches(k, all.Change) && len(t.u.Table.Choices) > 0:
		m.setStatus("Only the host can change the options.", true)
	case key.Matches(k, all.Start, all.AddBot, all.Remove, all.StandIn, all.MakeHost, all.Close):
		m.setStatus(t.refusal(lobby.ErrNotHost), true)
	}
}

func (t *tableScreen) renderRoom(m *Model, w, h int) []string { return t.drawnRoom(m, w, h, true) }

// drawnRoom draws the room. Whether the seats column has room for every seat decides
// whether ↑↓ bring the others into view for a player who is not the host, and so
// whether the footer offers them, which the column's room depends on in turn: when it
// changes, the room is drawn again, once (again false), with the footer that says so.
func (t *tableScreen) drawnRoom(m *Model, w, h int, again bool) []string {
	info := t.u.Table
	spec, _ := rules.Lookup(info.Game)
	right := fmt.Sprintf("%d watching · %s", info.Spectators, t.who(m))
	out := []string{m.title(w, fmt.Sprintf("%s · table %s · %s", info.GameName, info.Code, info.State), right)}
	status := m.statusLines(w, statusMax, t.hint(info))
	out = append(out, status...)

	leftW := 34
	focus := func(p int, title string) string {
		if t.panel == p {
			return headStyle.Paint("▸ " + title)
		}
		return headStyle.Paint("  " + title)
	}
	seats := []string{focus(panelSeats, fmt.Sprintf("Seats %d/%d", len(info.Seats), info.MaxPlayers)) + dimStyle.Paint(fmt.Sprintf(" (%s)", playerRange(info.MinPlayers, info.MaxPlayers)))}
	foot, seatKeysIn := t.roomFooter(w)
	seatHead := 1 // the heading, and the seat keys under it
	if keys := t.seatKeys(); keys != nil && !seatKeysIn {
		// What the host may do with the seat picked below (▸), where the footer has no
		// room for it.
		for _, l := range footerLines(leftW-2, keys...) {
			seats = append(seats, "  "+l)
			seatHead++
		}
	}
	for i, s := range info.Seats {
		// The marks say what the seat is (team, host, bot, away and for how long, you): a
		// long name gives way to them rather than cut them, down to seatNameMin columns;
		// past that the host's and a guest's marks shorten.
		num := fmt.Sprintf("%*d", len(strconv.Itoa(len(info.Seats))), i+1) // "9" and "10" line up
		plain := s.Name
		var marks string
		for _, short := range []bool{false, true} {
			marks = seatMarks(s, i == t.u.Seat, m.now, short)
			if leftW-len("  "+num+" ")-rules.Width(marks) >= min(rules.Width(plain), seatNameMin) {
				break
			}
		}
		if room := leftW - len("  "+num+" ") - rules.Width(marks); rules.Width(plain) > room {
			plain = ansi.Truncate(plain, max(1, room), "…")
		}
		name := gameui.SeatInk(i).Paint(plain)
		line := fmt.Sprintf("  %s %s%s", num, name, dimStyle.Paint(marks))
		if t.panel == panelSeats && i == t.seatSel && t.u.Host {
			line = selStyle.Paint(fit(fmt.Sprintf(" ▸%s %s%s", num, plain, marks), leftW))
		}
		seats = append(seats, line)
	}
	// The chat takes the lines it has (at least 3, at most half, and no more than the
	// seats leave); seats, options and rules the rest.
	// The chat is the same for everyone at the table: drawn once per table state.
	chatLines := t.u.Shared.Remember(roomChat{w}, func() any { return t.chatLines(w) }).([]string)
	// Besides the footer: the title, the hint (or a notice), the chat's heading and its
	// input line.
	free := h - 3 - len(status) - len(foot)
	rightW := w - leftW - 2
	var opts []string
	if spec != nil {
		// An option that ←→ change is picked with ‹ ›; while a game runs none can
		// change, and the heading says so in words, which need no colour.
		heading := "Options"
		if t.playing() {
			heading = "Options (locked until the game ends)"
		}
		opts = append(opts, focus(panelOptions, heading))
		changeable := t.roomKeymap().Change.Enabled()
		for i, o := range info.Choices {
			// A long value (a pack's name) keeps its start and its end, and a selected
			// row its ›.
			sel := changeable && i == t.optSel
			room := rightW - 23 // "  ", the name's 20 columns and a space
			if sel {
				room -= 2 // " ›"
			}
			line := fmt.Sprintf("%-20s %s", o.Name, gameui.CutMiddle(info.Options[o.Key], room))
			if sel {
				line = selStyle.Paint("‹ " + line + " ›")
			} else {
				line = "  " + line
			}
			opts = append(opts, line)
		}
		if info.Result != nil {
			opts = append(opts, headStyle.Paint("  Last game: ")+info.Result.Summary)
		}
	}
	chatH := max(3, min(len(chatLines), free/2, free-len(seats)))
	if need := len(opts) + 2 + rulesMinLines; spec != nil && need > free-chatH { // as rulesH reckons below
		// The chat's empty lines (down to two) give way to the rules beside the options.
		chatH = max(free-need, min(chatH, max(len(chatLines), 2)))
	}
	topH := free - chatH
	cut := seatsWindowed(len(seats), seatHead, topH)
	if cut != t.seatsCut {
		t.seatsCut = cut
		if again && !t.u.Host {
			return t.drawnRoom(m, w, h, false)
		}
	}
	seats = seatWindow(seats, seatHead, t.seatSel, topH)
	if spec != nil {
		rulesH := topH - len(opts) - 2
		t.rulesShown = rulesH >= rulesMinLines
		if !t.rulesShown {
			// A title and a sentence or two of the rules would say nothing: say where
			// they are whole.
			opts = append(opts, focus(panelRules, "Rules")+dimStyle.Paint(" · press ? to read them"))
		} else {
			rp := t.rulesPager()
			rp.set(specRules(spec, rightW-2), rightW-2, rulesH)
			head := "Rules · " + rp.position() + rulesHint(t.panel == panelRules)
			if rules.Width(head)+2 > rightW {
				head = "Rules · " + rp.percent() + rulesHint(t.panel == panelRules) // the key, not the line numbers
			}
			title, rest, _ := strings.Cut(head, " ")
			opts = append(opts, focus(panelRules, title)+dimStyle.Paint(" "+rest))
			for _, l := range rp.view() {
				opts = append(opts, "  "+l)
			}
		}
	}
	out = append(out, columns(2, blockOf(seats, leftW, topH), blockOf(opts, rightW, topH))...)

	out = append(out, fit(headStyle.Paint("Chat")+dimStyle.Paint(" · pgup/pgdn scroll"), w))
	lines := chatLines
	end := max(0, len(lines)-t.scroll)
	start := max(0, end-chatH)
	out = append(out, blockOf(lines[start:end], w, chatH)...)
	if t.chatting {
		out = append(out, fit("say: "+t.chatBox().view(w-6, m.plain), w))
	} else {
		out = append(out, fit(dimStyle.Paint("press enter to chat"), w))
	}
	return append(out, foot...)
}

// seatWindow is the seats column in h lines: its head lines, then as many seats as
// fit around the picked one (sel), with a line saying how many more are above or below
// (Quadrant seats 14, more than an 80×24 room has lines for beside a busy chat).
func seatWindow(lines []string, head, sel, h int) []string {
	if !seatsWindowed(len(lines), head, h) {
		return lines
	}
	rows := lines[head:]
	room := h - head
	first := min(max(0, sel-room/2), len(rows)-room)
	last := first + room // rows[first:last] fit; an end that hides seats says so instead
	if first > 0 {
		first++
	}
	if last < len(rows) {
		last--
	}
	out := slices.Clone(lines[:head])
	if first > 0 {
		out = append(out, dimStyle.Paint(fmt.Sprintf("  ↑ %d more", first)))
	}
	out = append(out, rows[first:last]...)
	if last < len(rows) {
		out = append(out, dimStyle.Paint(fmt.Sprintf("  ↓ %d more", len(rows)-last)))
	}
	return out
}

// seatsWindowed says whether seatWindow shows n lines, head of them the heading's, in h
// lines by a window on the seats: they do not fit, and the window has room to show some.
func seatsWindowed(n, head, h int) bool {
	return n-head > h-head && h-head >= 3
}

// rulesMinLines is the fewest lines of rules the room shows beside the options; with
// less room it sends the player to the help, where they are whole.
const rulesMinLines = 4

// rulesHint is the rules' heading's hint: how to scroll them, until they are in focus
// and the footer shows the scrolling keys.
func rulesHint(focused bool) string {
	if focused {
		return ""
	}
	return " · tab: scroll"
}

// hint tells the player what happens next at the table.
func (t *tableScreen) hint(info lobby.TableInfo) string {
	n := len(info.Seats)
	switch {
	case t.botPlaysForMe():
		return errStyle.Paint(botPlaysNote)
	case info.State == lobby.StatePlaying && t.u.View != nil && contains(t.u.View.Head().Waiting, t.gameSeat()):
		return okStyle.Paint("The game is waiting for you: press esc to go back to it. ") + t.u.View.Head().Prompt
	case info.State == lobby.StatePlaying && t.u.Seat < 0:
		return "You are watching: press esc to go back to the game. You can take a seat when it ends."
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

// roomKeymap is every key the room handles. Each is enabled when it does something for
// this player in the room as it is now (roomKeymap): the room matches keys with them
// (roomKey), and the footer, the seats panel and the help list the enabled ones, so
// that no key is shown that does not work, nor works unshown. Where two keys share a
// key (↑↓ for seats, options or the rules), at most one of them is enabled.
type roomKeymap struct {
	Scroll     key.Binding // the rules, in focus
	Back       key.Binding // to the game
	Packs      key.Binding
	Start      key.Binding
	AddBot     key.Binding
	Seat       key.Binding // the host picks a seat for the seat keys
	MoreSeats  key.Binding // anyone else brings the seats the column has no room for into view
	Option     key.Binding // pick an option
	StandIn    key.Binding // the seat keys, for the picked seat: while a game runs,
	GiveSeat   key.Binding
	Remove     key.Binding // or before it
	MakeHost   key.Binding
	Choose     key.Binding // change the picked option, from another panel
	Change     key.Binding // change it, in the options panel
	Close      key.Binding
	TakeSeat   key.Binding
	Panel      key.Binding
	Leave      key.Binding
	Chat       key.Binding // shown in place: "press enter to chat"
	ChatScroll key.Binding // shown in place: "Chat · pgup/pgdn scroll"
}

// roomBindings are the room's keys, every one enabled: made once, for the room is drawn
// again for every seat at each join, and its footer with it. The other keys of a
// binding are ways to do the same that its help does not name (k and j for ↑ and ↓,
// "/" for enter), in the order its step takes them.
var roomBindings = roomKeymap{
	Scroll:     bind("↑↓ pgup pgdn", "scroll", "up", "k", "down", "j", "pgup", "pgdown", "home", "end"),
	Back:       bind("esc", "the game", "esc"),
	Packs:      bind("p", "share your packs", "p"),
	Start:      bind("s", "start", "s"),
	AddBot:     bind("b", "add bot", "b"),
	Seat:       bind("↑↓", "seat", "up", "k", "down", "j"),
	MoreSeats:  bind("↑↓", "more seats", "up", "k", "down", "j"),
	Option:     bind("↑↓", "option", "up", "k", "down", "j"),
	StandIn:    bind("a", "bot plays for them", "a"),
	GiveSeat:   bind("x", "bot takes seat", "x"),
	Remove:     bind("x", "remove", "x"),
	MakeHost:   bind("H", "make host", "H"),
	Choose:     bind("←→", "option", "left", "h", "right", "l"),
	Change:     bind("←→", "change", "left", "h", "right", "l"),
	Close:      bind("C", "close", "C"),
	TakeSeat:   bind("t", "take a seat", "t"),
	Panel:      bind("tab", "next panel", "tab", "shift+tab"),
	Leave:      bind("q", "leave", "q"),
	Chat:       bind("enter", "chat", "enter", "/"),
	ChatScroll: bind("pgup pgdn", "scroll the chat", "pgup", "ctrl+b", "pgdown", "ctrl+f"),
}

// roomKeymap is the room's keys, each enabled when it works now. ↑↓ do what the panel
// in focus does: move between seats, pick an option (←→ then change it), or scroll the
// rules, whose pgup and pgdn are not the chat's then.
func (t *tableScreen) roomKeymap() roomKeymap {
	km := roomBindings
	host, playing := t.u.Host, t.playing()
	seats, choices := t.u.Table.Seats, len(t.u.Table.Choices) > 0
	s := t.seat()
	km.Scroll.SetEnabled(t.panel == panelRules) // for every seat, host or not
	km.Back.SetEnabled(t.u.View != nil)
	// A guest has no packs to share (they are kept under an SSH key).
	km.Packs.SetEnabled(!playing && s >= 0 && s < len(seats) && !seats[s].Guest &&
		slices.ContainsFunc(t.u.Table.Choices, func(o rules.Option) bool { return o.Key == lobby.OptDeck }))
	km.Start.SetEnabled(host && !playing)
	km.AddBot.SetEnabled(host && !playing)
	km.Seat.SetEnabled(host && t.panel == panelSeats)
	km.MoreSeats.SetEnabled(!host && t.panel == panelSeats && t.seatsCut)
	km.Option.SetEnabled(host && !playing && choices && t.panel == panelOptions)
	km.StandIn.SetEnabled(host && playing)
	km.GiveSeat.SetEnabled(host && playing)
	km.Remove.SetEnabled(host && !playing)
	km.MakeHost.SetEnabled(host)
	km.Choose.SetEnabled(host && !playing && choices && t.panel != panelOptions)
	km.Change.SetEnabled(host && !playing && choices && t.panel == panelOptions)
	km.Close.SetEnabled(host)
	km.TakeSeat.SetEnabled(s < 0 && !playing)
	km.ChatScroll.SetEnabled(t.panel != panelRules)
	return km
}

// roomKeys are the room's keys, most important first: the footer's, then those the
// screen shows where they act (the help lists them all).
func (t *tableScreen) roomKeys() []key.Binding {
	km := t.roomKeymap()
	return appendEnabled(slices.Concat(t.roomFooterKeys(nil), t.hostSeatKeys()), km.Chat, km.ChatScroll)
}

// seatKeys are the host's keys for the seat picked in the seats panel (▸), while the
// panel is in focus (the screen shows them then).
func (t *tableScreen) seatKeys() []key.Binding {
	if t.panel != panelSeats {
		return nil
	}
	return t.hostSeatKeys()
}

// hostSeatKeys are the host's keys for the picked seat, whatever is in focus (the help
// lists them always); nil for another player.
func (t *tableScreen) hostSeatKeys() []key.Binding {
	mask := 0
	for i, b := range t.roomKeymap().seatKeys() {
		if b.Enabled() {
			mask |= 1 << i
		}
	}
	return seatKeyLists[mask]
}

// seatKeys are the seat keys, in the order the screen lists them.
func (km roomKeymap) seatKeys() [4]key.Binding {
	return [4]key.Binding{km.StandIn, km.GiveSeat, km.Remove, km.MakeHost}
}

// seatKeyLists are the lists of seat keys, one for each set of them that can be enabled
// (bit i for seatKeys()[i]), made once: the host's room lists them at each join, and a
// list made then would be garbage. Nobody may change them.
var seatKeyLists = func() (lists [1 << 4][]key.Binding) {
	for mask := range lists {
		for i, b := range roomBindings.seatKeys() {
			if mask&(1<<i) != 0 {
				lists[mask] = append(lists[mask], b)
			}
		}
	}
	return lists
}()

// roomFooter is the room's footer at width w: its keys with the seat keys when two
// lines hold them all, or else without them (seatKeysIn false: the seats panel shows
// them under its heading), so that no key is ever cut.
func (t *tableScreen) roomFooter(w int) (lines []string, seatKeysIn bool) {
	if t.chatting {
		return footerLines(w, chatTypingKeys...), false
	}
	if seat := t.seatKeys(); seat != nil {
		lines := footerLines(w, t.roomFooterKeys(seat)...)
		if !strings.HasSuffix(strings.TrimRight(ansi.Strip(lines[len(lines)-1]), " "), "…") {
			return lines, true
		}
	}
	return footerLines(w, t.roomFooterKeys(nil)...), false
}

// roomFooterKeys are the room's footer: its enabled keys but those shown in place (the
// chat's), with seat, the seat keys, after ↑↓.
func (t *tableScreen) roomFooterKeys(seat []key.Binding) []key.Binding {
	km := t.roomKeymap()
	keys := make([]key.Binding, 0, 16)
	keys = append(keys, helpKey)
	keys = appendEnabled(keys, km.Scroll, km.Back, km.Packs, km.Start, km.AddBot, km.Seat, km.MoreSeats, km.Option)
	keys = append(keys, seat...)
	return appendEnabled(keys, km.Choose, km.Change, km.Close, km.TakeSeat, km.Panel, km.Leave)
}

// seatNameMin is the fewest columns of a name the room's seat line keeps beside its
// marks before it shortens them.
const seatNameMin = 8

// seatMarks say what a seat is in the room, after its name: " team A ★host (guest) ← you";
// short, " team A ★ ← you" (a guest's mark goes: the least the table needs to know).
func seatMarks(s lobby.SeatInfo, you bool, now time.Time, short bool) string {
	marks := ""
	if s.Team != "" {
		marks += " team " + s.Team
	}
	if s.Host && short {
		marks += " ★"
	} else if s.Host {
		marks += " ★host"
	}
	switch {
	case s.Bot:
		marks += " (bot)"
	case s.Away:
		marks += " (" + awayFor(s, now) + ")"
	case s.StandIn:
		marks += " (a bot plays)" // for a player who is here: until they press a key
	case s.Guest && !short:
		marks += " (guest)"
	}
	if you {
		marks += " ← you"
	}
	return marks
}
