package quadrant

import (
	"encoding/json"
	"fmt"
	"time"

	"parlor/rules"
)

// checkPlacer checks that seat may act on its token in the placement phase at now.
func (g *Game) checkPlacer(seat int, now time.Time) error {
	if g.phase != PhasePlacement {
		return fmt.Errorf("%w: tokens move only while placing; this is the %s phase", ErrWrongPhase, phaseWords(g.phase))
	}
	if !g.playing(seat) {
		return fmt.Errorf("%w: team %s places this round", ErrNotActive, teamName(g.active))
	}
	if rules.Passed(g.Due(g.clock, seat), now) {
		return fmt.Errorf("%w: the others who were given more time are still placing", rules.ErrTimeUp)
	}
	return nil
}

// move puts seat's token on a cell.
func (g *Game) move(seat int, raw json.RawMessage, now time.Time) error {
	p, err := decodeMove(raw)
	if err != nil {
		return err
	}
	if err := g.checkPlacer(seat, now); err != nil {
		return err
	}
	if g.locked[seat] {
		return fmt.Errorf("%w: unlock it first to move it", ErrLocked)
	}
	g.pos[seat] = p
	return nil
}

// lock finalises seat's token; the phase ends when every token is locked.
func (g *Game) lock(seat int, raw json.RawMessage, now time.Time) error {
	if err := decodeEmpty(raw); err != nil {
		return err
	}
	if err := g.checkPlacer(seat, now); err != nil {
		return err
	}
	if g.locked[seat] {
		return fmt.Errorf("%w: it is already locked", ErrLocked)
	}
	g.locked[seat] = true
	g.addLog(-1, "%s locked their token", g.names[seat])
	for _, p := range g.players {
		if !g.locked[p] {
			if rules.Passed(g.due(), now) { // only players whose time is up have not locked
				g.Tick(now)
			}
			return nil
		}
	}
	g.startVoting(now)
	return nil
}

// unlock takes seat's token back.
func (g *Game) unlock(seat int, raw json.RawMessage, now time.Time) error {
	if err := decodeEmpty(raw); err != nil {
		return err
	}
	if err := g.checkPlacer(seat, now); err != nil {
		return err
	}
	if !g.locked[seat] {
		return ErrNotLocked
	}
	g.locked[seat] = false
	g.addLog(-1, "%s unlocked their token", g.names[seat])
	return nil
}

// vote casts seat's hidden votes.
func (g *Game) vote(seat int, raw json.RawMessage, now time.Time) error {
	var a CastVotes
	if err := rules.Decode(raw, &a); err != nil {
		return err
	}
	if g.phase != PhaseVoting {
		return fmt.Errorf("%w: this is the %s phase", ErrWrongPhase, phaseWords(g.phase))
	}
	if !g.playing(seat) {
		return fmt.Errorf("%w: team %s votes on its own tokens; your team's ballot comes next", ErrNotActive, teamName(g.active))
	}
	if g.votes[seat] != nil {
		return ErrVoted
	}
	row := make([]int, len(g.names))
	if err := g.checkVotes(seat, a.Votes, row); err != nil {
		return err
	}
	if rules.Passed(g.Due(g.clock, seat), now) {
		return fmt.Errorf("%w: the others who were given more time are still voting", rules.ErrTimeUp)
	}
	g.votes[seat] = row
	g.addLog(-1, "%s has voted", g.names[seat])
	g.addLog(seat, "You voted: %s", g.voteWords(row))
	for _, p := range g.players {
		if g.votes[p] == nil {
			if rules.Passed(g.due(), now) { // only players whose time is up have not voted
				g.Tick(now)
			}
			return nil
		}
	}
	g.endVoting(now)
	return nil
}

// checkVotes checks one voter's ballot and fills row: a number for every other active
// token, each number at most once, none on the voter's own token.
func (g *Game) checkVotes(voter int, votes []Vote, row []int) error {
	k := len(g.players)
	used := make(map[int]int, k)
	for _, v := range votes {
		switch {
		case v.Seat == voter:
			return ErrSelfVote
		case v.Seat < 0 || v.Seat >= len(g.names) || !g.playing(v.Seat):
			return fmt.Errorf("%w: seat %d has no token this round", ErrBallot, v.Seat)
		case v.Number < 1 || v.Number > k:
			return fmt.Errorf("%w: %d is not a word number; use 1 to %d", ErrBallot, v.Number, k)
		case row[v.Seat] != 0:
			return fmt.Errorf("%w: %s's token has two votes", ErrBallot, g.names[v.Seat])
		}
		if other, dup := used[v.Number]; dup {
			return fmt.Errorf("%w: you gave %d to both %s and %s", ErrNumberUsed, v.Number, g.names[other], g.names[v.Seat])
		}
		used[v.Number] = v.Seat
		row[v.Seat] = v.Number
	}
	for _, p := range g.players {
		if p != voter && row[p] == 0 {
			return fmt.Errorf("%w: %s's token has no vote", ErrIncomplete, g.names[p])
		}
	}
	return nil
}

// voteWords lists a ballot row for the log, e.g. "Bob 3, Cid 1".
func (g *Game) voteWords(row []int) string {
	s := ""
	for seat, n := range row {
		if n == 0 {
			continue
		}
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("%s %d", g.names[seat], n)
	}
	return s
}
