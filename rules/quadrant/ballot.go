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
//
// An edit (what a person sends) may overwrite any line; a number already on another line
// swaps the two lines' numbers, so nobody has to clear a line first. A suggestion (what a
// bot sends) only fills a line nobody has edited, with a number no other line has: bots
// help with the lines people leave alone and never undo a person's choice.
func (g *Game) ballotSet(seat int, raw json.RawMessage, now time.Time) error {
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
	other := NoSeat // the line that already has num
	for _, p := range g.players {
		if num != 0 && p != target && g.ballot[p] == num {
			other = p
		}
	}
	if a.Suggest {
		if num == 0 {
			return fmt.Errorf("%w: a suggestion is a number from 1 to %d", ErrBallot, k)
		}
		if g.edited[target] {
			return fmt.Errorf("%w: %s edited the line for %s's token", ErrLineTaken, g.names[g.ballotBy[target]], g.names[target])
		}
		if other != NoSeat {
			return fmt.Errorf("%w: the team ballot already gives %d to %s", ErrNumberUsed, num, g.names[other])
		}
	}
	if g.ballot[target] == num {
		return nil // nothing changes, so the approvals stand
	}
	old := g.ballot[target]
	g.writeLine(target, num, seat, !a.Suggest)
	team := 1 - g.active
	switch {
	case other != NoSeat && old != 0:
		g.writeLine(other, old, seat, true)
		g.teamLog(team, "%s swapped two numbers: %d on %s's token, %d on %s's", g.names[seat], num, g.names[target], old, g.names[other])
	case other != NoSeat:
		// The line the number came from is empty again and free for anyone to fill.
		g.ballot[other], g.ballotBy[other], g.edited[other], g.suggested[other] = 0, NoSeat, false, false
		g.teamLog(team, "%s moved %d from %s's token to %s's", g.names[seat], num, g.names[other], g.names[target])
	case a.Suggest:
		g.teamLog(team, "%s suggests %d for %s's token", g.names[seat], num, g.names[target])
	case num == 0:
		g.teamLog(team, "%s cleared %s's token on the ballot", g.names[seat], g.names[target])
	default:
		g.teamLog(team, "%s put %d on %s's token", g.names[seat], num, g.names[target])
	}
	g.rev++
	g.changedAt = now
	clear(g.approve)
	return nil
}

// writeLine puts num on target's ballot line as seat's edit or suggestion.
func (g *Game) writeLine(target, num, seat int, edit bool) {
	g.ballot[target], g.ballotBy[target] = num, seat
	g.edited[target], g.suggested[target] = edit, !edit
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
