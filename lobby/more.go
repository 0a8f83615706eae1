package lobby

import (
	"time"

	"parlor/rules"
	"parlor/store"
)

// More time for one seat. A seat's time factor (ExtraTime) is table state: it is kept
// with the seat (seat.more), shown in TableInfo's seats, and written with them to the
// table log, so it outlives a restart and a failover. It reaches the running game by
// rules.Paced: every call is logged as a "pace" entry in order with the game's actions
// and ticks, so a replay gives each seat the same time at the same point of the game.

// recPace is a seat's time factor given to the running game (record.Seat, record.Factor).
const recPace = "pace"

// LinearMoreTime is the time factor the linear mode's door asks for its player
// (Player.MoreTime) when they sit down: a screen reader reads slower than an eye.
const LinearMoreTime rules.Factor = 2

// factor is the seat's time factor, ×1 unless it was given more.
func (s *seat) factor() rules.Factor {
	if s.more <= 1 {
		return 1
	}
	return s.more
}

// moreShown is SeatInfo.More: the factor when it is more than ×1, else zero.
func (s *seat) moreShown() rules.Factor {
	if s.more <= 1 {
		return 0
	}
	return s.more
}

// extraTime gives the player in seatNo f times the table's time limits. The host (or an
// admin) gives it; a player may give back time of their own (a factor no larger than
// theirs), so a door that gave its player more time on sitting can take it back.
func (m *Member) extraTime(seatNo int, f rules.Factor) error {
	if err := f.Check(); err != nil {
		return err
	}
	return m.do(func(now time.Time) error {
		if err := m.present(); err != nil {
			return err
		}
		s, err := m.t.seatAt(seatNo)
		if err != nil {
			return err
		}
		host := m.isHost() || m.player.Admin
		own := m.seat >= 0 && seatNo == m.seat
		switch {
		case host:
		case own && f <= s.factor():
		case own:
			return told(ErrNotHost, "only the host can give you more time; you can give yours back")
		default:
			return ErrNotHost
		}
		if f == s.factor() {
			return nil
		}
		by := s.player.Name
		if host && !own {
			by = m.actor()
		}
		m.t.giveMore(seatNo, f, now, by)
		return nil
	})
}

// giveMore sets seatNo's time factor, tells the table who gave it, and gives it to the
// running game.
func (t *Table) giveMore(seatNo int, f rules.Factor, now time.Time, by string) {
	s := t.seats[seatNo]
	s.more = f
	if f <= 1 {
		s.more = 0
	}
	if t.state == StatePlaying {
		t.paceGame(s.inGame, s.factor(), now)
	}
	name := s.player.Name
	switch {
	case f <= 1 && by == name:
		t.system(now, "%s plays at the table's own time limits again.", name)
	case f <= 1:
		t.system(now, "%s took %s's extra time back: the table's own time limits again.", by, name)
	case by == name:
		t.system(now, "%s has %s the table's time limits in every timed phase.", name, f)
	default:
		t.system(now, "%s gave %s more time: %s the table's time limits in every timed phase.", by, name, f)
	}
	t.changed(now)
}

// paceGame gives the game's seat inGame factor f, logged so a replay does the same.
func (t *Table) paceGame(inGame int, f rules.Factor, now time.Time) {
	g := t.game
	if lg, ok := g.(loggedGame); ok {
		g = lg.Game
	}
	if g == nil || inGame < 0 || !rules.SetPaceOf(g, inGame, f) {
		return
	}
	t.record(now, store.EntryEvent, record{Kind: recPace, Seat: inGame, Factor: f})
}

// paceStart gives a game just started every seat's time factor.
func (t *Table) paceStart(now time.Time) {
	for _, s := range t.seats {
		if f := s.factor(); f > 1 {
			t.paceGame(s.inGame, f, now)
		}
	}
}

// moreOnSitting gives a player who sits down (or comes back) the time their door asked
// for (Player.MoreTime), if it is more than the seat has.
func (t *Table) moreOnSitting(seatNo int, p Player, now time.Time) {
	if p.MoreTime.Check() != nil || p.MoreTime <= t.seats[seatNo].factor() {
		return
	}
	t.giveMore(seatNo, p.MoreTime, now, t.seats[seatNo].player.Name)
}

// replayPace gives the replayed game a logged time factor.
func (t *Table) replayPace(r record) error {
	if t.game == nil {
		return corrupt("a time factor before any game started")
	}
	if !rules.SetPaceOf(t.game, r.Seat, r.Factor) {
		return &restoreError{public: "this version of parlor plays " + t.spec.Name + " differently",
			detail: t.spec.ID + " engine no longer gives seats more time"}
	}
	return nil
}
