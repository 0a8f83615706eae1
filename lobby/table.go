package lobby

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"parlor/rules"
	"parlor/store"
)

const (
	tickEvery = 250 * time.Millisecond // the default Config.Tick
	chatKept  = 100
	chatSent  = 50
	botNames  = "Ada Bo Cy Di Ed Flo Gus Hal Ivy Jo Kit Lu Mo Ned"
)

// seat is one player's place at a table; a seat is bound to the player's identity, so
// the same key connecting again takes it back.
type seat struct {
	player Player
	bot    rules.Bot    // non-nil: a bot plays this seat
	member *Member      // the connected member; nil while away
	offers []store.Pack // the player's own and published packs this game plays (deck.go)

	awaySince time.Time // when the player's connection went; zero while here
	standIn   rules.Bot // non-nil: a bot plays for the away player until they return

	// more is the seat's time factor (ExtraTime); zero or 1 for none.
	more rules.Factor

	// inGame is the seat's seat in the table's game, the running or the last one: its
	// own place while the game runs, but once it is over a player who leaves moves the
	// seats after theirs up, and one who sits down has none (rules.Spectator).
	inGame int
}

// Table is one table: a goroutine (the actor) owns every field below inbox, and the rest
// of the program talks to it only through inbox.
type Table struct {
	code  string
	lobby *Lobby
	inbox chan func()
	done  chan struct{}

	spec    *rules.Spec
	opts    rules.Options
	private bool
	created time.Time
	state   string
	seats   []*seat
	host    string // player id of the host
	owner   string // player id of the table's own host, who gets the role back on return
	members map[*Member]struct{}
	game    rules.Game
	// hostWait is until when the host role waits for its host after a restart, rather
	// than passing to the first player back (restore.go); zero otherwise.
	hostWait   time.Time
	games      int               // games started here (counting the one restored): which game is t.game
	content    map[string][]byte // the running game's content, also handed to its bots
	result     *rules.Result
	chat       []ChatLine
	chatID     int
	rng        *rand.Rand
	emptySince time.Time     // when the last connected human left; zero while someone is here
	progressAt time.Time     // when the game last moved on (an action, a deadline), by the wall clock: how long it has waited
	stallTold  bool          // the table was told it waits (checkStall) since progressAt
	heldUpBy   []int         // then, the seats it waits for (TableInfo.HeldUpBy)
	resultOf   string        // the name of the game whose result is result
	dirty      bool          // something members see has changed since the last fan-out
	dirtySince time.Time     // when the oldest unsent change happened, for the latency metric
	closing    Closed        // set: close the table after this step, telling members why
	closedBy   *Member       // the host who closed it, who is told so in their own words
	jr         *tableJournal // the table's log (journal.go); nil without a store
	deck       *tablePack    // the chosen pack; nil: the built-in deck (deck.go)
	mix        bool          // the pack is mixed with the built-in deck
	shared     []tablePack   // packs players shared with the table
	everything bool          // the content option: tagged adult entries are played too

	// blocked are the keys the host keeps out until unblocked (moderation.go).
	blocked []blockedPlayer

	// calls are the ids of the calls applied lately; call is the one this step applies,
	// whose entries carry it until the step ends (calls.go).
	calls callSet
	call  string
}

func newTable(l *Lobby, code string, spec *rules.Spec, opts rules.Options, private bool, now time.Time) *Table {
	t := &Table{
		code: code, lobby: l, inbox: make(chan func()), done: make(chan struct{}),
		spec: spec, opts: opts, private: private, created: now, state: StateWaiting,
		members: map[*Member]struct{}{},
		rng:     rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())),
	}
	if l.journal != nil {
		t.jr = newTableJournal(l.journal)
	}
	return t
}

// run is the actor loop. A panic ends only this table: it is logged with the table code
// and every member is told.
func (t *Table) run(ctx context.Context) {
	ticks, stop := t.lobby.cfg.Clock.Every(t.lobby.cfg.Tick)
	defer func() {
		stop()
		if r := recover(); r != nil {
			t.lobby.log.Error("table crashed", "table", t.code, "panic", r, "stack", string(debug.Stack()))
			t.closing = closedBy(WhyClosed, "Sorry: this table hit an internal error and had to close.")
		}
		t.finishClose()
	}()
	for t.closing.IsZero() {
		select {
		case <-ctx.Done():
			t.stopForRestart()
			return
		case f := <-t.inbox:
			f()
		case now := <-ticks:
			// The time the tick came due, from the same clock as actions: a clock that a
			// test moves in steps may have moved on again before this table gets here.
			t.tick(now)
		case <-t.commitSignal():
			t.settle()
		}
		t.endStep(t.lobby.now())
		t.call = "" // the step's call ends with it (calls.go)
		// Only what is durable is shown: a crash cannot take back what a player saw.
		if t.dirty && t.closing.IsZero() && t.caughtUp() {
			t.fanOut()
		}
	}
}

// do runs f on the actor and returns its error; ErrTableClosed if the table is gone.
func (t *Table) do(f func(now time.Time) error) error {
	reply := make(chan error, 1)
	select {
	case t.inbox <- func() { t.answer(reply, f(t.lobby.now())) }:
	case <-t.done:
		return t.stopped()
	}
	select {
	case err := <-reply:
		return err
	case <-t.done:
		// f may have been what closed the table: its answer is already here, then.
		select {
		case err := <-reply:
			return err
		default:
			return t.stopped()
		}
	}
}

// stopped is the answer of a call that came after the actor stopped: in a cluster, a
// table stopped with its log kept goes on at another node (ErrMoving). t.done is closed.
func (t *Table) stopped() error {
	if t.lobby.cfg.Cluster != nil && t.jr != nil && t.jr.keep {
		return ErrMoving
	}
	return ErrTableClosed
}

func (t *Table) changed(now time.Time) {
	if !t.dirty {
		t.dirty, t.dirtySince = true, now
	}
}

func (t *Table) tick(now time.Time) {
	t.advance(now)
	if !t.hostWait.IsZero() && !now.Before(t.hostWait) {
		t.hostWait = time.Time{}
		t.passHost(now) // the host did not come back after the restart
	}
	if t.connectedHumans() > 0 {
		t.emptySince = time.Time{}
	} else if t.emptySince.IsZero() {
		t.emptySince = now
	} else if now.Sub(t.emptySince) >= t.lobby.cfg.IdleClose {
		t.closing = closedBy(WhyClosed, "The table closed: nobody was connected for a while.")
	}
}

// advance brings the game's deadlines up to now, lets the bots answer what that
// changed, and ends the game if that finished it. It runs on every tick and before every
// action, so an action stamped after a deadline meets the game as the deadline left it,
// whether or not the ticker has come round yet.
func (t *Table) advance(now time.Time) {
	if t.game == nil || t.state != StatePlaying {
		return
	}
	if t.game.Tick(now) {
		t.changed(now)
		t.progressed(now)
	}
	t.checkAway(now)
	t.checkStall(now)
	t.runBots(now)
	t.checkOver(now)
}

// runBots lets every bot act until none wants to; bounded so a faulty bot cannot spin.
func (t *Table) runBots(now time.Time) {
	for round := 0; round < 64; round++ {
		acted := false
		for i, s := range t.seats {
			bot := s.bot
			if bot == nil {
				bot = s.standIn
			}
			if bot == nil || t.game == nil {
				continue
			}
			if _, over := t.game.Outcome(); over {
				return
			}
			a := bot.Act(t.game.View(i), now)
			if a == nil {
				continue
			}
			raw := rules.Encode(a)
			if err := rules.ApplyBy(t.game, i, raw, now, s.bot == nil); err != nil {
				if errors.Is(err, rules.ErrTimeUp) {
					continue // its time is up, while a seat given more time plays on: expected
				}
				// Only the action's type: a game's error may quote the bot's secret choice.
				typ, _ := rules.ActionType(raw)
				t.lobby.log.Warn("bot action refused", "table", t.code, "game", t.spec.ID, "seat", i, "action", typ)
				continue
			}
			t.lobby.hooks.action(t.spec.ID)
			acted = true
			t.changed(now)
			t.progressed(now)
		}
		if !acted {
			return
		}
	}
}

func (t *Table) checkOver(now time.Time) {
	if t.game == nil || t.state != StatePlaying {
		return
	}
	outcome, over := t.game.Outcome()
	if !over {
		return
	}
	// A copy declared here: t.result keeps its address, and a variable whose address is
	// kept lives on the heap from its declaration, which for outcome would be on every
	// tick (TestAQuietTickAllocatesNothing).
	res := outcome
	t.state = StateFinished
	t.result, t.resultOf = &res, t.spec.Name
	for _, s := range t.seats {
		if s.member != nil {
			s.standIn = nil // a bot played for an idle player: the game it played is over
		}
	}
	t.changed(now)
	t.system(now, "Game over: %s", res.Summary)
	t.lobby.log.Info("game finished", "table", t.code, "game", t.spec.ID)
	t.lobby.hooks.finished(t.spec.ID)
	if t.lobby.cfg.OnFinish != nil {
		rec := FinishedGame{Game: t.spec.ID, Table: t.code, At: t.lobby.Shown(now), Result: res}
		for _, s := range t.seats {
			id := s.player.ID
			if s.bot != nil || s.player.Guest {
				id = ""
			}
			rec.Players = append(rec.Players, id)
			rec.Names = append(rec.Names, s.player.Name)
		}
		// Never block the actor on storage, but let Shutdown wait for the record: the
		// server closes its store right after. (The actor still counts in wg here, so
		// this Add cannot race with a Wait that has already seen zero.)
		t.lobby.wg.Add(1)
		go func() {
			defer t.lobby.wg.Done()
			t.lobby.cfg.OnFinish(rec)
		}()
	}
}

// FinishedGame is what the lobby reports when a game ends, for the store.
type FinishedGame struct {
	Game, Table string
	At          time.Time // when it ended, by the wall clock (Lobby.Shown)
	Players     []string  // player id per seat; "" for bots and guests
	Names       []string
	Result      rules.Result
}

// fanOut sends every member the newest state it may see. Views are computed once per seat.
func (t *Table) fanOut() {
	views := map[int]rules.View{}
	info := t.info(views)
	t.lobby.publish(info, t.seatIDs(), t.host)
	chat := t.chatTail()
	var some *audiences // when some lines are for some seats only
	if slices.ContainsFunc(chat, ChatLine.addressed) {
		some = &audiences{chat: chat}
	}
	shared := &Shared{}
	var hostInfo *TableInfo // info with the host's own packs among the deck's choices
	for m := range t.members {
		seat := m.seat
		host := m.isHost()
		u := Update{Table: info, Seat: seat, Host: m.player.Admin || host, Chat: chat, Shared: shared}
		if some != nil {
			u.Chat, u.Shared = some.forSeat(seat)
		}
		if len(m.ignored) > 0 {
			u.Chat, u.Shared = m.withoutIgnored(u.Chat), &Shared{}
			u.Ignored = m.ignoredNames()
		}
		if host || m.player.Admin {
			if hostInfo == nil {
				hi := info
				hi.Choices = t.choices(true)
				hi.Blocked = t.blockedNames()
				hostInfo = &hi
			}
			if host {
				u.Table = *hostInfo
			} else if len(hostInfo.Blocked) > 0 {
				u.Table.Blocked = hostInfo.Blocked
			}
		}
		if t.game != nil {
			inGame := t.inGame(seat)
			u.View = t.view(views, inGame)
			if m.told != t.games {
				u.History, m.told = rules.HistoryOf(t.game, inGame), t.games
			}
		}
		m.box.put(u)
	}
	t.lobby.hooks.fanOut(t.lobby.now().Sub(t.dirtySince))
	t.dirty = false
}

// lastResult is the last game's result, for TableInfo: named by its game when the table
// has switched to another since (switchGame).
func (t *Table) lastResult() *rules.Result {
	if t.result == nil || t.resultOf == "" || t.resultOf == t.spec.Name {
		return t.result
	}
	r := *t.result
	r.Summary = t.resultOf + ": " + r.Summary
	return &r
}

// inGame is a table seat's seat in the game (seat.inGame); rules.Spectator for a
// spectator or a seat that has none.
func (t *Table) inGame(seat int) int {
	if seat < 0 || seat >= len(t.seats) {
		return rules.Spectator
	}
	return t.seats[seat].inGame
}

// gameSeats is TableInfo.GameSeats: nil while every seat is its own in the game.
func (t *Table) gameSeats() []int {
	out := make([]int, len(t.seats))
	same := true
	for i, s := range t.seats {
		out[i], same = s.inGame, same && s.inGame == i
	}
	if same || t.game == nil {
		return nil
	}
	return out
}

// seatIDs lists the players who can come back to a seat here: a guest too, on the
// connection it came with.
func (t *Table) seatIDs() []string {
	ids := make([]string, 0, len(t.seats))
	for _, s := range t.seats {
		if s.bot == nil {
			ids = append(ids, s.player.ID)
		}
	}
	return ids
}

func (t *Table) chatTail() []ChatLine {
	n := len(t.chat)
	if n > chatSent {
		n = chatSent
	}
	out := append([]ChatLine(nil), t.chat[len(t.chat)-n:]...)
	for i := range out {
		out[i].by = "" // the writer's id stays at the table (moderation.go)
	}
	return out
}

// view is seat's view of the game, kept in views (when not nil) for the next who
// wants it: a fan-out makes each seat's once, and the spectators' once for the lobby's
// round and every spectator.
func (t *Table) view(views map[int]rules.View, seat int) rules.View {
	if v, ok := views[seat]; ok {
		return v
	}
	v := t.game.View(seat)
	if views != nil {
		views[seat] = v
	}
	return v
}

// info is the table's public state; views as for view.
func (t *Table) info(views map[int]rules.View) TableInfo {
	min, max := t.spec.PlayerRange(t.opts)
	info := TableInfo{
		Code: t.code, Game: t.spec.ID, GameName: t.spec.Name, State: t.state, Private: t.private,
		Options: cloneOptions(t.opts), MinPlayers: min, MaxPlayers: max, Result: t.lastResult(), Created: t.created,
		Choices: t.choices(false), GameSeats: t.gameSeats(), HeldUpBy: slices.Clone(t.heldUpBy), GameNo: t.games,
	}
	for k, v := range t.tableOptionValues() {
		info.Options[k] = v
	}
	if t.game != nil {
		info.Round = t.view(views, rules.Spectator).Head().Round
	}
	var teams []string
	if t.spec.Teams != nil {
		teams = t.spec.Teams(t.opts, len(t.seats))
	}
	for i, s := range t.seats {
		info.Seats = append(info.Seats, SeatInfo{
			Name: s.player.Name, Bot: s.bot != nil, Guest: s.player.Guest && s.bot == nil,
			Away: s.bot == nil && s.member == nil, Host: s.bot == nil && s.player.ID == t.host,
			AwaySince: s.awaySince, StandIn: s.standIn != nil, More: s.moreShown(),
		})
		if i < len(teams) {
			info.Seats[i].Team = teams[i]
		}
	}
	for m := range t.members {
		if m.seat < 0 {
			info.Spectators++
		}
	}
	return info
}

func cloneOptions(o rules.Options) rules.Options {
	c := make(rules.Options, len(o))
	for k, v := range o {
		c[k] = v
	}
	return c
}

// system adds a chat line from the table itself.
func (t *Table) system(now time.Time, format string, args ...any) {
	t.addChat(now, "table", -2, fmt.Sprintf(format, args...))
}

func (t *Table) addChat(now time.Time, from string, seat int, text string) {
	t.say(now, "", from, seat, text)
}

// say adds a chat line written by the player with id by ("" for the table itself).
func (t *Table) say(now time.Time, by, from string, seat int, text string) {
	t.chatID++
	t.chat = append(t.chat, ChatLine{ID: t.chatID, At: t.lobby.Shown(now), From: from, Seat: seat, Text: text, by: by})
	if len(t.chat) > chatKept {
		t.chat = append(t.chat[:0:0], t.chat[len(t.chat)-chatKept:]...)
	}
	t.changed(now)
}

func (t *Table) connectedHumans() int {
	return len(t.members)
}

func (t *Table) seatOf(playerID string) int {
	for i, s := range t.seats {
		if s.bot == nil && s.player.ID == playerID {
			return i
		}
	}
	return -1
}

// attach adds a member and sends it the current state at once.
func (t *Table) attach(m *Member, now time.Time) {
	t.members[m] = struct{}{}
	t.emptySince = time.Time{}
	t.changed(now)
}

// detach removes a member; its mailbox is closed with reason.
func (t *Table) detach(m *Member, reason Closed) {
	if _, ok := t.members[m]; !ok {
		return
	}
	delete(t.members, m)
	if m.seat >= 0 && m.seat < len(t.seats) && t.seats[m.seat].member == m {
		t.seats[m.seat].member = nil
	}
	m.box.close(reason)
}

// removeSeat takes a seat out before a game starts; seats after it move up one.
func (t *Table) removeSeat(i int) {
	t.seats = append(t.seats[:i], t.seats[i+1:]...)
	for m := range t.members {
		if m.seat > i {
			m.seat--
		} else if m.seat == i {
			m.seat = rules.Spectator
		}
	}
}

// passHost gives the host role to the first connected human if the host is not here.
func (t *Table) passHost(now time.Time) {
	i := t.seatOf(t.host)
	if i >= 0 && t.seats[i].member != nil {
		return
	}
	if i >= 0 && now.Before(t.hostWait) {
		return // back from a restart: the host is on their way back too
	}
	for _, s := range t.seats {
		if s.bot == nil && s.member != nil {
			t.host = s.player.ID
			t.system(now, "%s is now the host.", s.player.Name)
			return
		}
	}
}

func (t *Table) botName() string {
	used := map[string]bool{}
	for _, s := range t.seats {
		used[s.player.Name] = true
	}
	for _, n := range strings.Fields(botNames) {
		if name := "Bot " + n; !used[name] {
			return name
		}
	}
	return fmt.Sprintf("Bot %d", len(t.seats)+1)
}

// finishClose runs once when the actor stops: the lobby forgets the table, then members
// are told why (so a member told the table closed finds it gone from the lobby too).
func (t *Table) finishClose() {
	t.closeLog(t.lobby.now())
	t.lobby.forget(t.code)
	t.lobby.tableGone(t)
	for m := range t.members {
		if m == t.closedBy {
			t.detach(m, closedBy(WhyClosed, "You closed the table."))
			continue
		}
		t.detach(m, t.closing)
	}
	if t.jr != nil && t.jr.keep {
		// Stopped with its log kept: it comes back when the server does.
		t.lobby.log.Info("table saved for the restart", "table", t.code)
	} else {
		t.lobby.log.Info("table closed", "table", t.code, "reason", t.closing.Text)
	}
	close(t.done) // last: Shutdown returns once every table's is closed
}
