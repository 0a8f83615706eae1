package lobby

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"golang.org/x/time/rate"

	"parlor/playertext"
	"parlor/rules"
	"parlor/store"
)

// Member is one connection's place at a table, as a player or a spectator. Its methods
// may be called from the member's own goroutine only; they ask the table actor to act.
type Member struct {
	t      *Table
	player Player
	box    *mailbox
	seat   int // owned by the table actor
	// told is the table's game (Table.games) whose history the member's updates carried
	// (owned by the table actor): the first update of a game does, the later ones not.
	told int
	// offers are the player's packs this game plays (deck.go), fetched from the store
	// before the member's step; the actor gives them to the member's seat.
	offers []store.Pack
	// rejoin: the member follows its table after a move, and gives way to a newer
	// connection of its player (Lobby.Rejoin).
	rejoin bool
	// ignored are the players whose chat the member does not get, by id, to the name
	// they had when ignored (owned by the table actor; moderation.go).
	ignored map[string]string

	// Actions: a burst big enough for a paste or a held arrow key; chat: a few lines at
	// once, then one every two seconds. Both run on the lobby's clock.
	actions *rate.Limiter
	chats   *rate.Limiter

	// call is the id of the call the member's goroutine runs, one that may come again
	// (CallOnce, calls.go); "" for none.
	call string
}

func newMember(t *Table, p Player) *Member {
	return &Member{
		t: t, player: p, box: newMailbox(), seat: rules.Spectator,
		actions: rate.NewLimiter(15, 40),
		chats:   rate.NewLimiter(0.5, 6),
	}
}

// Code is the table's join code.
func (m *Member) Code() string { return m.t.code }

// Next waits for the newest update. ok is false once the member is out of the table;
// reason then says why in words for the player.
func (m *Member) Next(ctx context.Context) (u Update, ok bool, reason Closed) {
	return m.box.next(ctx)
}

// Notify is Next for a member that holds no goroutine waiting: f is called whenever an
// update or the close waits and none did before, and then Take reads it. f runs on the
// table actor, so it must not block (hand the news to a goroutine of its own). Use
// either Next or Notify with Take for one member, not both.
func (m *Member) Notify(f func()) { m.box.setNotify(f) }

// Take reads what Notify announced without waiting: the newest update if one is
// pending (has), and the reason once the member is out of the table (closed; the last
// update may come with it).
func (m *Member) Take() (u Update, has bool, closed Closed) { return m.box.take() }

func (m *Member) allow(lim *rate.Limiter) error {
	if !lim.AllowN(m.t.lobby.now(), 1) {
		return ErrSlowDown
	}
	return nil
}

// act applies a game action (its JSON) for the member's seat. The error, if any, is the
// game's own readable message.
func (m *Member) act(raw json.RawMessage) error {
	if err := m.allow(m.actions); err != nil {
		return err
	}
	action, texts := cleanActionTexts(raw)
	if len(texts) > 0 {
		if err := m.muted(); err != nil {
			return err
		}
	}
	return m.do(func(now time.Time) error {
		if err := m.present(); err != nil {
			return err
		}
		if m.seat < 0 {
			return ErrSpectator
		}
		for _, text := range texts {
			if err := m.t.filtered(text, "your text"); err != nil {
				return err
			}
		}
		m.resume(now) // acting is the API's key press
		m.t.advance(now)
		if m.t.game == nil || m.t.state != StatePlaying {
			return ErrNoGame
		}
		m.t.call = m.call // the action's entry carries the call's id (calls.go)
		err := m.t.game.Apply(m.seat, action, now)
		m.t.call = "" // not the bots' answers to it
		if err != nil {
			return err
		}
		m.t.lobby.hooks.action(m.t.spec.ID)
		m.t.changed(now)
		m.t.progressed(now)
		m.t.runBots(now)
		m.t.checkOver(now)
		return nil
	})
}

// chat says text at the table.
func (m *Member) chat(text string) error {
	text = playertext.Short(text, chatMax)
	if text == "" {
		return ErrEmptyChat
	}
	if err := m.muted(); err != nil {
		return err
	}
	if err := m.allow(m.chats); err != nil {
		return err
	}
	return m.do(func(now time.Time) error {
		if err := m.present(); err != nil {
			return err
		}
		if err := m.t.filtered(text, "your message"); err != nil {
			return err
		}
		if m.seat < 0 { // a seated player's name was checked when they sat down
			if err := m.t.filtered(m.player.Name, "your name"); err != nil {
				return err
			}
		}
		m.t.say(now, m.player.ID, m.player.Name, m.seat, text)
		return nil
	})
}

// present fails once the member has been detached (kicked, replaced, or left).
func (m *Member) present() error {
	if _, ok := m.t.members[m]; !ok {
		return ErrTableClosed
	}
	return nil
}

// isHost reports whether the member holds the table's host role.
func (m *Member) isHost() bool {
	return m.seat >= 0 && m.seat < len(m.t.seats) && m.t.seats[m.seat].player.ID == m.t.host
}

// actor names who used the host's controls, for the players told of it: the host, or
// an admin who is not (admins have the host's controls at every table). Players must
// not think their host removed them or closed the table.
func (m *Member) actor() string {
	if m.isHost() {
		return "The host"
	}
	return "An admin (" + m.player.Name + ")"
}

// hostOnly fails unless the member holds the host role (or is an admin).
func (m *Member) hostOnly() error {
	if err := m.present(); err != nil {
		return err
	}
	if !m.isHost() && !m.player.Admin {
		return ErrNotHost
	}
	return nil
}

// beforeStart fails while a game is running.
func (t *Table) beforeStart() error {
	if t.state == StatePlaying {
		return fmt.Errorf("not while a game is running: the table can change when it ends")
	}
	return nil
}

// Start starts a game (the host only), with the seated players and bots.
func (m *Member) start() error {
	return m.do(func(now time.Time) error {
		if err := m.hostOnly(); err != nil {
			return err
		}
		m.t.call = m.call // the game's entries carry the call's id (calls.go)
		if err := m.t.start(now); err != nil {
			return err
		}
		if !m.isHost() {
			m.t.system(now, "%s started the game.", m.actor())
		}
		return nil
	})
}

func (t *Table) start(now time.Time) error {
	if err := t.beforeStart(); err != nil {
		return err
	}
	min, max := t.spec.PlayerRange(t.opts)
	if n := len(t.seats); n < min || n > max {
		return fmt.Errorf("%s needs %s with these options; %d seated: invite players or add bots", t.spec.Name, playerRange(min, max), n)
	}
	content, own, err := t.gameContent()
	if err != nil {
		return fmt.Errorf("start %s: %w", t.spec.Name, err)
	}
	setup := rules.Setup{Seed: t.rng.Uint64(), Options: forGame(t.opts), Content: content, Now: now}
	for _, s := range t.seats {
		setup.Names = append(setup.Names, s.player.Name)
	}
	g, err := t.spec.New(setup)
	if err != nil {
		small := (*rules.SmallDeckError)(nil)
		if errors.As(err, &small) {
			err = small // the game's own words ("quadrant: bad content") are for logs
		}
		if t.deck == nil {
			return err
		}
		if small != nil && !t.everything && bytes.Contains(t.deck.Pack.Content, []byte(rules.AdultTag)) {
			// A pack counts its entries marked [adult] ("pack add" said 6), a family
			// table leaves them out (5 here): say why the numbers differ.
			return fmt.Errorf("the deck %q: %w (Content is family: its entries marked %s are left out)", t.deckLabel(), err, rules.AdultTag)
		}
		return fmt.Errorf("the deck %q: %w", t.deckLabel(), err)
	}
	g = t.logGame(now, setup, own, g)
	t.game, t.content, t.result, t.state = g, content, nil, StatePlaying
	t.games++
	t.progressed(now)
	var standIns []string
	for i, s := range t.seats {
		s.inGame = i
		if s.bot != nil {
			s.bot = t.newBot(i)
		}
		if s.standIn != nil {
			s.standIn = t.newBot(i) // for an away player (game over ends an idle one's)
			standIns = append(standIns, s.player.Name)
		}
	}
	t.paceStart(now)
	t.system(now, "The game has started. Good luck!")
	if len(standIns) > 0 {
		// Said at the start: the bot plays from the first move, which nobody would
		// otherwise know was not the player's.
		t.system(now, "A bot plays for %s, away since the last game, until they are back.", rules.List(standIns))
	}
	t.lobby.log.Info("game started", "table", t.code, "game", t.spec.ID, "players", len(t.seats))
	t.lobby.hooks.started(t.spec.ID)
	t.runBots(now)
	t.checkOver(now)
	return nil
}

// newBot makes a bot for seatNo with the table's options (the bot skill among them) and
// the running game's content; a bot seated before the start gets no content, and is made
// again when the game starts.
func (t *Table) newBot(seatNo int) rules.Bot {
	return t.spec.NewBot(rules.BotSetup{Seat: seatNo, Seed: t.rng.Uint64(), Options: forGame(t.opts), Content: t.content})
}

func playerRange(min, max int) string {
	if min == max {
		return fmt.Sprintf("exactly %d players", min)
	}
	return fmt.Sprintf("%d to %d players", min, max)
}

// SetOptions changes the game options (the host only, before a game starts).
func (m *Member) setOptions(o rules.Options) error {
	// Choosing the deck reads the member's packs afresh (from the store, before the
	// actor's turn): a pack the host added while seated is a choice at once.
	_, deck := o[OptDeck]
	var game *rules.Spec
	if name, ok := o[OptGame]; ok {
		var err error
		if game, err = gameNamed(name); err != nil {
			return err
		}
	}
	// The host's packs, from the store before the actor's turn; on it, those the table's
	// game plays (the new game's, after a switch) are the deck's choices.
	var usable []store.Pack
	if game != nil || deck {
		usable, _ = m.t.lobby.usable(m.player)
	}
	return m.do(func(now time.Time) error {
		if err := m.hostOnly(); err != nil {
			return err
		}
		if err := m.t.beforeStart(); err != nil {
			return err
		}
		if game != nil {
			if err := m.t.switchGame(game, o, m.actor(), now); err != nil {
				return err
			}
		}
		if (deck || game != nil) && m.seat >= 0 && m.seat < len(m.t.seats) {
			offers := packsFor(usable, m.t.spec)
			m.offers, m.t.seats[m.seat].offers = offers, offers
		}
		merged := cloneOptions(m.t.opts)
		for k, v := range gameOptions(o) {
			merged[k] = v
		}
		checked, err := checkOptions(m.t.spec, merged)
		if err != nil {
			return err
		}
		if _, max := m.t.spec.PlayerRange(checked); len(m.t.seats) > max {
			return fmt.Errorf("those options allow at most %d players and %d are seated: remove someone first", max, len(m.t.seats))
		}
		if err := m.t.setTableOptions(o); err != nil {
			return err
		}
		m.t.opts = checked
		m.t.changed(now)
		return nil
	})
}

// AddBot seats a bot (the host only, before a game starts).
func (m *Member) addBot() error {
	return m.do(func(now time.Time) error {
		if err := m.hostOnly(); err != nil {
			return err
		}
		if err := m.t.beforeStart(); err != nil {
			return err
		}
		if _, max := m.t.spec.PlayerRange(m.t.opts); len(m.t.seats) >= max {
			return ErrFull
		}
		name := m.t.botName()
		m.t.seats = append(m.t.seats, &seat{player: Player{ID: "bot:" + name, Name: name}, bot: m.t.newBot(len(m.t.seats)), inGame: rules.Spectator})
		m.t.system(now, "%s takes a seat.", name)
		return nil
	})
}

// Kick removes the player or bot in seat (the host only). During a game a bot takes the
// seat over, so the game can go on.
func (m *Member) kick(seatNo int) error {
	return m.do(func(now time.Time) error {
		if err := m.hostOnly(); err != nil {
			return err
		}
		if err := m.removable(seatNo); err != nil {
			return err
		}
		m.t.removeFromSeat(seatNo, now, closedBy(WhyRemoved, m.actor()+" removed you from the table."))
		return nil
	})
}

// removable fails unless the host's controls may remove whoever is in seatNo.
func (m *Member) removable(seatNo int) error {
	t := m.t
	if seatNo < 0 || seatNo >= len(t.seats) {
		return ErrBadSeat
	}
	if seatNo == m.seat {
		return fmt.Errorf("you cannot remove yourself: leave the table instead")
	}
	if s := t.seats[seatNo]; t.state == StatePlaying && s.bot != nil {
		return fmt.Errorf("%s is already a bot", s.player.Name)
	}
	return nil
}

// removeFromSeat takes the player or bot out of seatNo, and its connection away from
// the table, told why. During a game a bot takes the seat over, so the game can go on.
func (t *Table) removeFromSeat(seatNo int, now time.Time, why Closed) {
	s := t.seats[seatNo]
	gone := s.member
	if t.state == StatePlaying {
		s.bot, s.standIn = t.newBot(seatNo), nil
		if s.more > 1 { // the player's extra time goes with them: a bot needs none
			s.more = 0
			t.paceGame(s.inGame, 1, now)
		}
		// The seat is the bot's for good: its name says so wherever seats are named.
		t.system(now, "A bot now plays for %s.", s.player.Name)
		s.player = Player{ID: "bot:" + s.player.Name, Name: "Bot for " + s.player.Name}
		t.runBots(now)
		t.checkOver(now)
	} else {
		t.removeSeat(seatNo)
		t.system(now, "%s left the table.", s.player.Name)
	}
	if gone != nil {
		// Published before the removed player hears of it: their lobby, read at once,
		// must not offer them the seat back.
		t.lobby.publish(t.info(nil), t.seatIDs(), t.host)
		t.detach(gone, why)
	}
}

// MakeHost hands the host role to the human in seat (the host only).
func (m *Member) makeHost(seatNo int) error {
	return m.do(func(now time.Time) error {
		if err := m.hostOnly(); err != nil {
			return err
		}
		if seatNo < 0 || seatNo >= len(m.t.seats) || m.t.seats[seatNo].bot != nil {
			return fmt.Errorf("the host must be a player at the table")
		}
		if m.t.seats[seatNo].member == nil {
			return fmt.Errorf("%s is away", m.t.seats[seatNo].player.Name)
		}
		m.t.host = m.t.seats[seatNo].player.ID
		m.t.owner = m.t.host // handed over: the role no longer goes back
		m.t.system(now, "%s is now the host.", m.t.seats[seatNo].player.Name)
		return nil
	})
}

// CloseTable ends the table for everyone (the host only).
func (m *Member) closeTable(message string) error {
	message = playertext.Short(message, chatMax)
	return m.do(func(now time.Time) error {
		if err := m.hostOnly(); err != nil {
			return err
		}
		text := m.actor() + " closed the table."
		if message != "" {
			text = m.actor() + " closed the table: " + message
		}
		m.t.closing, m.t.closedBy = closedBy(WhyClosed, text), m
		return nil
	})
}

// depart takes the member away from the table (Leave, Disconnect). Before a game the seat
// is freed, unless the connection ended (!freeSeat) and a key-holding player may take it
// back by connecting again; during a game it stays (shown as away) so the player can come
// back, and the game's timers decide what an absent player's turn does.
func (m *Member) depart(freeSeat bool) {
	_ = m.t.do(func(now time.Time) error {
		t := m.t
		if _, ok := t.members[m]; !ok {
			return nil
		}
		seatNo := m.seat
		t.detach(m, closedBy(WhyLeft, "You left the table."))
		t.changed(now)
		if seatNo < 0 {
			return nil
		}
		s := t.seats[seatNo]
		if t.state != StatePlaying && (freeSeat || s.player.Guest) {
			t.removeSeat(seatNo)
			t.system(now, "%s left the table.", s.player.Name)
		} else {
			t.goneAway(s, now, freeSeat)
		}
		t.passHost(now)
		if t.state != StatePlaying && t.humanSeats() == 0 {
			t.closing = closedBy(WhyClosed, "Everyone left the table.")
		}
		return nil
	})
}

func (t *Table) humanSeats() int {
	n := 0
	for _, s := range t.seats {
		if s.bot == nil {
			n++
		}
	}
	return n
}
