package session

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/lobby"
	"parlor/rules"
	"parlor/session/gameui"
)

// tableScreen is a seat (or a spectator's chair) at a table: the room (seats, options,
// chat, host controls) and, once a game runs, the game's own screen.
type tableScreen struct {
	member  lobby.Place
	u       lobby.Update
	game    gameui.Screen
	gameKey string // game id and seat the game screen was made for
	room    bool   // show the room over a running game
	panel   int    // room focus: 0 seats, 1 options
	// rulesShown says the room last drawn had room for the rules panel: tab skips it
	// when not (a short terminal at a game with many options says "press ?" instead).
	rulesShown bool
	seatSel    int
	optSel     int
	chatting   bool
	chat       *lineInput   // made when the player first chats (chatBox)
	scroll     int          // chat lines scrolled back
	rules      *pager       // the game's rules beside the seats (rulesPager)
	areaFit    gameui.Refit // the game area's lines, fitted (unless the screen is a gameui.Lines)
	logOpen    bool         // the whole feed is shown over the game
	log        *pager       // while the log is open
	feed       []string     // game events and chat, newest last, for the game screen and its log
	feedSeq    int          // entries ever added to feed: the feed's version
	// tailDrawn is the feed's tail as last drawn, feedDrawn the lines of the game
	// screen that show it, footerDrawn the game screen's footer.
	tailDrawn   lastDrawing[tailKey, []string]
	feedDrawn   lastDrawing[tailKey, []string]
	footerDrawn footerDrawn
	pending     []any // actions the table's rate limit held back, sent by retry
	lastLog     []string
	lastChat    int
}

func newTableScreen(m lobby.Place) tableScreen {
	return tableScreen{member: m}
}

// chatMax is the most characters a chat message has.
const chatMax = 200

// chatBox is the chat's text box, made when the player first chats.
func (t *tableScreen) chatBox() *lineInput {
	if t.chat == nil {
		t.chat = newLineInput(chatMax)
	}
	return t.chat
}

// rulesPager is the rules beside the seats, made when the room is first shown.
func (t *tableScreen) rulesPager() *pager {
	if t.rules == nil {
		t.rules = newPager()
	}
	return t.rules
}

func (t *tableScreen) playing() bool { return t.u.Table.State == lobby.StatePlaying }
func (t *tableScreen) seat() int     { return t.u.Seat }
func (t *tableScreen) showGame() bool {
	return t.game != nil && t.u.View != nil && !t.room
}

func (t *tableScreen) typing() bool {
	return t.chatting || (t.showGame() && t.game.Typing())
}

// feedMax is how many events and chat lines the game screen's log keeps.
const feedMax = 500

// apply takes a new update from the table; it reports a new phase of the game (or its
// start), after which an old notice must not cover the prompt.
func (t *tableScreen) apply(u lobby.Update) bool {
	wasPlaying := t.playing()
	var before rules.Header
	if t.u.View != nil {
		before = t.u.View.Head()
	}
	t.u = u
	if u.View != nil {
		key := fmt.Sprintf("%s/%d", u.Table.Game, t.gameSeat())
		if key != t.gameKey || (!wasPlaying && t.playing()) {
			if t.game != nil && !wasPlaying && t.playing() {
				t.feed = append(t.feed, newGameRule) // the game before's lines stay above
			}
			t.game, t.gameKey = gameScreen(u.Table.Game, t.gameSeat()), key
			t.lastLog = nil
			// The game's log starts here: the table's lines so far (who sat down, "the
			// game has started", for a spectator who comes late all of them) came first.
			t.addChat(u.Chat)
		}
		if t.game != nil {
			t.game.SetView(u.View)
		}
		if len(u.History) > len(u.View.Head().Log) {
			// What happened before this session came, if the game keeps more than the
			// view has: its own block after the table's lines, which have their times
			// (the game's lines have none to put them in order with).
			t.feed = append(t.feed, historyRule)
			t.addLog(u.History)
		}
		t.addLog(u.View.Head().Log)
	}
	if !wasPlaying && t.playing() {
		t.room = false
	}
	t.addChat(u.Chat)
	if len(t.feed) > feedMax {
		t.feed = t.feed[len(t.feed)-feedMax:]
	}
	if t.seatSel >= len(u.Table.Seats) {
		t.seatSel = max(0, len(u.Table.Seats)-1)
	}
	if u.View == nil {
		return false
	}
	after := u.View.Head()
	return (!wasPlaying && t.playing()) || after.Phase != before.Phase || after.Round != before.Round || after.Over != before.Over
}

// addChat appends the table's chat and notices that are new since the last update.
func (t *tableScreen) addChat(chat []lobby.ChatLine) {
	for _, c := range chat {
		if c.ID > t.lastChat {
			t.lastChat = c.ID
			if c.Seat == -2 {
				t.feed = append(t.feed, "» "+c.Text)
			} else {
				t.feed = append(t.feed, speaker(c)+": "+c.Text)
			}
			t.feedSeq++
		}
	}
}

// newGameRule heads the lines of another game at the table in the log (apply).
const newGameRule = "── a new game ──"

// historyRule heads the game's earlier lines in a log that starts late (apply).
const historyRule = "── the game so far ──"

// addLog appends the lines of a game log that are new since the last view.
func (t *tableScreen) addLog(log []string) {
	k := 0
	for k = min(len(t.lastLog), len(log)); k > 0; k-- {
		if equal(t.lastLog[len(t.lastLog)-k:], log[:k]) {
			break
		}
	}
	t.feed = append(t.feed, log[k:]...)
	t.feedSeq += len(log) - k
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
		box := t.chatBox()
		before := utf8.RuneCountInString(box.value())
		box.update(msg)
		if p, ok := msg.(tea.PasteMsg); ok && before+utf8.RuneCountInString(p.Content) > chatMax {
			m.setStatus(fmt.Sprintf("A message has at most %d characters: the rest of the paste was left out.", chatMax), true)
		}
	case t.showGame() && t.game.Typing():
		return t.toGame(m, msg)
	default:
		if p, ok := msg.(tea.PasteMsg); ok && strings.TrimSpace(p.Content) != "" {
			m.setStatus("The paste was not used: press / to chat, then paste.", true)
		}
	}
	return nil
}

// toGame passes a key or paste to the game screen and sends the action it makes.
func (t *tableScreen) toGame(m *Model, msg tea.Msg) tea.Cmd {
	action, cmd := t.game.Update(msg)
	if action != nil {
		return tea.Batch(cmd, t.send(m, action))
	}
	return cmd
}

// retryMsg asks to send the actions the rate limit held back.
type retryMsg struct{ member lobby.Place }

// retryAfter is how long held-back actions wait; the limit refills faster than that.
const retryAfter = 150 * time.Millisecond

// send acts for the seat. A held arrow key can ask faster than the table's action limit
// allows: then the action waits in a queue, and consecutive actions of one kind (moves)
// collapse into the newest, so the player never sees "slow down" for holding a key.
func (t *tableScreen) send(m *Model, action any) tea.Cmd {
	if len(t.pending) > 0 {
		t.queue(action)
		return nil
	}
	err := lobby.Run(t.member, lobby.ActOf(action))
	switch {
	case errors.Is(err, lobby.ErrSlowDown):
		t.queue(action)
		return m.after(retryAfter, retryMsg{t.member})
	case err != nil:
		m.setStatus(t.refusal(err), true)
	}
	return nil
}

// refusal is what the player reads of a refused action, as a sentence: a game's errors
// start with its id for the logs ("fingertip: taken — pick another"), which means
// nothing on its screen.
func (t *tableScreen) refusal(err error) string {
	s := strings.TrimPrefix(err.Error(), t.u.Table.Game+": ")
	if r, n := utf8.DecodeRuneInString(s); n > 0 && r != utf8.RuneError {
		return string(unicode.ToUpper(r)) + s[n:]
	}
	return s
}

func (t *tableScreen) queue(action any) {
	if n := len(t.pending); n > 0 && reflect.TypeOf(t.pending[n-1]) == reflect.TypeOf(action) {
		t.pending[n-1] = action
		return
	}
	t.pending = append(t.pending, action)
}

// retry sends the held-back actions in order, until the limit stops it again.
func (t *tableScreen) retry(m *Model) tea.Cmd {
	for len(t.pending) > 0 {
		err := lobby.Run(t.member, lobby.ActOf(t.pending[0]))
		if errors.Is(err, lobby.ErrSlowDown) {
			return m.after(retryAfter, retryMsg{t.member})
		}
		t.pending = t.pending[1:]
		if err != nil {
			m.setStatus(t.refusal(err), true)
		}
	}
	return nil
}

var (
	chatKey   = bind("/", "chat", "/")
	logKey    = bind("v", "view the whole log", "v")
	roomKey   = bind("esc", "table", "esc")
	leaveKey  = bind("q", "leave", "q")
	closeLog  = bind("esc", "close the log", "esc", "v", "q")
	roomPanel = bind("tab", "next panel", "tab")
	// chatTypingKeys are the footer while a chat message is typed.
	chatTypingKeys = []key.Binding{bind("enter", "send", "enter"), bind("esc", "cancel", "esc"), helpInTyped}
)

// gameChromeKeys are the table's keys on a game screen, after the game's own.
func (t *tableScreen) gameChromeKeys() []key.Binding {
	return []key.Binding{chatKey, logKey, bind("esc", "the table: seats, options, rules, chat", "esc"), bind("q", "leave the game (asks first)", "q")}
}

func (t *tableScreen) key(m *Model, k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	if t.chatting {
		switch key {
		case "esc":
			t.chatting = false
		case "enter":
			if text := t.chatBox().value(); text != "" {
				if err := lobby.Run(t.member, lobby.Chat{Text: text}); err != nil {
					m.setStatus(err.Error(), true)
					return nil
				}
			}
			t.chatBox().reset()
			t.chatting = false
		default:
			t.chatBox().update(k)
		}
		return nil
	}
	if t.logOpen {
		if keyMatches(k, closeLog) {
			t.logOpen, t.log = false, nil
		} else {
			t.log.key(k)
		}
		return nil
	}
	if t.showGame() {
		if t.game.Typing() {
			return t.toGame(m, k)
		}
		switch {
		case keyMatches(k, chatKey):
			t.chatting = true
		case keyMatches(k, logKey):
			t.logOpen = true
			t.log = newPager()
			t.log.scroller().GotoBottom()
		case keyMatches(k, roomKey):
			t.room = true
		case keyMatches(k, leaveKey):
			return t.leave(m)
		default:
			return t.toGame(m, k)
		}
		return nil
	}
	return t.roomKey(m, k)
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
			m.confirm, m.confirmSeat, m.confirmName = "remove", t.seatSel, seats[t.seatSel].Name
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
		if t.logOpen {
			return t.renderLog(m, w, h)
		}
		return t.renderGame(m, w, h)
	}
	return t.renderRoom(m, w, h)
}

// names is the display name of each of the game's seats.
func (t *tableScreen) names() []string {
	n := len(t.u.Table.Seats)
	for _, g := range t.u.Table.GameSeats {
		n = max(n, g+1)
	}
	names := make([]string, n) // "" for a seat of the game whose player left the table
	for i, s := range t.u.Table.Seats {
		if g := t.inGame(i); g >= 0 {
			names[g] = s.Name
		}
	}
	return names
}

// away is the set of the game's seats whose player is away, for the game screen to mark.
func (t *tableScreen) away() gameui.SeatSet {
	var s gameui.SeatSet
	for i, seat := range t.u.Table.Seats {
		if g := t.inGame(i); seat.Away && g >= 0 {
			s = s.With(g)
		}
	}
	return s
}

// inGame is a table seat's seat in the game (lobby.TableInfo.GameSeats), which a view,
// a game's names and its marks go by; rules.Spectator for none.
func (t *tableScreen) inGame(seat int) int {
	switch gs := t.u.Table.GameSeats; {
	case seat < 0:
		return rules.Spectator
	case gs == nil:
		return seat
	case seat < len(gs):
		return gs[seat]
	}
	return rules.Spectator
}

// gameSeat is the viewer's seat in the game.
func (t *tableScreen) gameSeat() int { return t.inGame(t.u.Seat) }

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

// botPlaysForMe says a bot plays the viewer's own seat while they are here (the host let
// it while the table waited for them).
func (t *tableScreen) botPlaysForMe() bool {
	seats := t.u.Table.Seats
	return t.playing() && t.u.Seat >= 0 && t.u.Seat < len(seats) && seats[t.u.Seat].StandIn && !seats[t.u.Seat].Away
}

// atTheKeys takes the viewer's seat back from a bot that plays it, and says whether it
// did: they pressed a key.
func (t *tableScreen) atTheKeys(m *Model) bool {
	if !t.botPlaysForMe() {
		return false
	}
	if err := lobby.Run(t.member, lobby.Resume{}); err != nil {
		m.setStatus(err.Error(), true)
	} else {
		m.setStatus("You play your seat again.", false)
	}
	return true
}

// botPlaysNote is what the viewer is told while a bot plays their seat.
const botPlaysNote = "A bot plays for you: press any key to play again."

func (t *tableScreen) who(m *Model) string {
	if t.u.Seat < 0 {
		// As a player's "you: Ann", beside the count of spectators ("1 watching · watching"
		// had read as a stutter).
		if t.u.Host { // an admin: the host's controls at any table
			return "you: watching, admin"
		}
		return "you: watching"
	}
	if t.u.Seat < len(t.u.Table.Seats) {
		return "you: " + t.u.Table.Seats[t.u.Seat].Name // as the table shows it: "alice²" when two are alice
	}
	return "you: " + m.o.Player.Name
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
		body = t.areaFit.Block(t.renderArea(f), gameW, bodyH)
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
		out[len(out)-1] = fit(" say: "+t.chatBox().view(w-7, m.plain), w)
	}
	return append(out, footer...)
}

// roomChat is the key the room's chat lines at a width are shared under.
type roomChat struct{ width int }

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

// chatLinesWhileTyping is how many lines the conversation gets while a message is typed.
const chatLinesWhileTyping = 7

// feedEntry is one event or chat line wrapped to w columns, continuation indented, on
// at most n lines (0: all), the last one cut with "…" if there is more (v shows it whole).
func feedEntry(f string, w, n int) []string {
	lines := gameui.Wrap(f, w-3)
	if n > 0 && len(lines) > n {
		lines = wrapWithin(f, w-3, n)
	}
	out := make([]string, 0, len(lines))
	for i, l := range lines {
		if i == 0 {
			out = append(out, dimStyle.Paint(" "+l))
		} else {
			out = append(out, dimStyle.Paint("   "+l))
		}
	}
	return out
}

// feedLines is the whole feed of events and chat, each entry wrapped to w columns.
func (t *tableScreen) feedLines(w int) []string {
	var out []string
	for _, f := range t.feed {
		out = append(out, feedEntry(f, w, 0)...)
	}
	return out
}

// feedTail is the newest entries that fit in n lines, whole: an entry too long for
// the lines left is cut at its end with "…" (v shows it whole), never shown by its tail.
// The same feed at the same size is the same tail: it is drawn when one of them changed.
func (t *tableScreen) feedTail(w, n int) []string {
	return t.tailDrawn.get(tailKey{w, n, t.feedSeq}, func() []string { return t.drawFeedTail(w, n) })
}

// feedBlock is the feed's tail as n lines of the game screen, w wide. Callers must not
// change it: it is kept until the feed or the size changes.
func (t *tableScreen) feedBlock(w, n int) []string {
	return t.feedDrawn.get(tailKey{w, n, t.feedSeq}, func() []string { return blockOf(t.feedTail(w-1, n), w, n) })
}

// drawFeedTail is feedTail drawn afresh.
func (t *tableScreen) drawFeedTail(w, n int) []string {
	var lines []string
	for i := len(t.feed) - 1; i >= 0 && len(lines) < n; i-- {
		lines = append(feedEntry(t.feed[i], w, n-len(lines)), lines...)
	}
	for len(lines) < n {
		lines = append([]string{""}, lines...)
	}
	return lines
}

// renderLog shows every event and chat line of the game in a scrollable view.
func (t *tableScreen) renderLog(m *Model, w, h int) []string {
	out := []string{m.title(w, t.u.Table.GameName+" · table "+t.u.Table.Code+" · the whole log", "esc closes")}
	vp := t.log.scroller()
	atEnd := vp.AtBottom() || vp.TotalLineCount() == 0
	t.log.set(t.feedLines(w), w, h-3)
	if atEnd {
		vp.GotoBottom() // follow new events until the player scrolls up
	}
	out = append(out, t.log.view()...)
	out = append(out, fit(dimStyle.Paint(" "+t.log.position()), w))
	out = append(out, footerLine(w, append(scrollKeys(), closeLog)...))
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
	if len(parts) > 5 { // a full table: the first four, and how many more
		return fmt.Sprintf("%s and %d more", strings.Join(parts[:4], ", "), len(parts)-4)
	}
	return rules.List(parts)
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

// speaker names who said a chat line, a spectator marked as one wherever the line
// shows: anyone may watch under any name, so a spectator's line must not pass for a
// seated player's.
func speaker(c lobby.ChatLine) string {
	if c.Seat < 0 {
		return c.From + " (watching)"
	}
	return c.From
}

func (t *tableScreen) chatLines(w int) []string {
	var out []string
	for _, c := range t.u.Chat {
		stamp := dimStyle.Paint(c.At.Format("15:04") + " ")
		if c.Seat == -2 {
			for i, l := range gameui.Wrap("» "+c.Text, w-8) {
				if i == 0 {
					out = append(out, fit(stamp+dimStyle.Paint(l), w))
				} else {
					out = append(out, fit("      "+dimStyle.Paint(l), w))
				}
			}
			continue
		}
		name := speaker(c)
		if c.Seat >= 0 {
			name = gameui.SeatInk(c.Seat).Paint(name)
		} else {
			name = dimStyle.Paint(name)
		}
		// The text wraps under itself; a very long name gives way to the text.
		indent := min(rules.Width(name)+2, w/3)
		for i, l := range gameui.Wrap(c.Text, w-6-indent) {
			if i == 0 {
				out = append(out, fit(stamp+name+": "+l, w))
			} else {
				out = append(out, fit("      "+strings.Repeat(" ", indent)+l, w))
			}
		}
	}
	return out
}
