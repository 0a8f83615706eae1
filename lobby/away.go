package lobby

import (
	"fmt"
	"time"

	"parlor/rules"
)

// awayBotAfter is how long a player may be away, under the default "away players"
// option, before a bot plays their seat for them.
const awayBotAfter = 60 * time.Second

// goneAway marks a seat whose player's connection went while they keep the seat, and
// tells the table what will happen to it.
func (t *Table) goneAway(s *seat, now time.Time) {
	s.awaySince = now
	if t.state != StatePlaying {
		t.system(now, "%s is away.", s.player.Name)
		return
	}
	switch t.opts[rules.OptAway] {
	case rules.AwayHost:
		t.system(now, "%s is away. The host can let a bot play for %s until they return, or wait.", s.player.Name, s.player.Name)
	case rules.AwayTimers:
		// A phase without a time limit would wait for them for ever: the host is the
		// way out, so say so.
		t.system(now, "%s is away; the game's time limits go on without them, and the host can let a bot play for them meanwhile.", s.player.Name)
	default:
		t.system(now, "%s is away: a bot plays for them if they are not back within %s.", s.player.Name, awayBotAfter)
	}
}

// checkAway lets a bot play every seat whose player has been away too long, under the
// default "away players" option.
func (t *Table) checkAway(now time.Time) {
	if t.state != StatePlaying {
		return
	}
	for i, s := range t.seats {
		if s.bot != nil || s.member != nil || s.standIn != nil {
			continue
		}
		if s.awaySince.IsZero() {
			s.awaySince = now // away since before this game, e.g. a restored table
		}
		if opt := t.opts[rules.OptAway]; (opt == rules.AwayBot || opt == "") && now.Sub(s.awaySince) >= awayBotAfter {
			t.standIn(i, now, fmt.Sprintf("%s has been away for %s", s.player.Name, AwayFor(now.Sub(s.awaySince))))
		}
	}
}

// standIn lets a bot play seat i for its away player; the seat keeps its owner.
func (t *Table) standIn(i int, now time.Time, why string) {
	s := t.seats[i]
	s.standIn = t.newBot(i)
	t.system(now, "%s: a bot plays for %s until they return.", why, s.player.Name)
	t.runBots(now)
	t.checkOver(now)
}

// back ends a seat's absence when its player connects again: they play it themselves.
func (t *Table) back(s *seat) {
	s.awaySince = time.Time{}
	s.standIn = nil
}

// StandIn lets a bot play the seat of an away player until they return (the host only,
// during a game). It is how the host decides under the "wait for host" option, and may
// be used under any option.
func (m *Member) StandIn(seatNo int) error {
	return m.t.do(func(now time.Time) error {
		if err := m.hostOnly(); err != nil {
			return err
		}
		t := m.t
		if t.state != StatePlaying {
			return ErrNoGame
		}
		if seatNo < 0 || seatNo >= len(t.seats) {
			return ErrBadSeat
		}
		s := t.seats[seatNo]
		switch {
		case s.bot != nil:
			return fmt.Errorf("%s is a bot", s.player.Name)
		case s.member != nil:
			return fmt.Errorf("%s is here: only an away player's seat can be given to a bot", s.player.Name)
		case s.standIn != nil:
			return fmt.Errorf("a bot already plays for %s", s.player.Name)
		}
		t.standIn(seatNo, now, "The host decided")
		return nil
	})
}

// AwayFor says how long someone has been away, in whole seconds or minutes: "45 s".
func AwayFor(d time.Duration) string {
	if d < 2*time.Minute {
		return fmt.Sprintf("%d s", int(d/time.Second))
	}
	return fmt.Sprintf("%d min", int(d/time.Minute))
}
