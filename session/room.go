package session

// The room: the table's seats, options and rules, its chat, and the host's controls,
// before a game and over a running one (esc).

import (
	"charm.land/bubbles/v2/key"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

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
		for _, l := range wrapKeys(leftW-2, keys) {
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
			if slices.Contains(t.u.Ignored, s.Name) {
				marks += " (ignored)" // words: colour is never the only cue
			}
			if leftW-len("  "+num+" ")-rules.Width(marks) >= min(rules.Width(plain), seatNameMin) {
				break
			}
		}
		if room := leftW - len("  "+num+" ") - rules.Width(marks); rules.Width(plain) > room {
			plain = ansi.Truncate(plain, max(1, room), "…")
		}
		name := gameui.SeatInk(i).Paint(plain)
		line := fmt.Sprintf("  %s %s%s", num, name, dimStyle.Paint(marks))
		if t.panel == panelSeats && i == t.seatSel && (t.u.Host || t.mod.picked) {
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
		label := t.mod.boxLabel() // "say: ", or what a report's or an unblock's box is for
		out = append(out, fit(label+t.chatBox().view(w-rules.Width(label)-1, m.plain), w))
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
	case len(info.Blocked) > 0:
		return fmt.Sprintf("Blocked here: %s (U unblocks).", strings.Join(info.Blocked, ", "))
	case n < info.MinPlayers && t.web != nil:
		return fmt.Sprintf("Share the code %s or the link %s with friends, or add bots with b: %s are needed.",
			info.Code, t.web("/t/"+info.Code), playerRange(info.MinPlayers, info.MaxPlayers))
	case n < info.MinPlayers:
		return fmt.Sprintf("Share the code %s with friends, or add bots with b: %s are needed.", info.Code, playerRange(info.MinPlayers, info.MaxPlayers))
	default:
		return "Everyone here? Press s to start the game."
	}
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
	if s.More > 1 {
		marks += " " + s.More.String() // more time (ExtraTime), in words in the help
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

// wrapKeys lays keys out on as many lines of width w as they need, none cut: the seat
// keys under the seats panel's heading, where the footer has no room for them.
func wrapKeys(w int, keys []key.Binding) []string {
	var out []string
	for i := 0; i < len(keys); {
		n := len(keys) - i
		for ; n > 1; n-- {
			if line := gameui.Footer(w, keys[i:i+n]...); !strings.HasSuffix(strings.TrimRight(ansi.Strip(line), " "), "…") {
				break
			}
		}
		out = append(out, gameui.Footer(w, keys[i:i+n]...))
		i += n
	}
	return out
}
