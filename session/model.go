// Package session is one player's terminal UI: a Bubble Tea model with a screen for the
// name, the lobby, creating a table, the table itself and the game, plus help and a
// "please enlarge" screen. It only ever sees its own seat's view of a game.
package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"parlor/lobby"
	"parlor/rules"
	"parlor/session/gameui"
)

// MinWidth and MinHeight are the smallest terminal every screen is designed for.
const (
	MinWidth  = 80
	MinHeight = 24
)

// Options is what the server tells a new session.
type Options struct {
	Lobby       *lobby.Lobby
	Player      lobby.Player
	AskName     bool                    // first visit: ask for a display name before the lobby
	SaveName    func(name string) error // remembers a chosen name (nil for guests)
	Online      *lobby.Online           // holds the player's name among those online (nil: not checked)
	Profile     func() string           // one line about the player's record, for the lobby; may be nil
	Join, Watch string                  // a table code to go straight to (ssh -t host join ABCD)
	IdleTimeout time.Duration           // leave after this long without a key press; 0: never
	Now         func() time.Time        // the wall clock, for the idle timeout; time.Now if nil
	// Send delivers a message to the session's program from any goroutine (the server
	// passes its program's Send). With it the session keeps no goroutine of its own
	// waiting for the table or the clock: the table and a timer call it when there is
	// news. Without it (tests) commands wait instead, one goroutine each.
	Send func(tea.Msg)
	// TrySend is Send if the program takes msg at once, else false; may be nil. The
	// table's news goes this way first: a goroutine for each piece of news was a
	// goroutine started and scheduled for each seat an action reached.
	TrySend func(tea.Msg) bool
	// SSH is how players reach the server, for the commands the help gives, with flags
	// before the host ("-t" for a command that needs a terminal): the server's, which
	// names its port ("ssh -t -p 2222 HOST"). Nil: "ssh HOST" with the flags before HOST.
	SSH func(flags ...string) string
	// Web gives the browser door's address of path ("/t/ABCD"), for the table's link;
	// nil when the door is off.
	Web func(path string) string
	// Console runs the operators' commands for an admin (the admin screen, A in the
	// lobby); nil, or a player who is not an admin: no admin screen.
	Console Console
	// Linear remembers that the player's key starts in the linear mode from the next
	// connection on (L in the lobby; docs/accessibility.md); nil for guests.
	Linear func() error
}

type screen int

const (
	screenName screen = iota
	screenLobby
	screenCreate
	screenTable
	screenAdmin
)

// statusFor is how long an error or notice stays over the prompt at most.
const statusFor = 5 * time.Second

// Model is the root of a player's UI.
type Model struct {
	o   Options
	ctx context.Context

	width, height int
	plain         bool
	screen        screen
	help          bool
	helpPager     *pager // while the help is open
	profile       colorprofile.Profile
	recolor       *strings.Replacer // the palette's explicit colours for a 16/256-colour terminal
	arrival       string            // a notice for the table's first update: why the player watches
	moving        moving            // a direct join waiting for its table to arrive at another node
	question                        // a yes/no question on screen (confirm.go); m.confirm is its kind
	status        string            // the last error or notice, until the next key, statusFor or a new phase
	statusErr     bool
	statusAt      time.Time
	goodbye       string // set when the program ends, for the server to print
	lastKey       time.Time
	now           time.Time // the lobby's time, which countdowns count down to deadlines from

	name   *nameScreen // while the name screen shows (nameBox)
	lobby  lobbyScreen
	create *createScreen // while the new-table screen shows (createBox)
	admin  *adminScreen  // while the admin screen shows (admin.go)
	table  tableScreen

	lines  []string // the last rendered frame's lines, as sent (recoloured)
	drawn  []string // its lines as drawn, before recolouring
	cache  string   // lines joined, for View; "" until it asks
	clock  int      // the line of the frame that shows a countdown; -1: none
	ticked string   // what of the screen changes with time alone (tickShows), when drawn
	dirty  bool

	titleDrawn  lastDrawing[titleKey, string] // the title bar
	promptDrawn lastDrawing[string, string]   // the game's prompt, styled
	ticks       ticker

	took tookMsg // what Prepare took from the table, until Update applies it
}

// New makes the root model for one connection.
func New(ctx context.Context, o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SSH == nil {
		o.SSH = func(flags ...string) string {
			return strings.Join(append(append([]string{"ssh"}, flags...), "HOST"), " ")
		}
	}
	m := &Model{o: o, ctx: ctx, width: MinWidth, height: MinHeight, dirty: true, now: o.Lobby.Now(), clock: -1}
	m.lastKey = o.Now()
	m.ticks.start = afterFunc
	if o.Send == nil {
		m.ticks.wake = make(chan time.Time, 1)
	}
	// A remembered name another player online goes by now is not this player's to use.
	taken := error(nil)
	if !o.AskName && o.Online != nil {
		taken = o.Online.Name(o.Player.Name)
	}
	if o.AskName || taken != nil {
		m.show(screenName) // the lobby is read once the name is taken (name.go)
		if taken != nil {
			m.setStatus(taken.Error(), true)
		}
	} else {
		m.toLobby()
	}
	return m
}

// Goodbye is the message to print after the program ends, if any.
func (m *Model) Goodbye() string { return m.goodbye }

// after delivers msg after d, unless the session ends first.
func (m *Model) after(d time.Duration, msg tea.Msg) tea.Cmd {
	ctx := m.ctx
	return func() tea.Msg {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return msg
		case <-ctx.Done():
			return nil
		}
	}
}

// ShutdownMsg tells the session that the server is going down.
type ShutdownMsg struct {
	Goodbye string // what the player is told; a default when empty
}

// BroadcastMsg is a line from the server's operators to everyone online, shown as the
// status line.
type BroadcastMsg struct {
	Text string
}

// updateMsg carries a table update for the member it came from.
type updateMsg struct {
	member lobby.Place
	u      lobby.Update
}

// closedMsg says the member is out of its table, and why.
type closedMsg struct {
	member lobby.Place
	reason lobby.Closed
}

// newsMsg says the member has an update (or its close) to take.
type newsMsg struct{ member lobby.Place }

// tookMsg is what the member's mailbox held when a newsMsg was taken (Prepare).
type tookMsg struct {
	member lobby.Place
	u      lobby.Update
	has    bool         // u is an update
	closed lobby.Closed // the member is out of its table, for this reason
}

// Prepare takes the news a newsMsg brings, on the session's own goroutine, and gives
// Update the message to take instead: quick when it is an update alone, whose taking
// neither blocks nor reads the store (a close leads back to the lobby, which does).
// The terminal runtime runs a quick message's update on a renderer with its frame
// (termrt/paint.go), so that the session's goroutine allocates nothing for the table's
// news: while the collector marks, every goroutine that allocates must help it, at
// least 64 KB of scanning, and an action's news reaches seven sessions.
func (m *Model) Prepare(msg tea.Msg) (tea.Msg, bool) {
	news, ok := msg.(newsMsg)
	if !ok || news.member != m.table.member {
		return msg, false
	}
	u, has, closed := news.member.Take()
	m.took = tookMsg{member: news.member, u: u, has: has, closed: closed}
	return &m.took, closed.IsZero() // a pointer to the model's own: a message made here would allocate
}

// wait is the command that delivers the member's next update; exactly one runs per member.
// With Options.Send the table announces its updates instead (Place.Notify), and the
// session takes them when the news arrives: no goroutine waits.
func (m *Model) wait(mem lobby.Place) tea.Cmd {
	if send := m.o.Send; send != nil {
		// The table runs this and must not wait: the news goes to the program at once if
		// it has room, else to a goroutine that lives until the program took it; never
		// more than one per member at a time.
		var news tea.Msg = newsMsg{mem}
		try := m.o.TrySend
		mem.Notify(func() {
			if try == nil || !try(news) {
				go send(news)
			}
		})
		return nil
	}
	ctx := m.ctx
	return func() tea.Msg {
		u, ok, reason := mem.Next(ctx)
		if !ok {
			return closedMsg{mem, reason}
		}
		return updateMsg{mem, u}
	}
}

// Init goes to the table of a direct command, and arms the tick if the screen it
// starts on needs one.
func (m *Model) Init() tea.Cmd {
	var cmd tea.Cmd
	if m.screen == screenLobby {
		cmd = m.direct()
	}
	return tea.Batch(cmd, m.schedule())
}

// direct handles "join CODE" and "watch CODE" once the player has a name.
func (m *Model) direct() tea.Cmd {
	var cmd tea.Cmd
	switch {
	case m.o.Join != "":
		cmd = m.join(m.o.Join)
	case m.o.Watch != "":
		cmd = m.enter(m.o.Lobby.Watch(m.o.Player, m.o.Watch))
	}
	m.o.Join, m.o.Watch = "", ""
	return cmd
}

// enter goes to a table after a create, join or watch; on error it stays in the lobby
// and shows why.
func (m *Model) enter(mem lobby.Place, err error) tea.Cmd {
	if err != nil {
		m.setStatus(err.Error(), true)
		return nil
	}
	m.table = newTableScreen(mem)
	m.table.web = m.o.Web
	m.show(screenTable)
	m.lobby.drop()
	return m.wait(mem)
}

// moving is a join ("ssh host join CODE") of a table that is moving to another node of
// a cluster: its node died or stopped, and another takes it over within seconds. People
// redial after a drop and expect to be back at their seat, not to find the lobby and an
// error; the session tries again (lobby.MovingEvery, lobby.MovingTries) without
// blocking its screen.
type moving struct {
	code  string
	tries int
}

// movingMsg is the next try of a join whose table is moving.
type movingMsg struct{ code string }

// join takes a seat at the table of code or, when its game has started or it is full,
// watches it and says why: the player came to be at that table.
func (m *Model) join(code string) tea.Cmd {
	mem, err := m.o.Lobby.Join(m.o.Player, code)
	var why string
	if errors.Is(err, lobby.ErrMoving) && m.moving.tries < lobby.MovingTries {
		if m.moving.code != code {
			m.moving = moving{code: code}
		}
		m.moving.tries++
		m.setStatus(fmt.Sprintf("Table %s is moving to another server: you will be at it as soon as it is there.", code), false)
		return tea.Tick(lobby.MovingEvery, func(time.Time) tea.Msg { return movingMsg{code: code} })
	}
	m.moving = moving{}
	switch {
	case errors.Is(err, lobby.ErrStarted):
		why = "The game had started, so you are watching it: you can take a seat when it ends."
	case errors.Is(err, lobby.ErrFull):
		why = "The table is full, so you are watching it: press t to take a seat when one is free."
	default:
		return m.enter(mem, err)
	}
	if mem, werr := m.o.Lobby.Watch(m.o.Player, code); werr == nil {
		cmd := m.enter(mem, nil)
		m.arrival = why
		return cmd
	}
	return m.enter(nil, err)
}

// toLobby shows the lobby, with the player's record read once here rather than on
// every frame (it comes from the store).
func (m *Model) toLobby() {
	m.show(screenLobby)
	m.lobby.refresh(m.o.Lobby, m.o.Player)
	m.lobby.profile = ""
	if m.o.Profile != nil {
		m.lobby.profile = m.o.Profile()
	}
}

// show switches to screen s. The name and new-table screens are made when shown and let
// go when left (each visit starts afresh anyway), so a player who sits down holds
// neither, and one who never names or creates never builds them.
func (m *Model) show(s screen) {
	m.screen = s
	if s == screenName {
		m.nameBox()
	} else {
		m.name = nil
	}
	if s == screenCreate {
		m.createBox()
	} else {
		m.create = nil
	}
}

// nameBox is the name screen, made when first shown.
func (m *Model) nameBox() *nameScreen {
	if m.name == nil {
		m.name = newNameScreen(m.o.Player.Name)
	}
	return m.name
}

// createBox is the new-table screen, made when first shown.
func (m *Model) createBox() *createScreen {
	if m.create == nil {
		m.create = newCreateScreen(func(id string) []rules.Option { return m.o.Lobby.TableOptions(m.o.Player, id) })
	}
	return m.create
}

func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr, m.statusAt = s, isErr, m.o.Now()
}

// Update handles one message, then arms the tick if the screen now needs one (a phase
// with a countdown began, a notice was set) or lets it go if nothing on it changes with
// the time any more.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if tick := m.schedule(); tick != nil {
		cmd = tea.Batch(cmd, tick)
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	if t, ok := msg.(tickMsg); ok {
		m.tookTick()
		return m.onTick(time.Time(t)) // redraws only what the time changed
	}
	// Every message below changes the frame, save those the model does not handle: they
	// leave it as it was, and a change not yet drawn stays to be drawn (the painter
	// draws at most once per frame interval, and other messages can come first).
	was := m.dirty
	m.dirty = true
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return nil
	case tea.ColorProfileMsg:
		m.plain = msg.Profile <= colorprofile.Ascii
		m.profile, m.recolor = msg.Profile, gameui.Recolor(msg.Profile)
		m.drawn = nil // recoloured for another profile
		return nil
	case BroadcastMsg:
		m.setStatus("From the operators: "+msg.Text, false)
		m.dirty = true
		return nil
	case ShutdownMsg:
		m.goodbye = "The server is shutting down. Thanks for playing!"
		if msg.Goodbye != "" {
			m.goodbye = msg.Goodbye
		}
		return tea.Quit
	case updateMsg:
		if msg.member != m.table.member {
			return nil // a stale wait from a table we already left
		}
		m.takeUpdate(msg.u)
		return m.wait(msg.member)
	case newsMsg:
		if msg.member != m.table.member {
			return nil
		}
		took, _ := m.Prepare(msg)
		return m.update(took)
	case *tookMsg:
		took := *msg
		m.took = tookMsg{} // the update is the table screen's now: no second copy held
		if took.member != m.table.member {
			return nil
		}
		if took.has {
			m.takeUpdate(took.u)
		}
		if !took.closed.IsZero() {
			return m.tableClosed(took.closed)
		}
		return nil
	case movingMsg:
		if msg.code != m.moving.code || m.screen != screenLobby {
			return nil // the player went elsewhere meanwhile
		}
		return m.join(msg.code)
	case retryMsg:
		if msg.member != m.table.member {
			return nil
		}
		return m.table.retry(m)
	case closedMsg:
		if msg.member != m.table.member {
			return nil
		}
		return m.tableClosed(msg.reason)
	case tea.PasteMsg:
		return m.routeText(msg)
	case tea.KeyPressMsg:
		m.lastKey = m.o.Now()
		// The screen a key opens shows the time as it is (the room, how long a player has
		// been away), not as of the last tick or update.
		m.now = m.o.Lobby.Now()
		return m.onKey(msg)
	}
	m.dirty = was
	return nil
}

// takeUpdate applies a table update.
func (m *Model) takeUpdate(u lobby.Update) {
	m.now = m.o.Lobby.Now() // a new deadline shows its full time at once
	if m.table.apply(u) {
		m.status = "" // an old notice must not hide the new phase's prompt
	}
	if m.arrival != "" { // why the player is here as they are, from the first update on
		m.setStatus(m.arrival, false)
		m.arrival = ""
	}
}

// onTick runs when the pending tick comes (schedule). It redraws the frame only when
// something on it changed with the time (a notice expired, the lobby list, an away
// player's minutes), and a countdown alone redraws only its own line.
func (m *Model) onTick(now time.Time) tea.Cmd {
	m.now = m.o.Lobby.Now()
	if m.status != "" && now.Sub(m.statusAt) >= statusFor {
		m.status = ""
		m.dirty = true
	}
	if m.o.IdleTimeout > 0 && now.Sub(m.lastKey) >= m.o.IdleTimeout {
		m.goodbye = fmt.Sprintf("You were disconnected after %s without a key press. Come back any time!", m.o.IdleTimeout)
		m.leaveTable()
		m.dirty = true
		return tea.Quit
	}
	if (m.screen == screenLobby || m.screen == screenCreate) && m.lobby.refresh(m.o.Lobby, m.o.Player) {
		m.dirty = true
	}
	if m.tickShows() != m.ticked {
		m.dirty = true
	}
	if !m.dirty {
		m.redrawClock()
	}
	return nil
}

// tickShows is what the screen shows that changes with the time alone, apart from a
// countdown (clockLine): how long away players have been gone, on the table's room.
func (m *Model) tickShows() string {
	if m.screen != screenTable || m.help || m.table.showGame() {
		return ""
	}
	var b strings.Builder
	for _, s := range m.table.u.Table.Seats {
		if s.Away {
			b.WriteString(awayFor(s, m.now))
		}
	}
	return b.String()
}

// clockLine is the line of the frame that shows a countdown, drawn again; ok is false
// when no countdown is on screen.
func (m *Model) clockLine() (line string, ok bool) {
	if !m.hasClock() {
		return "", false
	}
	return m.table.titleBar(m, m.width, m.table.u.View.Head()), true
}

// hasClock reports whether the frame shows a countdown (in its title bar).
func (m *Model) hasClock() bool {
	return m.screen == screenTable && !m.help && m.width >= MinWidth && m.height >= MinHeight && m.table.hasClock()
}

// recolored is drawn with the palette's colours for the terminal. Most lines of a frame
// are the lines of the frame before (one move changes a few rows): those keep their
// recoloured form, and only changed lines go through the replacer again.
func (m *Model) recolored(drawn []string) []string {
	if m.recolor == nil {
		return slices.Clone(drawn)
	}
	var shared *lobby.Shared
	if m.screen == screenTable {
		shared = m.table.u.Shared
	}
	out := make([]string, len(drawn))
	for i, l := range drawn {
		if i < len(m.drawn) && i < len(m.lines) && l == m.drawn[i] {
			out[i] = m.lines[i]
		} else {
			out[i] = m.recolorLine(l, shared)
		}
	}
	return out
}

// recolorKey is what a line recoloured for a terminal's profile is kept under in a
// table state (lobby.Shared).
type recolorKey struct {
	profile colorprofile.Profile
	line    string
}

// recolorLine is one line in the profile's colours. Every colour the replacer rewrites
// is a true colour ("38;2;…", "48;2;…"): a line without one is left as it is, without
// the copy Replace makes of every line it is given. The seats of a table mostly change
// the same lines (the plane's rows after a move): with the table state's shared memo,
// the first seat to recolour a line does it for the others (a nil one keeps nothing).
func (m *Model) recolorLine(l string, shared *lobby.Shared) string {
	if !strings.Contains(l, "8;2;") {
		return l
	}
	if shared == nil {
		return m.recolor.Replace(l)
	}
	return shared.Remember(recolorKey{m.profile, l}, func() any { return m.recolor.Replace(l) }).(string)
}

// redrawClock draws the countdown's line again into the frame, alone.
func (m *Model) redrawClock() {
	if m.clock < 0 || m.clock >= len(m.lines) || m.clock >= len(m.drawn) {
		return
	}
	line, ok := m.clockLine()
	if !ok {
		m.dirty = true // the clock went away: the frame changed more than its line
		return
	}
	if line == m.drawn[m.clock] {
		return
	}
	m.drawn[m.clock] = line
	if m.recolor != nil {
		line = m.recolorLine(line, nil) // a clock's line is new every second: not kept
	}
	m.lines[m.clock] = line
	m.cache = ""
}

// tableClosed handles being sent away from a table: taken over by a new connection or a
// server going down end the program; anything else returns to the lobby with the reason.
func (m *Model) tableClosed(reason lobby.Closed) tea.Cmd {
	m.table = tableScreen{}
	if reason.Ends() {
		m.goodbye = reason.Text
		return tea.Quit
	}
	m.toLobby()
	m.setStatus(reason.Text, false)
	return nil
}

func (m *Model) leaveTable() {
	m.arrival = ""
	if m.table.member != nil {
		lobby.Run(m.table.member, lobby.Leave{})
		m.table = tableScreen{}
	}
}

// Disconnected is called by the server when the connection ends without a goodbye: the
// player keeps their seat, to take it back later.
func (m *Model) Disconnected() {
	if m.table.member != nil {
		lobby.Run(m.table.member, lobby.Disconnect{})
	}
}

func (m *Model) routeText(msg tea.Msg) tea.Cmd {
	switch {
	case m.screen == screenName:
		if p, ok := msg.(tea.PasteMsg); ok { // the only text routed here
			m.nameBox().paste(m, p)
		}
	case m.screen == screenLobby && m.lobby.typing:
		m.lobby.code.update(msg)
	case m.screen == screenAdmin && m.admin.prompt != nil:
		m.admin.prompt.update(msg)
	case m.screen == screenTable:
		return m.table.text(m, msg)
	}
	return nil
}

func (m *Model) typing() bool {
	switch m.screen {
	case screenName:
		return true
	case screenLobby:
		return m.lobby.typing
	case screenAdmin:
		return m.admin.prompt != nil
	case screenTable:
		return m.table.typing()
	}
	return false
}

func (m *Model) onKey(k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	m.status = ""
	if m.screen == screenTable && key != "ctrl+c" && m.table.atTheKeys(m) {
		// Any key, and only that: a Fingertip pointing is final, and q would leave.
		return nil
	}
	if m.confirm != "" {
		return m.onConfirm(k)
	}
	if m.help {
		return m.helpKeyPress(k)
	}
	if m.width < MinWidth || m.height < MinHeight {
		if key == "ctrl+c" || key == "q" {
			return m.quit()
		}
		return nil
	}
	if key == "ctrl+c" {
		return m.quit()
	}
	if (!m.typing() && keyMatches(k, helpKey)) || keyMatches(k, helpInTyped) {
		m.openHelp()
		return nil
	}
	switch m.screen {
	case screenName:
		return m.nameBox().key(m, k)
	case screenLobby:
		return m.lobby.key(m, k)
	case screenCreate:
		return m.createBox().key(m, k)
	case screenAdmin:
		return m.admin.key(m, k)
	case screenTable:
		return m.table.key(m, k)
	}
	return nil
}

// quit leaves the program, asking first while a game is running.
func (m *Model) quit() tea.Cmd {
	if m.screen == screenTable && m.table.playing() && m.table.seat() >= 0 {
		m.question = question{confirm: confirmQuit}
		return nil
	}
	m.leaveTable()
	m.goodbye = "Thanks for playing parlor!"
	return tea.Quit
}

// View renders the screen, re-using the last frame when nothing changed.
func (m *Model) View() tea.View {
	lines := m.frame()
	if m.cache == "" {
		m.cache = strings.Join(lines, "\n")
	}
	v := tea.NewView(m.cache)
	v.AltScreen = true
	v.WindowTitle = "parlor"
	return v
}

// Frame is the frame's rows, which View joins: the server's painter takes them as they
// are, without the join (a frame's worth of garbage per seat and change). They are the
// model's: the caller copies what it keeps.
func (m *Model) Frame() []string { return m.frame() }

// frame draws the frame again if anything on it changed.
func (m *Model) frame() []string {
	if m.dirty || m.lines == nil {
		drawn := m.render()
		m.clock = -1
		if m.hasClock() {
			m.clock = 0 // a countdown is in the title bar
		}
		m.lines = m.recolored(drawn)
		m.drawn = drawn
		m.cache = "" // joined when View asks
		m.ticked = m.tickShows()
		m.dirty = false
	}
	return m.lines
}

func (m *Model) render() []string {
	w, h := m.width, m.height
	if w < MinWidth || h < MinHeight {
		if m.confirm != "" { // a question waits for its answer: show it, wrapped
			return tooSmall(w, h, gameui.Wrap(m.confirmText(), w)...)
		}
		return tooSmall(w, h)
	}
	var lines []string
	switch {
	case m.help:
		lines = m.renderHelp(w, h)
	case m.screen == screenName:
		lines = m.nameBox().render(m, w, h)
	case m.screen == screenLobby:
		lines = m.lobby.render(m, w, h)
	case m.screen == screenCreate:
		lines = m.createBox().render(m, w, h)
	case m.screen == screenAdmin:
		lines = m.admin.render(m, w, h)
	default:
		lines = m.table.render(m, w, h)
	}
	if m.confirm != "" {
		// The question takes the bottom lines it needs, so that its keys are never cut.
		q := []string{m.confirmText()}
		if rules.Width(q[0]) > w { // the keys on a line of their own, under the words
			q = append(gameui.Wrap(strings.TrimSuffix(q[0], " "+answers()), w), answers())
		}
		q = q[max(0, len(q)-min(statusMax, h)):]
		for i, l := range q {
			lines[h-len(q)+i] = fit(headStyle.Paint(l), w) // a question, not an error
		}
	}
	return lines
}

// statusMax is how many lines a notice may take on a screen: one too long for its line
// goes on below it, and the screen gives those lines up while the notice shows.
const statusMax = 3

// statusLines shows the last error or notice, or else fallback on one line. A notice
// wider than w wraps onto at most n lines, under its own text; what is left after
// those is cut with "…".
func (m *Model) statusLines(w, n int, fallback string) []string {
	if m.status == "" {
		if rules.Width(fallback) <= w { // the usual case, on every frame: no wrapping
			return []string{fit(fallback, w)}
		}
		text := wrapWithin(fallback, w, n)
		for i, l := range text {
			text[i] = fit(l, w)
		}
		return text
	}
	mark, style := "• ", okStyle
	if m.statusErr {
		mark, style = "✗ ", errStyle
	}
	text := wrapWithin(m.status, w-2, n)
	out := make([]string, len(text))
	for i, l := range text {
		if i > 0 {
			mark = "  "
		}
		out[i] = fit(style.Paint(mark+l), w)
	}
	return out
}

// wrapWithin wraps text to width w on at most n lines, the last one cut with "…" if
// there is more.
func wrapWithin(text string, w, n int) []string {
	lines := gameui.Wrap(text, w)
	if len(lines) > n {
		lines[n-1] = cutAtSpace(strings.Join(lines[n-1:], " "), w)
		lines = lines[:n]
	}
	return lines
}

// cutAtSpace is s in at most w columns: whole if it fits, else cut with "…" after its
// last whole word, if that keeps half the line, so that "Bo -150 → 450" is not cut to a
// wrong number, "Bo -150 → 45…".
func cutAtSpace(s string, w int) string {
	if rules.Width(s) <= w {
		return s
	}
	head := ansi.Truncate(s, w-1, "")
	plain := ansi.Strip(s)
	if rest := plain[len(ansi.Strip(head)):]; !strings.HasPrefix(rest, " ") {
		if i := strings.LastIndexByte(head, ' '); i > 0 && rules.Width(head[:i]) >= w/2 {
			head = head[:i]
		}
	}
	return strings.TrimRight(head, " ") + "…"
}

// tooSmall is the screen of a terminal smaller than MinWidth×MinHeight, or question
// (a line each) when there is one to answer.
func tooSmall(w, h int, question ...string) []string {
	msg := []string{"Please enlarge", "your terminal", "to 80×24", fmt.Sprintf("(now %d×%d)", w, h), "q quits"}
	switch {
	case len(question) > 0:
		msg = question
	case w >= 38: // the long form's widest line
		msg = []string{"Please enlarge your terminal to 80×24.", fmt.Sprintf("It is %d×%d now.", w, h), "ctrl+c or q quits."}
	}
	var out []string
	for i := 0; i < h && i < len(msg); i++ {
		out = append(out, fit(msg[i], w))
	}
	return out
}

// title is the reversed bar at the top of every screen.
func (m *Model) title(w int, left, right string) string {
	return m.titleDrawn.get(titleKey{w, left, right}, func() string { return title(w, left, right) })
}

// title is Model.title drawn afresh.
func title(w int, left, right string) string {
	gap := w - rules.Width(left) - rules.Width(right) - 2
	if gap < 1 {
		// The left part says where you are: keep it whole when it can be, and cut the right.
		right = ansi.Truncate(right, max(0, w-rules.Width(left)-4), "…")
		gap = w - rules.Width(left) - rules.Width(right) - 2
		if gap < 1 {
			return titleStyle.Paint(fit(" "+left, w))
		}
	}
	return titleStyle.Paint(" " + left + strings.Repeat(" ", gap) + right + " ")
}

// seatName names a seat for display.
func seatName(names []string, seat int) string {
	if seat >= 0 && seat < len(names) {
		return names[seat]
	}
	return "?"
}

// gameScreen builds the screen of a game for a seat; nil if the game has none.
func gameScreen(game string, seat int) gameui.Screen {
	f, ok := gameui.Lookup(game)
	if !ok {
		return nil
	}
	return f(seat)
}

// keyMatches is key.Matches for one binding, for the key handlers whose local `key`
// (the key's name) shadows the package.
func keyMatches(k tea.KeyPressMsg, b key.Binding) bool { return key.Matches(k, b) }
