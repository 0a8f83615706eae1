package lobby

import (
	"fmt"
	"strings"
	"time"

	"parlor/rules"
)

// seatMember gives the member's player a seat: their own seat back if they hold one
// (taking it over from an older connection; a guest's id is random to its connection,
// so only that connection takes a guest's seat back), else a free seat of a table that is not
// playing, under a name nobody else at the table has. A watching member who asks for a
// seat is told when one may come, not to watch.
func (t *Table) seatMember(m *Member, now time.Time, watching bool) error {
	p := m.player
	if err := t.mayEnter(p); err != nil {
		return err
	}
	if i := t.seatOf(p.ID); i >= 0 {
		s := t.seats[i]
		switch {
		case s.member != nil && s.member != m && m.rejoin:
			return ErrReplaced
		case s.member != nil && s.member != m:
			t.detach(s.member, Replaced)
			t.system(now, "%s reconnected.", s.player.Name)
		case s.standIn != nil:
			// Whatever the seat did meanwhile was the bot's: say so, to the player too.
			t.system(now, "%s is back and plays again; a bot played for them meanwhile.", s.player.Name)
		default:
			t.system(now, "%s is back.", s.player.Name)
		}
		t.back(s)
		s.member, m.seat, m.player.Name = m, i, s.player.Name
		s.offers = m.offers
		t.attach(m, now)
		t.moreOnSitting(i, p, now)
		t.hostReturns(now)
		t.passHost(now)
		return nil
	}
	if t.state == StatePlaying {
		if watching {
			return told(ErrStarted, "table %s: the game has already started: you can take a seat when it ends", t.code)
		}
		return fmt.Errorf("table %s: %w", t.code, ErrStarted)
	}
	if _, max := t.spec.PlayerRange(t.opts); len(t.seats) >= max {
		if watching {
			return told(ErrFull, "table %s: %s (%d of %d seats taken): you can take one when a player leaves", t.code, ErrFull, len(t.seats), max)
		}
		return fmt.Errorf("table %s: %w (%d of %d seats taken): you can watch it instead", t.code, ErrFull, len(t.seats), max)
	}
	if err := t.filtered(p.Name, "your name"); err != nil {
		return fmt.Errorf("%w: choose another name to sit here", err)
	}
	p.Name = t.uniqueName(p.Name)
	m.player.Name = p.Name
	t.seats = append(t.seats, &seat{player: p, member: m, offers: m.offers, inGame: rules.Spectator})
	m.seat = len(t.seats) - 1
	t.attach(m, now)
	t.system(now, "%s sits down.", p.Name)
	t.moreOnSitting(m.seat, p, now)
	t.passHost(now)
	return nil
}

// superscripts mark the second, third… player under the same name: "Ann²".
var superscripts = []string{"²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

// uniqueName is name, or name with the first free superscript number when someone at
// the table already has it (ignoring case), so everyone can tell the players apart.
func (t *Table) uniqueName(name string) string {
	taken := func(n string) bool {
		for _, s := range t.seats {
			if strings.EqualFold(s.player.Name, n) {
				return true
			}
		}
		return false
	}
	if !taken(name) {
		return name
	}
	for _, sup := range superscripts {
		if n := name + sup; !taken(n) {
			return n
		}
	}
	return fmt.Sprintf("%s (%d)", name, len(t.seats)+1)
}

// hostReturns gives the host role back to the table's host when they are back, unless
// they handed it over.
func (t *Table) hostReturns(now time.Time) {
	i := t.seatOf(t.owner)
	if i < 0 || t.seats[i].member == nil || t.host == t.owner {
		return
	}
	t.host = t.owner
	t.system(now, "%s is the host again.", t.seats[i].player.Name)
}

// TakeSeat seats a spectator at a table that is not playing, like joining it.
func (m *Member) takeSeat() error {
	usable, _ := m.t.lobby.usable(m.player) // from the store, before the actor's turn
	return m.do(func(now time.Time) error {
		m.offers = packsFor(usable, m.t.spec)
		if err := m.present(); err != nil {
			return err
		}
		if m.seat >= 0 {
			return fmt.Errorf("you already have a seat at this table")
		}
		return m.t.seatMember(m, now, true)
	})
}

// seatAt is the seat numbered n, or ErrBadSeat: how every operation on a picked seat
// reads it.
func (t *Table) seatAt(n int) (*seat, error) {
	if n < 0 || n >= len(t.seats) {
		return nil, ErrBadSeat
	}
	return t.seats[n], nil
}
