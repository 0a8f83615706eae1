package session

// The game's chrome: what the table draws around a game's own screen (the title with the
// round and the time left, the prompt or a notice, who holds the game up, the feed's
// lines, the footer), and the keys it adds to the game's.

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/rules"
	"parlor/session/gameui"
)

// toGame passes a key or paste to the game screen and sends the action it makes.
func (t *tableScreen) toGame(m *Model, msg tea.Msg) tea.Cmd {
	action, cmd := t.game.Update(msg)
	if action != nil {
		return tea.Batch(cmd, t.send(m, action))
	}
	return cmd
}

// chromeKeymap is the keys the chrome adds to a game screen's (gameui.TableBindings),
// enabled while the game takes keys: while its text box has focus every key is the
// game's, and its footer leaves them out (gameui.GameFooter).
type chromeKeymap struct{ Chat, Log, Table, Leave key.Binding }

// chromeKeymap is the chrome's keys as the game screen is now.
func (t *tableScreen) chromeKeymap() chromeKeymap {
	km := chromeKeymap(gameui.TableBindings)
	on := !t.game.Typing()
	km.Chat.SetEnabled(on)
	km.Log.SetEnabled(on)
	km.Table.SetEnabled(on)
	km.Leave.SetEnabled(on)
	return km
}

// gameChromeKeys are the table's keys on a game screen, after the game's own, as the
// help lists them: at more length than the footer's word.
func (t *tableScreen) gameChromeKeys() []key.Binding {
	km := t.chromeKeymap()
	return appendEnabled(nil, km.Chat, helpSays(km.Log, "view the whole log"),
		helpSays(km.Table, "the table: seats, options, rules, chat"), helpSays(km.Leave, "leave the game (asks first)"))
}

// chromeKey handles a key on a game screen: the chrome's, or else the game's.
func (t *tableScreen) chromeKey(m *Model, k tea.KeyPressMsg) tea.Cmd {
	km := t.chromeKeymap()
	switch {
	case key.Matches(k, km.Chat):
		t.chatting = true
	case key.Matches(k, km.Log):
		t.logOpen = true
		t.log = newPager()
		t.log.scroller().GotoBottom()
	case key.Matches(k, km.Table):
		t.room = true
	case key.Matches(k, km.Leave):
		return t.leave(m)
	default:
		return t.toGame(m, k)
	}
	return nil
}

// heldUpNote is what the game screen says, where the prompt is, of the players here a
// game with no clock has waited for over a minute (lobby.TableInfo.HeldUpBy): the host's
// way on, or that the host has one, or, when it is the host, a nudge. A player it waits
// for reads their own prompt.
func (t *tableScreen) heldUpNote() string {
	held := t.u.Table.HeldUpBy
	if len(held) == 0 || !t.playing() || t.u.View == nil || contains(held, t.u.Seat) {
		return ""
	}
	var names []string
	host := ""
	for _, i := range held {
		if i < 0 || i >= len(t.u.Table.Seats) {
			continue
		}
		if s := t.u.Table.Seats[i]; s.Host {
			host = s.Name
		} else {
			names = append(names, s.Name)
		}
	}
	var notes []string
	if len(names) > 0 {
		verb := "has"
		if len(names) > 1 {
			verb = "have"
		}
		way := "the host can let a bot play for them."
		if t.u.Host {
			way = "press esc, pick their seat (tab, ↑↓), then a: a bot plays for them."
		}
		notes = append(notes, fmt.Sprintf("%s %s kept the table waiting over a minute: %s", rules.List(names), verb, way))
	}
	if host != "" {
		notes = append(notes, fmt.Sprintf("%s, the host, has kept the table waiting over a minute: nudge them in the chat (/).", host))
	}
	return strings.Join(notes, " ")
}

// sentence ends s with a full stop unless it ends a sentence already, so that what
// follows it starts a sentence of its own.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if last, _ := utf8.DecodeLastRuneInString(s); s == "" || strings.ContainsRune(".!?:…", last) {
		return s
	}
	return s + "."
}

// sidePanelFrom is the terminal width from which the game screen shows the log and chat
// in a side panel, leaving the game a full 80×(h-4) area beside it; the panel is
// sidePanelW wide there, and takes a quarter of every column past it, up to sidePanelMax.
const (
	sidePanelFrom = 120
	sidePanelW    = 36
	sidePanelMax  = 60
)

// sideWidth is the side panel's width on a terminal w wide.
func sideWidth(w int) int { return min(sidePanelMax, sidePanelW+(w-sidePanelFrom)/4) }

// hasClock reports whether the game screen's title bar shows the time left.
func (t *tableScreen) hasClock() bool {
	if !t.showGame() || t.logOpen {
		return false
	}
	head := t.u.View.Head()
	return !head.Over && !head.Deadline.IsZero()
}

// titleBar is the game screen's title: the game, the table, the round, the time left
// and who the viewer is.
func (t *tableScreen) titleBar(m *Model, w int, head rules.Header) string {
	left := fmt.Sprintf("%s · table %s", t.u.Table.GameName, t.u.Table.Code)
	if head.Round > 0 {
		left += " · " + roundOf(t.u.Table.Game, head.Round, head.Rounds)
	}
	who := t.who(m)
	right := who
	if remain := gameui.Remaining(head.Deadline, m.now); remain != "" && !head.Over {
		clock := "⏱ " + remain + " left"
		mine := contains(head.Waiting, t.gameSeat())
		if more := t.myMore(); more > 1 && mine {
			clock += " (" + more.String() + ")" // the player's own, longer time
		}
		if mine && !m.now.Before(head.Deadline) {
			// The phase goes on for a player given more time (rules.Pace), not this one.
			clock = "⏱ your time is up"
		}
		if len(head.Waiting) == 0 {
			// Nobody has anything to do: the clock counts to when the game moves on (a
			// reveal's, a pause's end), not down a player's time.
			clock = "⏱ moves on in " + remain
		}
		if head.Deadline.Sub(m.now) <= hurryFrom && contains(head.Waiting, t.gameSeat()) {
			// The last seconds, and the table still waits for this player (a Foresight
			// form filled in but not sent, a token not locked): say so where the time is.
			who = "waiting for you"
		}
		right = clock + " · " + who
		if rules.Width(left)+rules.Width(right)+4 > w {
			right = clock // the time, whole, before who you are (a long name)
		}
	}
	return m.title(w, left, right)
}

// myMore is the viewer's seat's time factor when it has more time (ExtraTime), else 0.
func (t *tableScreen) myMore() rules.Factor {
	if s := t.u.Seat; s >= 0 && s < len(t.u.Table.Seats) {
		return t.u.Table.Seats[s].More
	}
	return 0
}

// roundOf names round n of a game as the game does (rules.Spec.Round): "turn 17".
func roundOf(game string, n, rounds int) string {
	spec, ok := rules.Lookup(game)
	if !ok {
		spec = &rules.Spec{}
	}
	return spec.Round(n, rounds)
}

// hurryFrom is how long before a deadline the title tells a player the table still
// waits for them.
const hurryFrom = 15 * time.Second

func (t *tableScreen) renderGame(m *Model, w, h int) []string {
	head := t.u.View.Head()
	out := make([]string, 0, h) // the frame's rows: one allocation, not one per append
	out = append(out, t.titleBar(m, w, head))
	prompt := head.Prompt
	note := t.heldUpNote()
	if head.Over {
		// The game's own words say who won and why it ended (a round limit, a target).
		prompt = sentence(head.Prompt) + " Press esc for the table: the host can start another game."
	} else if t.botPlaysForMe() {
		prompt = errStyle.Paint(botPlaysNote) + " " + prompt
	} else if note != "" {
		prompt = strings.TrimSpace(sentence(prompt) + " " + note)
	} else if len(head.Waiting) > 0 && !contains(head.Waiting, t.gameSeat()) && !strings.Contains(prompt, "Waiting for") {
		prompt = strings.TrimSpace(sentence(prompt) + " " + dimStyle.Paint("Waiting for "+nameList(t.names(), head.Waiting)+"."))
	}

	// The keys, on two lines when one would cut them (a narrow screen: the game area
	// gives up a line), or the chat box's while a message is typed.
	var footer []string
	if t.chatting {
		footer = []string{footerLine(w, chatTypingKeys...)}
	} else {
		footer = t.footerDrawn.get(w, t.game.Keys(), t.game.Typing())
	}
	// One line of events and chat at 24 rows (v shows them all), more on taller screens.
	gameW, feedH := w, max(1, min(6, (h-24)/3+1))
	if w >= sidePanelFrom {
		gameW, feedH = w-sideWidth(w)-2, 0
	}
	bodyH := h - 2 - len(footer) - feedH // below the title and the prompt
	// A prompt or notice too long for its line goes on below it, in the place of the
	// events under the game area (not while a chat message is typed: the conversation
	// is there then), so that the game area keeps its size. Beside the side panel there
	// are no event lines: the game area gives up one line then, so that a prompt (a turn's
	// summary) is never cut.
	room := max(2, feedH+1)
	if head.Over {
		room = max(room, 3) // who won, why it ended and the way on: the game is done with its area
	}
	if t.chatting {
		room = 1
	}
	status := m.statusLines(w, room, m.promptDrawn.get(prompt, func() string { return headStyle.Paint(prompt) }))
	out = append(out, status...)
	events := feedH - (len(status) - 1) // the event lines left under the game area
	if events < 0 {
		bodyH += events
		events = 0
	}
	f := gameui.Frame{Width: gameW, Height: bodyH, Now: m.now, Seat: t.gameSeat(), Names: t.names(), Away: t.away(), Plain: m.plain}
	if t.u.Shared != nil {
		f.Memo = t.u.Shared
	}
	var body []string
	if _, fitted := t.game.(gameui.Lines); fitted {
		body = gameui.Fill(t.renderArea(f), gameW, bodyH)
	} else {
		body = t.areaFit.Block(t.renderArea(f), gameW, bodyH, f.Memo)
	}
	if feedH == 0 {
		side := []string{headStyle.Paint("Log and chat") + dimStyle.Paint(" · v: all")}
		tail := t.feedTail(sideWidth(w), bodyH-1)
		for len(tail) > 0 && tail[0] == "" {
			tail = tail[1:] // the heading goes with its lines, not above the tail's padding
		}
		side = append(side, tail...)
		body = columns(2, body, blockOf(side, sideWidth(w), bodyH))
	}
	if t.chatting && feedH > 0 && feedH < chatLinesWhileTyping {
		// While typing a message, the conversation takes the bottom of the game area:
		// one line is too little to follow it.
		n := chatLinesWhileTyping - feedH
		rule := dimStyle.Paint(ansi.Truncate("─── chat and events "+strings.Repeat("─", w), w, ""))
		body = append(body[:len(body)-n], rule)
		feedH += n - 1
		events = feedH
	}
	out = append(out, body...)
	if events > 0 {
		out = append(out, t.feedBlock(w, events)...)
	}
	if t.chatting {
		// The message box takes the last line above the footer, which lists its keys.
		if feedH > 0 {
			copy(out[len(out)-feedH:], t.feedBlock(w, feedH-1))
		}
		label := " " + t.mod.boxLabel()
		out[len(out)-1] = fit(label+t.chatBox().view(w-rules.Width(label)-1, m.plain), w)
	}
	return append(out, footer...)
}

// publicArea is the key a public game area is shared under in one table state.
type publicArea struct {
	game  string // game id and seat
	frame gameui.FrameKey
}

// renderArea draws the game area; a public one (gameui.Public) only once per table
// state and frame for every session at the table that shows the same.
func (t *tableScreen) renderArea(f gameui.Frame) []string {
	if p, ok := t.game.(gameui.Public); ok && p.Public() {
		// The screen draws without the memo: Remember holds it while it draws, and the
		// whole area is kept in it anyway.
		f.Memo = nil
		return t.u.Shared.Remember(publicArea{t.gameKey, f.Key()}, func() any { return areaLines(t.game, f) }).([]string)
	}
	return areaLines(t.game, f)
}

// areaLines are the lines of a game screen's area (gameui.Lines), or its Render split.
func areaLines(g gameui.Screen, f gameui.Frame) []string {
	if l, ok := g.(gameui.Lines); ok {
		return l.Lines(f)
	}
	return strings.Split(g.Render(f), "\n")
}

func nameList(names []string, seats []int) string {
	parts := make([]string, 0, len(seats))
	for _, s := range seats {
		parts = append(parts, seatName(names, s))
	}
	if len(parts) > 5 { // a full table: the first four, and how many more
		return fmt.Sprintf("%s and %d more", strings.Join(parts[:4], ", "), len(parts)-4)
	}
	return rules.List(parts)
}
