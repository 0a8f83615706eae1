package lobby

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"parlor/rules"
)

// awayBotAfter is how long a player may be away, under the default "away players"
// option, before a bot plays their seat for them.
const awayBotAfter = 60 * time.Second

// goneAway marks a seat whose player went (their connection ended, or they left on
// purpose: left) while they keep the seat, and tells the table what will happen to it.
func (t *Table) goneAway(s *seat, now time.Time, left bool) {
	s.awaySince = now
	gone := s.player.Name + " is away"
	if left {
		gone = s.player.Name + " left the game"
	}
	if t.state != StatePlaying {
		t.system(now, "%s.", gone)
		return
	}
	switch t.opts[OptAway] {
	case AwayHost:
		t.system(now, "%s. The host can let a bot play for %s until they return, or wait.", gone, s.player.Name)
	case AwayTimers:
		// A phase without a time limit would wait for them for ever: the host is the
		// way out, so say so.
		t.system(now, "%s; the game's time limits go on without them, and the host can let a bot play for them meanwhile.", gone)
	default:
		t.system(now, "%s: a bot plays for them if they are not back within %s.", gone, AwayFor(awayBotAfter))
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
		if opt := t.opts[OptAway]; (opt == AwayBot || opt == "") && now.Sub(s.awaySince) >= awayBotAfter {
			t.standIn(i, now, fmt.Sprintf("%s has been away for %s", s.player.Name, AwayFor(now.Sub(s.awaySince))))
		}
	}
}

// stallAfter is how long a game without a time limit waits for a player who is here
// before the table is told. It is the wall clock's, not game time: it is a person's
// pause, and at --game-speed 10 a minute of game time passes in six seconds.
const stallAfter = time.Minute

// progressed notes that the game moved on: its wait starts again.
func (t *Table) progressed(now time.Time) {
	t.progressAt, t.stallTold, t.heldUpBy = t.lobby.Shown(now), false, nil
}

// checkStall tells the table, once per wait, that a game without a time limit has
// waited stallAfter for players who are here (an away player has the away option): each
// of them that the table waits for them, the others the way on: the host lets a bot play
// for them until they press a key, or, for the host, a nudge. TableInfo.HeldUpBy names
// them until the game moves on, for the game screens to say so where the prompt is.
func (t *Table) checkStall(now time.Time) {
	wall := t.lobby.Shown(now)
	if t.progressAt.IsZero() {
		t.progressAt = wall // a restored table: its wait counts from now
	}
	if t.stallTold || wall.Sub(t.progressAt) < stallAfter {
		return
	}
	t.stallTold = true // one look per wait: a view is not free
	head := t.game.View(rules.Spectator).Head()
	if !head.Deadline.IsZero() {
		return
	}
	var names []string
	var seats []int // the non-host players waited for, by seat
	host := -1
	for _, i := range head.Waiting {
		if i >= 0 && i < len(t.seats) {
			if s := t.seats[i]; s.member != nil && s.bot == nil && s.standIn == nil {
				t.heldUpBy = append(t.heldUpBy, i)
				if s.player.ID == t.host {
					host = i
				} else {
					names, seats = append(names, s.player.Name), append(seats, i)
				}
			}
		}
	}
	if len(t.heldUpBy) == 0 {
		return
	}
	waited := AwayFor(wall.Sub(t.progressAt))
	t.tell(now, slices.Clone(t.heldUpBy), nil, "The table is waiting for you: the game has waited %s for your move.", waited)
	if len(names) > 0 {
		t.tell(now, nil, seats, "The game has waited %s for %s. The host can let a bot play for them until they press a key: esc, pick their seat (tab, ↑↓), then a.",
			waited, rules.List(names))
	}
	if host >= 0 {
		t.tell(now, nil, []int{host}, "The game has waited %s for %s, the host: nudge them in the chat (/).", waited, t.seats[host].player.Name)
	}
}

// tell adds a line from the table for the seats to only (none: for everyone), and not
// for the seats notTo.
func (t *Table) tell(now time.Time, to, notTo []int, format string, args ...any) {
	t.system(now, format, args...)
	line := &t.chat[len(t.chat)-1]
	line.To, line.NotTo = to, notTo
}

// standIn lets a bot play seat i for its player, away or idle; the seat keeps its owner.
func (t *Table) standIn(i int, now time.Time, why string) {
	s := t.seats[i]
	s.standIn = t.newBot(i)
	until := "until they return"
	if s.member != nil {
		until = "until they press a key"
	}
	t.system(now, "%s: a bot plays for %s %s.", why, s.player.Name, until)
	t.runBots(now)
	t.checkOver(now)
}

// back ends a seat's absence when its player connects again: they play it themselves.
func (t *Table) back(s *seat) {
	s.awaySince = time.Time{}
	s.standIn = nil
}

// StandIn lets a bot play a seat until its player returns or, if they are here but idle
// (the game waits for them), until they press a key or act (the host only, during a
// game). It is how the host decides under the "wait for host" option, may be used under
// any option, and is the way out of a phase without a time limit whose player stopped
// playing without leaving.
func (m *Member) standIn(seatNo int) error {
	return m.do(func(now time.Time) error {
		if err := m.hostOnly(); err != nil {
			return err
		}
		t := m.t
		if t.state != StatePlaying {
			return ErrNoGame
		}
		s, err := t.seatAt(seatNo)
		if err != nil {
			return err
		}
		switch {
		case s.bot != nil:
			return fmt.Errorf("%s is a bot", s.player.Name)
		case s.standIn != nil:
			return fmt.Errorf("a bot already plays for %s", s.player.Name)
		case s.member == m:
			return errors.New("that is your own seat: play it yourself")
		case s.member != nil && !slices.Contains(t.game.View(seatNo).Head().Waiting, seatNo):
			return fmt.Errorf("the game is not waiting for %s now: a bot can play for a player who is here only while the table waits for them", s.player.Name)
		}
		t.standIn(seatNo, now, "The host decided")
		return nil
	})
}

// Resume ends a bot's play for the member's own seat: they are at the keys again. It does
// nothing when no bot plays for them.
func (m *Member) resumeSeat() error {
	return m.do(func(now time.Time) error {
		if err := m.present(); err != nil {
			return err
		}
		m.resume(now)
		return nil
	})
}

// resume is Resume on the table's goroutine.
func (m *Member) resume(now time.Time) {
	if m.seat < 0 {
		return
	}
	if s := m.t.seats[m.seat]; s.standIn != nil && s.member == m {
		s.standIn = nil
		m.t.system(now, "%s plays again.", s.player.Name)
	}
}

// AwayFor says how long someone has been away, in whole seconds or minutes: "45 s".
func AwayFor(d time.Duration) string {
	if d < 2*time.Minute {
		return fmt.Sprintf("%d s", int(d/time.Second))
	}
	return fmt.Sprintf("%d min", int(d/time.Minute))
}
