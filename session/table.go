package session

// The table screen: a seat (or a spectator's chair) at a table. It takes the table's
// updates, acts for the seat, and shows the room (room.go) or, while a game runs, the
// game's own screen in its chrome (chrome.go), with the chat and the game's events
// (feed.go).

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"parlor/lobby"
	"parlor/rules"
	"parlor/session/gameui"
)

// tableScreen is a seat (or a spectator's chair) at a table: the room (seats, options,
// chat, host controls) and, once a game runs, the game's own screen.
type tableScreen struct {
	member  lobby.Place
	web     func(path string) string // the browser door's address of a path (Options.Web); nil: off
	u       lobby.Update
	pending []any // actions the table's rate limit held back, sent by retry

	// The game's screen and its chrome (chrome.go).
	game        gameui.Screen
	gameKey     string       // game id and seat the game screen was made for
	areaFit     gameui.Refit // the game area's lines, fitted (unless the screen is a gameui.Lines)
	footerDrawn footerDrawn  // the game screen's footer, as last drawn

	// The room (room.go).
	room  bool // show the room over a running game
	panel int  // room focus: panelSeats, panelOptions or panelRules
	// rulesShown says the room last drawn had room for the rules panel: tab skips it
	// when not (a short terminal at a game with many options says "press ?" instead).
	rulesShown bool
	// seatsCut says the seats column last drawn had no room for every seat: ↑↓ bring
	// the others into view (roomKeymap.MoreSeats).
	seatsCut bool
	seatSel  int
	optSel   int
	rules    *pager // the game's rules beside the seats (rulesPager)

	// The chat and the game's events (feed.go).
	chatting bool
	chat     *lineInput // made when the player first chats (chatBox)
	scroll   int        // the room's chat lines scrolled back
	logOpen  bool       // the whole feed is shown over the game
	log      *pager     // while the log is open
	feed     []string   // game events and chat, newest last, for the game screen and its log
	feedSeq  int        // entries ever added to feed: the feed's version
	// tailDrawn is the feed's tail as last drawn, feedDrawn the lines of the game
	// screen that show it.
	tailDrawn lastDrawing[tailKey, []string]
	feedDrawn lastDrawing[tailKey, []string]
	lastLog   []string
	lastChat  int

	mod seatModeration // the moderation keys' state (moderation.go)
}

func newTableScreen(m lobby.Place) tableScreen {
	return tableScreen{member: m}
}

func (t *tableScreen) playing() bool { return t.u.Table.State == lobby.StatePlaying }
func (t *tableScreen) seat() int     { return t.u.Seat }
func (t *tableScreen) showGame() bool {
	return t.game != nil && t.u.View != nil && !t.room
}

func (t *tableScreen) typing() bool {
	return t.chatting || (t.showGame() && t.game.Typing())
}

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

// refusal is what the player reads of a refused action, as a sentence (rules.Refusal).
func (t *tableScreen) refusal(err error) string { return rules.Refusal(t.u.Table.Game, err) }

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

// key sends a key to the part of the table screen that has it: the chat box while a
// message is typed, the log while it is open, the game's screen and its chrome, or the
// room. Each matches keys with its own keymap, which its footer lists.
func (t *tableScreen) key(m *Model, k tea.KeyPressMsg) tea.Cmd {
	switch {
	case t.chatting:
		return t.chatKey(m, k)
	case t.logOpen:
		t.logKey(k)
		return nil
	case t.showGame():
		return t.chromeKey(m, k)
	}
	return t.roomKey(m, k)
}

func (t *tableScreen) leave(m *Model) tea.Cmd {
	if t.playing() && t.seat() >= 0 {
		m.question = question{confirm: confirmLeave}
		return nil
	}
	m.leaveTable()
	m.toLobby()
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

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
