package session

// The room's keys: its keymap, each key enabled when it works for this player now, how
// the room handles them, and the footer and the help that list them.

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/lobby"
	"parlor/rules"
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
		t.mod.picked = true // a player who is not the host sees the seat they picked
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
		seats := t.u.Table.Seats
		switch {
		case t.seatSel == t.u.Seat:
			report(nil, "You are the host: pick another player's seat (↑↓) to hand the role to them.")
		case t.seatSel < 0 || t.seatSel >= len(seats) || seats[t.seatSel].Bot:
			report(lobby.Run(mem, lobby.MakeHost{Seat: t.seatSel}), "") // the table says why not
		default:
			// The role goes for good (it does not come back by itself): ask first.
			m.question = question{confirm: confirmMakeHost, seat: t.seatSel, player: seats[t.seatSel].Name}
		}
	case key.Matches(k, km.MoreTime):
		s := t.u.Table.Seats[t.seatSel]
		f := nextFactor(s.More)
		if err := lobby.Run(mem, lobby.ExtraTime{Seat: t.seatSel, Factor: f}); err != nil {
			report(err, "")
		} else if f > 1 {
			report(nil, fmt.Sprintf("%s has %s time in every timed phase (T again for more, then back to ×1).", s.Name, f))
		} else {
			report(nil, s.Name+" plays at the table's own time limits again.")
		}
	case key.Matches(k, km.Close):
		m.question = question{confirm: confirmClose}
	case key.Matches(k, km.Block, km.Unblock, km.Ignore, km.Report):
		t.moderate(m, k.String())
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
	case key.Matches(k, all.Start, all.AddBot, all.Remove, all.StandIn, all.MakeHost, all.MoreTime, all.Close):
		m.setStatus(t.refusal(lobby.ErrNotHost), true)
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
	MoreTime   key.Binding // the host gives the picked seat more time: ×1.5, ×2, ×3, then ×1 again
	Choose     key.Binding // change the picked option, from another panel
	Change     key.Binding // change it, in the options panel
	Block      key.Binding // the host blocks the picked seat's player (moderation.go)
	Ignore     key.Binding // anyone ignores the picked seat's chat, or shows it again
	Report     key.Binding // anyone reports the picked seat's player to the admins
	Close      key.Binding
	Unblock    key.Binding // the host lets a blocked player back, by name
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
	MoreTime:   bind("T", "more time for the picked seat: ×1.5, ×2, ×3, then ×1", "T"),
	Choose:     bind("←→", "option", "left", "h", "right", "l"),
	Change:     bind("←→", "change", "left", "h", "right", "l"),
	Block:      bind("B", "block", "B"),
	Ignore:     bind("I", "ignore", "I"),
	Report:     bind("R", "report", "R"),
	Close:      bind("C", "close", "C"),
	Unblock:    bind("U", "unblock", "U"),
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
	// A player who is not the host picks a seat too, to ignore or report its player;
	// ↑↓ say "more seats" when the column cannot show them all.
	km.Seat.SetEnabled(t.panel == panelSeats && len(seats) > 1 && (host || !t.seatsCut))
	km.MoreSeats.SetEnabled(!host && t.panel == panelSeats && t.seatsCut)
	km.Option.SetEnabled(host && !playing && choices && t.panel == panelOptions)
	km.StandIn.SetEnabled(host && playing)
	km.GiveSeat.SetEnabled(host && playing)
	km.Remove.SetEnabled(host && !playing)
	km.MakeHost.SetEnabled(host)
	km.MoreTime.SetEnabled(host && t.seatSel >= 0 && t.seatSel < len(seats) && !seats[t.seatSel].Bot)
	km.Choose.SetEnabled(host && !playing && choices && t.panel != panelOptions)
	km.Change.SetEnabled(host && !playing && choices && t.panel == panelOptions)
	km.Close.SetEnabled(host)
	other := t.seatSel >= 0 && t.seatSel < len(seats) && t.seatSel != s && !seats[t.seatSel].Bot
	picked := t.panel == panelSeats && (host || t.mod.picked) && other
	km.Block.SetEnabled(host && picked)
	km.Ignore.SetEnabled(picked)
	km.Report.SetEnabled(picked)
	km.Unblock.SetEnabled(host && len(t.u.Table.Blocked) > 0)
	km.TakeSeat.SetEnabled(s < 0 && !playing)
	km.ChatScroll.SetEnabled(t.panel != panelRules)
	return km
}

// roomKeys are the room's keys, most important first: the footer's, then those the
// screen shows where they act (the help lists them all).
func (t *tableScreen) roomKeys() []key.Binding {
	km := t.roomKeymap()
	// More time acts on the picked seat, but only the help lists it: the host's footer
	// and the seats panel's column are full, and it is seldom used. The seat list shows
	// a seat's factor ("×2"), and the help says what T does.
	return appendEnabled(slices.Concat(t.roomFooterKeys(nil), t.hostSeatKeys()), km.MoreTime, km.Chat, km.ChatScroll)
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
func (km roomKeymap) seatKeys() [7]key.Binding {
	return [7]key.Binding{km.StandIn, km.GiveSeat, km.Remove, km.MakeHost, km.Block, km.Ignore, km.Report}
}

// seatKeyLists are the lists of seat keys, one for each set of them that can be enabled
// (bit i for seatKeys()[i]), made once: the host's room lists them at each join, and a
// list made then would be garbage. Nobody may change them.
var seatKeyLists = func() (lists [1 << 7][]key.Binding) {
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
	return appendEnabled(keys, km.Choose, km.Change, km.Close, km.Unblock, km.TakeSeat, km.Panel, km.Leave)
}

// nextFactor is the time factor the host's T gives a seat that has more (zero: ×1):
// the next of rules.Factors, and after the last, ×1 again.
func nextFactor(more rules.Factor) rules.Factor {
	fs := rules.Factors
	for i, f := range fs {
		if f == max(more, 1) && i+1 < len(fs) {
			return fs[i+1]
		}
	}
	return fs[0]
}
