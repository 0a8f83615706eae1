package quadrant

import (
	"encoding/json"
	"fmt"

	"parlor/rules"
)

// Action types, the "type" field of every action.
const (
	TypeMove      = "move"       // put one's own token on a cell of the plane
	TypeLock      = "lock"       // finalise one's token where it stands
	TypeUnlock    = "unlock"     // take the token back to move it again
	TypeVote      = "vote"       // cast one's hidden votes, all at once
	TypeBallotSet = "ballot_set" // team mode: write a number on the shared team ballot
	TypeApprove   = "approve"    // team mode: approve the team ballot as it stands
	TypeUnapprove = "unapprove"  // team mode: take back one's approval
	TypeContinue  = "continue"   // done looking at the round's scores
)

// Move puts the player's own token on the cell (X, Y) of the plane.
type Move struct {
	Type string `json:"type"` // always "move"
	X    int    `json:"x"`    // MinX..MaxX; right = more of the horizontal criterion
	Y    int    `json:"y"`    // MinY..MaxY; up = more of the vertical criterion
}

// Lock finalises the player's token where it stands.
type Lock struct {
	Type string `json:"type"` // always "lock"
}

// Unlock takes the player's token back so that it can move again.
type Unlock struct {
	Type string `json:"type"` // always "unlock"
}

// Vote is one number placed on another player's token.
type Vote struct {
	Seat   int `json:"seat"`   // the token's owner
	Number int `json:"number"` // the word number 1..N the voter thinks the owner holds
}

// CastVotes casts a player's votes: one for every other active player's token, with
// distinct numbers in 1..N.
type CastVotes struct {
	Type  string `json:"type"` // always "vote"
	Votes []Vote `json:"votes"`
}

// BallotSet writes Number on the team ballot for the token of Seat (0 clears it).
// Every change clears the approvals. A number already on another line swaps the two
// lines. With Suggest (what bots send) it only fills a line nobody has edited, with a
// number (not 0) no other line has, so that it never undoes a person's choice.
type BallotSet struct {
	Type    string `json:"type"` // always "ballot_set"
	Seat    int    `json:"seat"`
	Number  int    `json:"number"`
	Suggest bool   `json:"suggest,omitempty"`
}

// Approve approves the team ballot. Rev, when not 0, must be the ballot's current
// revision, so that nobody approves a ballot they have not seen.
type Approve struct {
	Type string `json:"type"` // always "approve"
	Rev  int    `json:"rev,omitempty"`
}

// Unapprove takes back one's approval of the team ballot.
type Unapprove struct {
	Type string `json:"type"` // always "unapprove"
}

// Continue says the player has seen the round's scores; the next round starts when all
// players have continued or the pause runs out.
type Continue struct {
	Type string `json:"type"` // always "continue"
}

// Sentinel errors; the wrapped text says what is wrong in words a player can read. The
// errors every game shares (a spectator, a seat not at the table, an unknown action, the
// end of the game) are the rules package's.
var (
	ErrWrongPhase    = rules.Sentinel("quadrant.wrong_phase", "quadrant: not now")
	ErrNotActive     = rules.Sentinel("quadrant.not_active", "quadrant: your team is not placing this round")
	ErrNotInactive   = rules.Sentinel("quadrant.not_inactive", "quadrant: only the other team edits the team ballot")
	ErrOffBoard      = rules.Sentinel("quadrant.off_board", "quadrant: off the board")
	ErrLocked        = rules.Sentinel("quadrant.locked", "quadrant: your token is locked")
	ErrNotLocked     = rules.Sentinel("quadrant.not_locked", "quadrant: your token is not locked")
	ErrVoted         = rules.Sentinel("quadrant.voted", "quadrant: you have already voted")
	ErrBallot        = rules.Sentinel("quadrant.ballot", "quadrant: the ballot is not valid")
	ErrSelfVote      = rules.Sentinel("quadrant.self_vote", "quadrant: you do not vote on your own token")
	ErrNumberUsed    = rules.Sentinel("quadrant.number_used", "quadrant: that number is already used")
	ErrIncomplete    = rules.Sentinel("quadrant.incomplete", "quadrant: the ballot is not complete")
	ErrLineTaken     = rules.Sentinel("quadrant.line_taken", "quadrant: a teammate chose this line; a suggestion cannot change it")
	ErrBallotChanged = rules.Sentinel("quadrant.ballot_changed", "quadrant: the ballot changed, look again")
	ErrApproved      = rules.Sentinel("quadrant.approved", "quadrant: you have already approved this ballot")
	ErrNotApproved   = rules.Sentinel("quadrant.not_approved", "quadrant: you have not approved the ballot")
	ErrContinued     = rules.Sentinel("quadrant.continued", "quadrant: already continued")
)

// moveAction is Move as decoded: pointers tell a missing coordinate from 0.
type moveAction struct {
	Type string `json:"type"`
	X    *int   `json:"x"`
	Y    *int   `json:"y"`
}

// ballotSetAction is BallotSet as decoded.
type ballotSetAction struct {
	Type    string `json:"type"`
	Seat    *int   `json:"seat"`
	Number  *int   `json:"number"`
	Suggest bool   `json:"suggest"`
}

// decodeMove reads a move and checks it lies on the plane.
func decodeMove(raw json.RawMessage) (Point, error) {
	var a moveAction
	if err := rules.Decode(raw, &a); err != nil {
		return Point{}, err
	}
	if a.X == nil || a.Y == nil {
		return Point{}, fmt.Errorf("%w: a move needs both x and y", rules.ErrBadAction)
	}
	p := Point{X: *a.X, Y: *a.Y}
	if !p.OnBoard() {
		// In words a screen reader says well: "-20..20" was read as "minus 20 dot dot 20".
		return Point{}, fmt.Errorf("%w: x (across) goes from %d to %d and y (up) from %d to %d, not (%d, %d)", ErrOffBoard, MinX, MaxX, MinY, MaxY, p.X, p.Y)
	}
	return p, nil
}

// decodeEmpty reads an action that carries nothing but its type.
func decodeEmpty(raw json.RawMessage) error {
	var a struct {
		Type string `json:"type"`
	}
	return rules.Decode(raw, &a)
}
