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

func (t *tableScreen) roomKey(m *Model, k tea.KeyPressMsg) tea.Cmd {
	mem := t.member
	key := k.String()
	report := func(err error, ok string) {
		if err != nil {
			m.setStatus(t.refusal(err), true)
		} else if ok != "" {
			m.setStatus(ok, false)
		}
	}
	if t.panel == panelRules && t.rulesPager().key(k) {
		return nil
	}
	switch key {
	case "enter", "/":
		t.chatting = true
	case "esc":
		if t.u.View != nil {
			t.room = false
		}
	case "q":
		return t.leave(m)
	case "tab", "shift+tab":
		d := 1
		if key == "shift+tab" {
			d = panels - 1
		}
		if t.panel = (t.panel + d) % panels; t.panel == panelRules && !t.rulesShown {
			t.panel = (t.panel + d) % panels
		}
	case "up", "k":
		if t.panel == panelSeats && t.seatSel > 0 {
			t.seatSel--
		} else if t.panel == panelOptions && t.optSel > 0 {
			t.optSel--
		}
	case "down", "j":
		if t.panel == panelSeats && t.seatSel < len(t.u.Table.Seats)-1 {
			t.seatSel++
		} else if t.panel == panelOptions && t.optSel < len(t.u.Table.Choices)-1 {
			t.optSel++
		}
	case "left", "right", "h", "l":
		if len(t.u.Table.Choices) == 0 {
			return nil
		}
		if !t.u.Host {
			m.setStatus("Only the host can change the options.", true)
			return nil
		}
		t.panel = panelOptions
		t.optSel = min(t.optSel, len(t.u.Table.Choices)-1)
		opt := t.u.Table.Choices[t.optSel]
		d := 1
		if key == "left" || key == "h" {
			d = -1
		}
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
	case "s":
		report(lobby.Run(mem, lobby.Start{}), "")
	case "b":
		report(lobby.Run(mem, lobby.AddBot{}), "")
	case "p":
		if n, err := lobby.Do(mem, lobby.ShareAll{}); err != nil {
			report(err, "")
		} else {
			report(nil, fmt.Sprintf("You shared %d pack(s) with the table: the host can choose them as the deck.", n.Count))
		}
	case "x":
		// A person loses their seat: ask first (a bot's seat goes at once).
		if seats := t.u.Table.Seats; t.u.Host && t.seatSel < len(seats) && !seats[t.seatSel].Bot && t.seatSel != t.u.Seat {
			m.question = question{confirm: confirmRemove, seat: t.seatSel, player: seats[t.seatSel].Name}
			return nil
		}
		report(lobby.Run(mem, lobby.Kick{Seat: t.seatSel}), "")
	case "a":
		report(lobby.Run(mem, lobby.StandIn{Seat: t.seatSel}), "")
	case "t":
		report(lobby.Run(mem, lobby.TakeSeat{}), "")
	case "H":
		report(lobby.Run(mem, lobby.MakeHost{Seat: t.seatSel}), "")
	case "C":
		if !t.u.Host {
			report(lobby.ErrNotHost, "")
			return nil
		}
		m.question = question{confirm: confirmClose}
	case "pgup", "ctrl+b":
		t.scroll += 5
	case "pgdown", "ctrl+f":
		t.scroll = max(0, t.scroll-5)
	}
	return nil
}

func (t *tableScreen) renderRoom(m *Model, w, h int) []string {
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
		opts = append(opts, focus(panelOptions, "Options"))
		for i, o := range info.Choices {
			// A long value (a pack's name) keeps its start and its end, and a selected
			// row its ›.
			sel := t.panel == panelOptions && i == t.optSel && t.u.Host
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
	rows := lines[head:]
	room := h - head
	if len(rows) <= room || room < 3 {
		return lines
	}
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

// roomKeys are the table screen's keys, most important first: the footer's, then those
// the screen shows where they act (the help lists them all).
func (t *tableScreen) roomKeys() []key.Binding {
	return slices.Concat(t.roomFooterKeys(nil), t.hostSeatKeys(), roomInPlace)
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
// lists them always).
func (t *tableScreen) hostSeatKeys() []key.Binding {
	switch {
	case !t.u.Host:
		return nil
	case t.playing():
		return roomHostPlaying
	}
	return roomHostWaiting
}

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

// roomInPlace are the room's keys that its chat shows in place: its heading says
// pgup/pgdn scroll and the line below it "press enter to chat". The footer leaves them
// out, which lets the others fit on two lines at 80 columns.
var roomInPlace = []key.Binding{bind("enter", "chat", "enter"), bind("pgup pgdn", "scroll the chat", "pgup", "pgdown")}

var roomPanel = bind("tab", "next panel", "tab")

// The waiting room's keys, made once: the room is drawn again for every seat at each
// join, and its footer with it.
var (
	roomBackKey      = bind("esc", "the game", "esc")
	roomPacksKey     = bind("p", "share your packs", "p")
	roomSeatKey      = bind("↑↓", "seat", "up", "down")
	roomPickKey      = bind("↑↓", "option", "up", "down")
	roomOptionKey    = bind("←→", "option", "left", "right")
	roomChangeKey    = bind("←→", "change", "left", "right")
	roomScrollKey    = bind("↑↓ pgup pgdn", "scroll", "up", "down", "pgup", "pgdown", "home", "end") // with the rules in focus
	roomMakeHostKey  = bind("H", "make host", "H")
	roomCloseKey     = bind("C", "close", "C")
	roomHostPlaying  = []key.Binding{bind("a", "bot plays for them", "a"), bind("x", "bot takes seat", "x"), roomMakeHostKey}
	roomHostWaiting  = []key.Binding{bind("x", "remove", "x"), roomMakeHostKey}
	roomHostStarting = []key.Binding{bind("s", "start", "s"), bind("b", "add bot", "b")}
	roomTakeSeatKey  = bind("t", "take a seat", "t")
	roomLeaveKey     = bind("q", "leave", "q")
)

// roomFooterKeys are the waiting room's keys. ↑↓ do what the panel in focus does: move
// between seats, pick an option (←→ then change it), or scroll the rules; the footer
// says which.
func (t *tableScreen) roomFooterKeys(seat []key.Binding) []key.Binding {
	nav, lr := roomSeatKey, roomOptionKey
	switch t.panel {
	case panelOptions:
		nav, lr = roomPickKey, roomChangeKey
	case panelRules:
		nav = roomScrollKey
	}
	keys := make([]key.Binding, 0, 16)
	keys = append(keys, helpKey)
	if t.panel == panelRules {
		keys = append(keys, nav) // for every seat, host or not
	}
	if t.u.View != nil {
		keys = append(keys, roomBackKey)
	}
	// A guest has no packs to share (they are kept under an SSH key).
	if s := t.seat(); !t.playing() && s >= 0 && s < len(t.u.Table.Seats) && !t.u.Table.Seats[s].Guest &&
		slices.ContainsFunc(t.u.Table.Choices, func(o rules.Option) bool { return o.Key == lobby.OptDeck }) {
		keys = append(keys, roomPacksKey)
	}
	if t.u.Host {
		if !t.playing() {
			keys = append(keys, roomHostStarting...)
		}
		if t.panel != panelRules {
			keys = append(keys, nav)
		}
		keys = append(keys, seat...)
		if !t.playing() {
			keys = append(keys, lr)
		}
		keys = append(keys, roomCloseKey)
	}
	if t.u.Seat < 0 && !t.playing() {
		keys = append(keys, roomTakeSeatKey)
	}
	return append(keys, roomPanel, roomLeaveKey)
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
