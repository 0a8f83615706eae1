package lobby

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"parlor/playertext"
	"parlor/rules"
	"parlor/store"
)

// Moderation at the table: the host blocks a player (kicks them and keeps their key out
// until unblocked or the table closes), a player ignores another's chat or reports them
// to the server's admins, and an admin's server-wide mute (Config.Muted) stops a player's
// chat and game texts. The family filter is filter.go's.

// Report is a player's complaint about another, for the admins.
type Report struct {
	Table              string
	ByID, ByName       string
	AboutID, AboutName string
	Reason             string
	Chat               []ChatLine // the table's recent lines
	At                 time.Time
	// Call is the id of the call that filed it when that call may come again (a
	// cluster's session sends a call whose answer did not come again): Config.Report
	// keeps one report per call. "" for none.
	Call string
}

// Errors of moderation a caller may branch on.
var (
	ErrBlocked   = rules.Sentinel("lobby.blocked", "the host has blocked you from this table")
	ErrMuted     = rules.Sentinel("lobby.muted", "an admin has muted you on this server")
	ErrNoReports = rules.Sentinel("lobby.no_reports", "reports are not kept on this server")
	ErrNoReason  = rules.Sentinel("lobby.no_reason", "a report needs a reason: say what happened, in a few words")
)

// reportMax is the longest reason of a report, in terminal columns.
const reportMax = 300

// reportTimeout bounds how long a player waits for their report to be kept.
const reportTimeout = 10 * time.Second

// blockedPlayer is a key the host keeps out of the table, and the name it had here.
type blockedPlayer struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// isBlocked tells whether p may not sit or watch here. Admins are never kept out: they
// moderate every table.
func (t *Table) isBlocked(p Player) bool {
	return !p.Admin && slices.ContainsFunc(t.blocked, func(b blockedPlayer) bool { return b.ID == p.ID })
}

// blockedNames lists the blocked players' names, for the host.
func (t *Table) blockedNames() []string {
	if len(t.blocked) == 0 {
		return nil
	}
	names := make([]string, len(t.blocked))
	for i, b := range t.blocked {
		names[i] = b.Name
	}
	return names
}

// blockable fails unless p may be blocked by the member.
func (m *Member) blockable(p Player) error {
	switch {
	case p.ID == m.player.ID:
		return fmt.Errorf("you cannot block yourself")
	case p.Admin:
		return fmt.Errorf("%s is an admin of this server, who cannot be blocked", p.Name)
	}
	return nil
}

// block removes the player in seatNo and keeps their key out (the host only).
func (m *Member) block(seatNo int) error {
	return m.do(func(now time.Time) error {
		if err := m.hostOnly(); err != nil {
			return err
		}
		t := m.t
		s, err := t.seatAt(seatNo)
		if err != nil {
			return err
		}
		if s.bot != nil {
			return fmt.Errorf("%s is a bot: remove it instead", s.player.Name)
		}
		if err := m.blockable(s.player); err != nil {
			return err
		}
		if err := m.removable(seatNo); err != nil {
			return err
		}
		p := s.player
		why := closedBy(WhyRemoved, m.actor()+" blocked you from this table.")
		t.keepOut(p)
		t.removeFromSeat(seatNo, now, why)
		t.sendAway(p.ID, why)
		t.changed(now)
		return nil
	})
}

// blockSpectator keeps out the spectator named name (the host only).
func (m *Member) blockSpectator(name string) error {
	name = strings.TrimSpace(name)
	return m.do(func(now time.Time) error {
		if err := m.hostOnly(); err != nil {
			return err
		}
		t := m.t
		var found *Member
		var names []string
		for o := range t.members {
			if o.seat >= 0 {
				continue
			}
			names = append(names, o.player.Name)
			if strings.EqualFold(o.player.Name, name) && found == nil {
				found = o
			}
		}
		if found == nil {
			slices.Sort(names)
			if len(names) == 0 {
				return fmt.Errorf("nobody is watching this table")
			}
			return fmt.Errorf("no spectator is named %q: watching are %s", playertext.Short(name, 40), rules.List(names))
		}
		if err := m.blockable(found.player); err != nil {
			return err
		}
		t.keepOut(found.player)
		t.sendAway(found.player.ID, closedBy(WhyRemoved, m.actor()+" blocked you from this table."))
		t.changed(now)
		return nil
	})
}

// keepOut adds p to the blocked players.
func (t *Table) keepOut(p Player) {
	if !slices.ContainsFunc(t.blocked, func(b blockedPlayer) bool { return b.ID == p.ID }) {
		t.blocked = append(t.blocked, blockedPlayer{ID: p.ID, Name: p.Name})
	}
}

// sendAway detaches every connection of the player with id from the table.
func (t *Table) sendAway(id string, why Closed) {
	for o := range t.members {
		if o.player.ID == id {
			t.detach(o, why)
		}
	}
}

// unblock lets the blocked player named name back (the host only).
func (m *Member) unblock(name string) error {
	name = strings.TrimSpace(name)
	return m.do(func(now time.Time) error {
		if err := m.hostOnly(); err != nil {
			return err
		}
		t := m.t
		i := slices.IndexFunc(t.blocked, func(b blockedPlayer) bool { return strings.EqualFold(b.Name, name) })
		if i < 0 {
			if len(t.blocked) == 0 {
				return fmt.Errorf("nobody is blocked at this table")
			}
			return fmt.Errorf("nobody named %q is blocked here: blocked are %s", playertext.Short(name, 40), rules.List(t.blockedNames()))
		}
		t.blocked = slices.Delete(t.blocked, i, i+1)
		t.changed(now)
		return nil
	})
}

// IgnoreBook keeps whom each player ignores, by key (store.Moderation has these).
type IgnoreBook interface {
	SetIgnore(ctx context.Context, by, about, name string) error
	Ignores(ctx context.Context, by string) (map[string]string, error)
	RemoveIgnore(ctx context.Context, by, about string) error
}

// ignoreBookWait bounds a read or write of the ignore book, which a join or an ignore
// waits for.
const ignoreBookWait = 3 * time.Second

// remembered is whom the player ignores, for a new member: read before the actor's turn,
// as the actor never waits on a store. A guest, whose identity is the connection's,
// starts with nobody; so does everyone when the book cannot be read (it is logged).
func (l *Lobby) remembered(p Player) map[string]string {
	if l.cfg.Ignores == nil || p.Guest || p.ID == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), ignoreBookWait)
	defer cancel()
	list, err := l.cfg.Ignores.Ignores(ctx, p.ID)
	if err != nil {
		l.log.Warn("could not read whom a player ignores; they start with nobody ignored", "player", p.ID, "err", err)
		return nil
	}
	if len(list) == 0 {
		return nil
	}
	return list
}

// remember writes an ignore (or its end) to the book, after the table applied it: the
// member's own goroutine waits, not the table. Between guests nothing is remembered (a
// guest's id is their connection's). A failed write is logged: the ignore holds for the
// session all the same.
func (m *Member) remember(about, name string, on bool, guest bool) {
	l := m.t.lobby
	if l.cfg.Ignores == nil || m.player.Guest || guest || about == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), ignoreBookWait)
	defer cancel()
	var err error
	if on {
		err = l.cfg.Ignores.SetIgnore(ctx, m.player.ID, about, name)
	} else if err = l.cfg.Ignores.RemoveIgnore(ctx, m.player.ID, about); errors.Is(err, store.ErrNotFound) {
		err = nil
	}
	if err != nil {
		l.log.Warn("could not remember an ignore; it holds for this session", "player", m.player.ID, "err", err)
	}
}

// ignore hides the chat of the player in seatNo from the member, and remembers it for
// the member's key.
func (m *Member) ignore(seatNo int) error {
	var about, name string
	var guest bool
	err := m.do(func(now time.Time) error {
		if err := m.present(); err != nil {
			return err
		}
		t := m.t
		s, err := m.otherPlayer(seatNo, "is a bot, which does not chat", "ignore")
		if err != nil {
			return err
		}
		if _, ok := m.ignored[s.player.ID]; ok {
			return fmt.Errorf("you already ignore %s", s.player.Name)
		}
		if m.ignored == nil {
			m.ignored = map[string]string{}
		}
		m.ignored[s.player.ID] = s.player.Name
		about, name, guest = s.player.ID, s.player.Name, s.player.Guest
		t.changed(now)
		return nil
	})
	if err == nil { // about stays "" for a call found applied: it was remembered then
		m.remember(about, name, true, guest)
	}
	return err
}

// unignore shows the chat of the ignored player named name again, and forgets the
// ignore for the member's key.
func (m *Member) unignore(name string) error {
	name = strings.TrimSpace(name)
	var about string
	err := m.do(func(now time.Time) error {
		if err := m.present(); err != nil {
			return err
		}
		for id, n := range m.ignored {
			if strings.EqualFold(n, name) {
				delete(m.ignored, id)
				about = id
				m.t.changed(now)
				return nil
			}
		}
		if len(m.ignored) == 0 {
			return fmt.Errorf("you ignore nobody")
		}
		return fmt.Errorf("you do not ignore anyone named %q: you ignore %s", playertext.Short(name, 40), rules.List(m.ignoredNames()))
	})
	if err == nil { // about is "" for a call found applied: nothing to forget again
		m.remember(about, "", false, false) // a guest was never written: ErrNotFound, ignored
	}
	return err
}

// ignoredNames lists the names of the players the member ignores, sorted.
func (m *Member) ignoredNames() []string {
	if len(m.ignored) == 0 {
		return nil
	}
	names := make([]string, 0, len(m.ignored))
	for _, n := range m.ignored {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// withoutIgnored is chat without the lines of the players the member ignores. Lines
// carry their writer's id (ChatLine.by) in the table's own chat only; chat, the copy
// members get, has none, so the lines are found by their ids.
func (m *Member) withoutIgnored(chat []ChatLine) []ChatLine {
	hidden := map[int]bool{}
	for _, l := range m.t.chat {
		if _, ok := m.ignored[l.by]; ok && l.by != "" {
			hidden[l.ID] = true
		}
	}
	if len(hidden) == 0 {
		return chat
	}
	out := make([]ChatLine, 0, len(chat))
	for _, l := range chat {
		if !hidden[l.ID] {
			out = append(out, l)
		}
	}
	return out
}

// report tells the admins about the player in seatNo, with the table's recent chat.
func (m *Member) report(seatNo int, reason string) error {
	reason = playertext.Short(reason, reportMax)
	if reason == "" {
		return ErrNoReason
	}
	hook := m.t.lobby.cfg.Report
	if hook == nil {
		return ErrNoReports
	}
	if err := m.allow(m.chats); err != nil {
		return err
	}
	var r Report
	err := m.t.do(func(now time.Time) error {
		if err := m.present(); err != nil {
			return err
		}
		t := m.t
		s, err := m.otherPlayer(seatNo, "is a bot: bots are not reported", "report")
		if err != nil {
			return err
		}
		r = Report{
			Table: t.code, ByID: m.player.ID, ByName: m.player.Name,
			AboutID: s.player.ID, AboutName: s.player.Name, Reason: reason, At: t.lobby.Shown(now), Call: m.call,
		}
		for _, l := range t.chatTail() {
			if !l.addressed() { // lines for some seats only are the table's own words to them
				r.Chat = append(r.Chat, l)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(m.t.lobby.ctx, reportTimeout)
	defer cancel()
	if err := hook(ctx, r); err != nil {
		m.t.lobby.log.Error("a report could not be kept", "table", r.Table, "err", err)
		return fmt.Errorf("your report could not be kept: please try again later")
	}
	m.t.lobby.hooks.reported()
	m.t.lobby.log.Info("player reported", "table", r.Table, "by", r.ByID, "about", r.AboutID)
	return nil
}

// muted fails when an admin has muted the member's player server-wide, saying why and
// until when. It asks Config.Muted, which may read a store: never on the actor.
func (m *Member) muted() error {
	f := m.t.lobby.cfg.Muted
	if f == nil {
		return nil
	}
	reason, until, muted := f(m.player.ID)
	if !muted {
		return nil
	}
	when := "until an admin lifts it"
	if !until.IsZero() {
		when = "until " + until.UTC().Format("2 Jan 2006 15:04 UTC")
	}
	why := ""
	if reason = strings.TrimSpace(reason); reason != "" {
		why = " (" + playertext.Short(reason, 120) + ")"
	}
	return told(ErrMuted, "an admin has muted you on this server%s: you cannot chat or write in games %s", why, when)
}

// filtered fails at a family table when text holds a word of the family filter.
func (t *Table) filtered(text, what string) error {
	if t.everything {
		return nil
	}
	return t.lobby.filtered(text, what)
}

// filtered is Table.filtered for a family table that is not made yet.
func (l *Lobby) filtered(text, what string) error {
	w, ok := l.filter.Find(text)
	if !ok {
		return nil
	}
	return told(ErrFiltered, "%s has %q, which the family filter does not allow at this table (its Content is family)", what, w)
}

// mayEnter fails when p may not sit or watch here: blocked by the host.
func (t *Table) mayEnter(p Player) error {
	if t.isBlocked(p) {
		return fmt.Errorf("table %s: %w", t.code, ErrBlocked)
	}
	return nil
}

// CloseTable closes table code for everyone, who are told notice (an operator's close,
// in their words). ErrNoTable when no such table runs on this server.
func (l *Lobby) CloseTable(code string, notice Closed) error {
	l.mu.Lock()
	t := l.tables[code]
	l.mu.Unlock()
	if t == nil {
		return ErrNoTable
	}
	return t.do(func(time.Time) error {
		t.closing, t.closedBy = notice, nil
		return nil
	})
}

// otherPlayer is the seat a member picks to ignore or report: another person, not a bot
// and not the member. bot ends the answer about a bot ("Bot Ada is a bot, …"); verb says
// what the member cannot do to themselves. On the table's actor.
func (m *Member) otherPlayer(seatNo int, bot, verb string) (*seat, error) {
	s, err := m.t.seatAt(seatNo)
	if err != nil {
		return nil, err
	}
	switch {
	case s.bot != nil:
		return nil, fmt.Errorf("%s %s", s.player.Name, bot)
	case s.player.ID == m.player.ID:
		return nil, fmt.Errorf("you cannot %s yourself", verb)
	}
	return s, nil
}
