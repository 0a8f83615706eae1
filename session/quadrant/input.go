package quadrant

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	qd "parlor/rules/quadrant"
)

// Steps of one key press on the plane: a plain arrow moves one cell, shift or a capital
// letter moves faster.
const (
	fastX = 4
	fastY = 2
)

// Update turns a key into an action for the table.
func (s *Screen) Update(msg tea.Msg) (any, tea.Cmd) {
	key, ok := msg.(tea.KeyPressMsg)
	if !ok || !s.have {
		return nil, nil
	}
	s.dirty = true
	k := key.String()
	switch s.role() {
	case placing:
		return s.placeKey(k), nil
	case voting:
		return s.voteKey(k), nil
	case teamBallot:
		return s.ballotKey(k), nil
	case continuing:
		if k == "enter" || k == "space" {
			return qd.Continue{Type: qd.TypeContinue}, nil
		}
	}
	return nil, nil
}

// placeKey moves, locks or unlocks the player's token.
func (s *Screen) placeKey(k string) any {
	t, _ := s.myToken()
	if k == "enter" || k == "space" {
		s.msg = ""
		if t.Locked {
			return qd.Unlock{Type: qd.TypeUnlock}
		}
		if !s.movedThisPhase(s.phaseKey) && s.confirmLock != s.phaseKey {
			// Enter also goes on from the last round's results: pressed as the round
			// ended by its timer, it locked the new token where it starts.
			s.confirmLock = s.phaseKey
			s.msg = "Unmoved: press " + k + " again to lock."
			return nil
		}
		return qd.Lock{Type: qd.TypeLock}
	}
	dx, dy := 0, 0
	switch k {
	case "left", "h":
		dx = -1
	case "right", "l":
		dx = 1
	case "up", "k":
		dy = 1
	case "down", "j":
		dy = -1
	case "shift+left", "H":
		dx = -fastX
	case "shift+right", "L":
		dx = fastX
	case "shift+up", "K":
		dy = fastY
	case "shift+down", "J":
		dy = -fastY
	default:
		return nil
	}
	if t.Locked {
		s.msg = "Your token is locked: press space to unlock it first"
		return nil
	}
	p := qd.Point{X: clamp(s.mine.X+dx, qd.MinX, qd.MaxX), Y: clamp(s.mine.Y+dy, qd.MinY, qd.MaxY)}
	if p == s.mine {
		s.msg = "That is the edge of the plane"
		return nil
	}
	s.msg = ""
	s.mine = p
	s.movedKey = s.phaseKey
	return qd.Move{Type: qd.TypeMove, X: p.X, Y: p.Y}
}

// cycle moves the selection among the tokens that take a number.
func (s *Screen) cycle(k string) bool {
	n := len(s.targets())
	if n == 0 {
		return false
	}
	switch k {
	case "tab", "down", "j", "right", "l":
		s.sel = (s.sel + 1) % n
	case "shift+tab", "up", "k", "left", "h":
		s.sel = (s.sel + n - 1) % n
	default:
		return false
	}
	s.msg = ""
	return true
}

// number reads a digit key: 1-9 a word number, 0 (or backspace/delete) to clear; ok false
// for any other key.
func number(k string) (n int, ok bool) {
	switch k {
	case "0", "backspace", "delete":
		return 0, true
	}
	if len(k) == 1 && k[0] >= '1' && k[0] <= '9' {
		return int(k[0] - '0'), true
	}
	return 0, false
}

// voteKey edits the player's own ballot and sends it when complete.
func (s *Screen) voteKey(k string) any {
	if s.cycle(k) {
		return nil
	}
	targets := s.targets()
	if k == "enter" {
		for _, seat := range targets {
			if s.ballot[seat] == 0 {
				s.msg = fmt.Sprintf("%s's token still needs a number", s.name(seat))
				return nil
			}
		}
		s.msg = ""
		s.sent = true
		return qd.CastVotes{Type: qd.TypeVote, Votes: sortedVotes(s.ballot)}
	}
	n, ok := number(k)
	if !ok || len(targets) == 0 {
		return nil
	}
	seat := targets[s.sel]
	if n == 0 {
		delete(s.ballot, seat)
		s.msg = ""
		return nil
	}
	if n > len(s.v.Words) {
		s.msg = fmt.Sprintf("The words are numbered 1 to %d", len(s.v.Words))
		return nil
	}
	s.msg = ""
	for other, m := range s.ballot {
		if m == n && other != seat {
			// The number moves here; this token's old number (if any) goes there.
			s.msg = s.swapWords(n, seat, s.ballot[seat], other)
			if old := s.ballot[seat]; old != 0 {
				s.ballot[other] = old
			} else {
				delete(s.ballot, other)
			}
		}
	}
	s.ballot[seat] = n
	// The selection stays on the token just numbered, so that tab always moves it and
	// a number never lands on a token the player did not pick.
	if len(s.ballot) == len(targets) {
		s.msg = strings.TrimSpace(s.msg + " Your ballot is complete: press enter to send it")
	}
	return nil
}

// swapWords says what typing n on seat's token did to the token other that had it.
func (s *Screen) swapWords(n, seat, old, other int) string {
	if old == 0 {
		return fmt.Sprintf("Moved %d from %s's token to %s's.", n, s.name(other), s.name(seat))
	}
	return fmt.Sprintf("Swapped: %d on %s's token, %d on %s's.", n, s.name(seat), old, s.name(other))
}

// ballotKey edits the shared team ballot (every change goes to the table at once) and
// approves it.
func (s *Screen) ballotKey(k string) any {
	if s.cycle(k) {
		return nil
	}
	b := s.v.Ballot
	targets := s.targets()
	if k == "enter" || k == "space" {
		if s.approved() {
			s.msg = ""
			return qd.Unapprove{Type: qd.TypeUnapprove}
		}
		for _, e := range b.Votes {
			if e.Number == 0 {
				s.msg = fmt.Sprintf("%s's token has no number on the ballot yet", s.name(e.Seat))
				return nil
			}
		}
		s.msg = ""
		return qd.Approve{Type: qd.TypeApprove, Rev: b.Rev}
	}
	n, ok := number(k)
	if !ok || len(targets) == 0 {
		return nil
	}
	seat := targets[s.sel]
	if n > len(s.v.Words) {
		s.msg = fmt.Sprintf("The words are numbered 1 to %d", len(s.v.Words))
		return nil
	}
	s.msg = ""
	if s.setOnRev == b.Rev+1 {
		// A change sent on this ballot has not come back yet: it would tell what moved
		// from a ballot that is no longer so. The log says what the table did.
		return qd.BallotSet{Type: qd.TypeBallotSet, Seat: seat, Number: n}
	}
	s.setOnRev = b.Rev + 1
	old := 0
	for _, e := range b.Votes {
		if e.Seat == seat {
			old = e.Number
		}
	}
	for _, e := range b.Votes {
		if n != 0 && e.Number == n && e.Seat != seat {
			s.msg = s.swapWords(n, seat, old, e.Seat)
		}
	}
	return qd.BallotSet{Type: qd.TypeBallotSet, Seat: seat, Number: n}
}

// name is a seat's display name.
func (s *Screen) name(seat int) string {
	if seat >= 0 && seat < len(s.v.Names) {
		return s.v.Names[seat]
	}
	return "?"
}

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }
