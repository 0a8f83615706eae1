package quadrant

import (
	"encoding/json"
	"fmt"
	"time"

	"parlor/rules"
)

// checkBallotEditor checks that seat may work on the team ballot now.
func (g *Game) checkBallotEditor(seat int) error {
	if !g.team {
		return fmt.Errorf("%w: there is no team ballot in competitive mode", ErrWrongPhase)
	}
	if g.phase != PhaseTeamVote {
		return fmt.Errorf("%w: the team ballot opens after team %s has voted; this is the %s phase", ErrWrongPhase, teamName(g.active), phaseWords(g.phase))
	}
	if g.teamOf[seat] == g.active {
		return fmt.Errorf("%w: team %s guesses your team's tokens", ErrNotInactive, teamName(1-g.active))
	}
	return nil
}

// ballotSet writes a number on the team ballot; any change clears the approvals.
func (g *Game) ballotSet(seat int, raw json.RawMessage) error {
	var a ballotSetAction
	if err := rules.Decode(raw, &a); err != nil {
		return err
	}
	if a.Seat == nil || a.Number == nil {
		return fmt.Errorf("%w: ballot_set needs seat and number", rules.ErrBadAction)
	}
	if err := g.checkBallotEditor(seat); err != nil {
		return err
	}
	target, num, k := *a.Seat, *a.Number, len(g.players)
	if target < 0 || target >= len(g.names) || !g.playing(target) {
		return fmt.Errorf("%w: seat %d has no token this round", ErrBallot, target)
	}
	if num < 0 || num > k {
		return fmt.Errorf("%w: %d is not a word number; use 1 to %d (0 clears)", ErrBallot, num, k)
	}
	if num != 0 {
		for _, p := range g.players {
			if p != target && g.ballot[p] == num {
				return fmt.Errorf("%w: the team ballot already gives %d to %s", ErrNumberUsed, num, g.names[p])
			}
		}
	}
	if g.ballot[target] == num {
		return nil // nothing changes, so the approvals stand
	}
	g.ballot[target] = num
	g.rev++
	clear(g.approve)
	if num == 0 {
		g.teamLog(1-g.active, "%s cleared %s's token on the ballot", g.names[seat], g.names[target])
	} else {
		g.teamLog(1-g.active, "%s put %d on %s's token", g.names[seat], num, g.names[target])
	}
	return nil
}

// ballotComplete reports whether every active token has a number on the team ballot.
func (g *Game) ballotComplete() bool {
	for _, p := range g.players {
		if g.ballot[p] == 0 {
			return false
		}
	}
	return true
}

// approveBallot approves the current ballot; it is cast once every inactive member approves.
func (g *Game) approveBallot(seat int, raw json.RawMessage, now time.Time) error {
	var a Approve
	if err := rules.Decode(raw, &a); err != nil {
		return err
	}
	if err := g.checkBallotEditor(seat); err != nil {
		return err
	}
	if a.Rev != 0 && a.Rev != g.rev {
		return ErrBallotChanged
	}
	if !g.ballotComplete() {
		for _, p := range g.players {
			if g.ballot[p] == 0 {
				return fmt.Errorf("%w: %s's token has no number yet", ErrIncomplete, g.names[p])
			}
		}
	}
	if g.approve[seat] {
		return ErrApproved
	}
	g.approve[seat] = true
	g.teamLog(1-g.active, "%s approved the ballot", g.names[seat])
	for s, t := range g.teamOf {
		if t != g.active && !g.approve[s] {
			return nil
		}
	}
	g.cast = true
	g.addLog(-1, "Team %s cast its ballot", teamName(1-g.active))
	g.score(now)
	return nil
}

// unapproveBallot takes back seat's approval.
func (g *Game) unapproveBallot(seat int, raw json.RawMessage) error {
	if err := decodeEmpty(raw); err != nil {
		return err
	}
	if err := g.checkBallotEditor(seat); err != nil {
		return err
	}
	if !g.approve[seat] {
		return ErrNotApproved
	}
	g.approve[seat] = false
	g.teamLog(1-g.active, "%s took back their approval", g.names[seat])
	return nil
}
