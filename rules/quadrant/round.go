package quadrant

import (
	"encoding/json"
	"fmt"
	"time"

	"parlor/rules"
)

// startRound deals a new round: N words, the reference word, two criteria and a secret
// number for each active player, and opens the placement phase.
func (g *Game) startRound(now time.Time) {
	g.round++
	n := len(g.names)
	g.players = g.players[:0:0]
	if g.team {
		g.active = (g.round - 1) % 2
		for seat := range n {
			if g.teamOf[seat] == g.active {
				g.players = append(g.players, seat)
			}
		}
	} else {
		for seat := range n {
			g.players = append(g.players, seat)
		}
	}
	k := len(g.players)
	g.words = append([]string(nil), g.decks.Words[g.nextWord:g.nextWord+k]...)
	g.ref = g.decks.Words[g.nextWord+k]
	g.nextWord += k + 1
	g.horiz, g.vert = g.decks.Criteria[g.nextCrit], g.decks.Criteria[g.nextCrit+1]
	g.nextCrit += 2

	g.number = make([]int, n)
	for i, p := range g.rng.Perm(k) {
		g.number[g.players[i]] = p + 1
	}
	g.pos = make([]Point, n)
	g.locked = make([]bool, n)
	g.votes = make([][]int, n)
	g.ballot = make([]int, n)
	g.ballotBy = make([]int, n)
	for i := range g.ballotBy {
		g.ballotBy[i] = NoSeat
	}
	g.edited, g.suggested = make([]bool, n), make([]bool, n)
	g.rev = 1
	g.approve = make([]bool, n)
	g.cast = false
	g.done = make([]bool, n)
	g.reveal = nil
	g.setPhase(PhasePlacement, now, g.placeLimit)
	if g.team {
		g.addLog(-1, "Round %d: team %s places, team %s guesses", g.round, teamName(g.active), teamName(1-g.active))
	} else {
		g.addLog(-1, "Round %d: place your token", g.round)
	}
}

// setPhase opens a phase with an optional time limit: the scoring pause's is the
// deadline, the others' each seat's own (clock and rules.Pace).
func (g *Game) setPhase(phase string, now time.Time, limit time.Duration) {
	g.phase = phase
	g.deadline, g.clock = time.Time{}, rules.Timer{}
	switch {
	case phase == PhaseScoring && limit > 0:
		g.deadline = now.Add(limit)
	case phase != PhaseScoring:
		g.clock = rules.NewTimer(now, limit)
	}
}

// due is when the current phase next moves on by itself: the placing or the vote when
// no player who has still to lock or vote has time left (each their own), the team's
// ballot when its slowest member's time is up (the team takes that turn together), the
// scoring pause at its deadline.
func (g *Game) due() time.Time {
	switch g.phase {
	case PhasePlacement:
		return g.Until(g.clock, len(g.names), g.unlocked)
	case PhaseVoting:
		return g.Until(g.clock, len(g.names), g.unvoted)
	case PhaseTeamVote:
		return g.Until(g.clock, len(g.names), g.balloting)
	}
	return g.deadline
}

// unlocked reports that seat places this round and has not locked its token.
func (g *Game) unlocked(seat int) bool { return g.playing(seat) && !g.locked[seat] }

// unvoted reports that seat votes this round and has not.
func (g *Game) unvoted(seat int) bool { return g.playing(seat) && g.votes[seat] == nil }

// balloting reports that seat is on the team that agrees on a ballot.
func (g *Game) balloting(seat int) bool { return g.team && g.teamOf[seat] != g.active }

// shown is the deadline seat's view shows: its own while it places (a lock can be
// taken back until then) or has still to vote, else when the phase moves on.
func (g *Game) shown(seat int) time.Time {
	switch {
	case g.phase == PhasePlacement && seat >= 0 && g.playing(seat):
		return g.Due(g.clock, seat)
	case g.phase == PhaseVoting:
		return g.Shown(g.clock, seat, len(g.names), g.unvoted)
	}
	return g.due()
}

// startVoting ends the placement phase.
func (g *Game) startVoting(now time.Time) {
	g.setPhase(PhaseVoting, now, g.voteLimit)
	g.addLog(-1, "Every token is locked: time to vote")
}

// endVoting ends the active players' vote: the inactive team's ballot comes next in team
// mode, the scores otherwise.
func (g *Game) endVoting(now time.Time) {
	if g.team {
		g.setPhase(PhaseTeamVote, now, g.voteLimit)
		g.changedAt = now
		g.addLog(-1, "Team %s has voted; team %s now agrees on its ballot", teamName(g.active), teamName(1-g.active))
		return
	}
	g.score(now)
}

// Tick applies the deadline of the current phase.
func (g *Game) Tick(now time.Time) bool {
	if g.over || !rules.Passed(g.due(), now) {
		return false
	}
	switch g.phase {
	case PhasePlacement:
		for _, seat := range g.players {
			if !g.locked[seat] {
				g.locked[seat] = true
				g.addLog(-1, "Time is up: %s's token is locked where it stands", g.names[seat])
			}
		}
		g.startVoting(now)
	case PhaseVoting:
		for _, seat := range g.players {
			if g.votes[seat] == nil {
				g.addLog(-1, "Time is up: %s did not vote", g.names[seat])
			}
		}
		g.endVoting(now)
	case PhaseTeamVote:
		g.addLog(-1, "Time is up: team %s did not agree on a ballot", teamName(1-g.active))
		g.score(now)
	case PhaseScoring:
		g.startRound(now)
	default:
		return false
	}
	return true
}

// continueRound marks seat as done with the scoring screen.
func (g *Game) continueRound(seat int, raw json.RawMessage, now time.Time) error {
	if err := decodeEmpty(raw); err != nil {
		return err
	}
	if g.phase != PhaseScoring {
		return fmt.Errorf("%w: continue is for the scoring screen; this is the %s phase", ErrWrongPhase, phaseWords(g.phase))
	}
	if g.done[seat] {
		return ErrContinued
	}
	g.done[seat] = true
	for _, d := range g.done {
		if !d {
			return nil
		}
	}
	g.startRound(now)
	return nil
}

// phaseWords names a phase for error messages.
func phaseWords(phase string) string {
	switch phase {
	case PhaseTeamVote:
		return "team ballot"
	}
	return phase
}
