// Package quadrant is the game screen of Quadrant: the plane with every token, the
// round's numbered words, the voting ballot, the shared team ballot and the scores.
package quadrant

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
)

func init() {
	gameui.Register(qd.ID, func(seat int) gameui.Screen { return New(seat) })
}

// Screen is one seat's Quadrant screen. It keeps only what the player is composing: the
// position of their own token while they move it, and their ballot before they send it.
type Screen struct {
	seat int
	v    qd.View
	have bool

	panelFit gameui.Refit // the panel's lines, fitted

	phaseKey string // round and phase of the last view, to reset local state
	movedKey string // the phaseKey in which the player last moved their token
	// confirmLock is the phaseKey in which the player was asked to press enter again to
	// lock a token they had not moved.
	confirmLock string
	mine        qd.Point     // the own token as the player moves it (ahead of the views)
	sel         int          // the selected token, an index into targets()
	ballot      map[int]int  // the player's own votes before they are sent: seat -> number
	sent        bool         // the votes were sent this round
	msg         string       // the last validation message
	setOnRev    int          // the team ballot's Rev (+1, so 0 is none) a change of this screen was sent on
	letters     map[int]rune // the token letter of every seat
	// letterKey is letters in seat order: the shared plane is drawn with them (planeKey).
	letterKey string
	frame     gameui.Frame // the last frame drawn: who is away

	cache    []string
	cacheKey gameui.FrameKey
	dirty    bool
	rows     rows // the plane's background and rows as the seat drew them last
}

// New makes the screen for seat (rules.Spectator for a spectator).
func New(seat int) *Screen { return &Screen{seat: seat, ballot: map[int]int{}, dirty: true} }

// SetView takes the newest view of this seat.
func (s *Screen) SetView(view rules.View) {
	if v, ok := rules.ViewAs[qd.View](view); ok {
		s.setView(v)
	}
}

var _ gameui.Screen = (*Screen)(nil)

// setView is SetView with the concrete type.
func (s *Screen) setView(v qd.View) {
	key := fmt.Sprint(v.Round, v.Phase)
	if key != s.phaseKey {
		s.phaseKey = key
		s.sel, s.msg, s.sent, s.setOnRev = 0, "", false, 0
		s.ballot = map[int]int{}
	}
	s.v, s.have, s.dirty = v, true, true
	if s.letters == nil || len(s.letters) != len(v.Names) {
		s.letters = Letters(v.Names)
		s.letterKey = ""
		for seat := range len(v.Names) {
			s.letterKey += string(s.letters[seat])
		}
	}
	if t, ok := s.myToken(); ok && (t.Locked || v.Phase != qd.PhasePlacement || !s.movedThisPhase(key)) {
		s.mine = qd.Point{X: t.X, Y: t.Y}
	}
	if len(v.MyVotes) > 0 {
		s.sent = true
	}
	if n := len(s.targets()); n > 0 && s.sel >= n {
		s.sel = 0
	}
}

// Public is true for a spectator: what they see depends on the view alone, so their
// screens at a table share one drawing (gameui.Public).
func (s *Screen) Public() bool { return s.seat == rules.Spectator }

// movedThisPhase reports whether the player has moved their token in this phase, so
// that views lagging behind the keys do not pull the token back.
func (s *Screen) movedThisPhase(key string) bool { return s.movedKey == key }

// Typing is always false: Quadrant has no text box.
func (s *Screen) Typing() bool { return false }

// myToken is the viewer's token, if they have one this round.
func (s *Screen) myToken() (qd.Token, bool) {
	for _, t := range s.v.Tokens {
		if t.Seat == s.seat {
			return t, true
		}
	}
	return qd.Token{}, false
}

// role is what the viewer does in the current phase.
type role int

const (
	watching role = iota
	placing
	voting
	teamBallot
	continuing
)

func (s *Screen) role() role {
	if !s.have || s.seat < 0 || s.v.Over {
		return watching
	}
	_, active := s.myToken()
	switch s.v.Phase {
	case qd.PhasePlacement:
		if active {
			return placing
		}
	case qd.PhaseVoting:
		if active && !s.sent {
			return voting
		}
	case qd.PhaseTeamVote:
		if s.v.Ballot != nil && !s.v.Ballot.Cast {
			return teamBallot
		}
	case qd.PhaseScoring:
		if s.waitingFor(s.seat) {
			return continuing
		}
	}
	return watching
}

func (s *Screen) waitingFor(seat int) bool {
	for _, w := range s.v.Waiting {
		if w == seat {
			return true
		}
	}
	return false
}

// targets are the tokens the player can put a number on: every other token when voting,
// every token on the team ballot.
func (s *Screen) targets() []int {
	var out []int
	for _, t := range s.v.Tokens {
		if s.v.Phase == qd.PhaseTeamVote || t.Seat != s.seat {
			out = append(out, t.Seat)
		}
	}
	return out
}

// Keys lists the keys that work now.
func (s *Screen) Keys() []gameui.Key {
	switch s.role() {
	case placing:
		if t, _ := s.myToken(); t.Locked {
			return []gameui.Key{{Keys: "space/enter", Help: "unlock your token"}}
		}
		// Most important first: the footer drops entries from the end when it is short,
		// and locking is what ends the player's part of the phase.
		return []gameui.Key{
			{Keys: "space/enter", Help: "lock your token"},
			{Keys: "←↑↓→/hjkl", Help: "move"},
			{Keys: "shift", Help: "move faster"},
		}
	case voting:
		return []gameui.Key{
			{Keys: "tab", Help: "pick"},
			{Keys: s.numberKeys(), Help: "number (swaps if used)"},
			{Keys: "enter", Help: "send votes"},
			{Keys: "0", Help: "clear"},
		}
	case teamBallot:
		k := []gameui.Key{
			{Keys: "tab", Help: "pick"},
			{Keys: s.numberKeys(), Help: "number (swaps if used)"},
			{Keys: "0", Help: "clear"},
		}
		if s.approved() {
			return append(k, gameui.Key{Keys: "enter", Help: "unapprove"})
		}
		return append(k, gameui.Key{Keys: "enter", Help: "approve"})
	case continuing:
		return []gameui.Key{{Keys: "enter/space", Help: "continue"}}
	}
	return nil
}

// numberKeys names the digit keys that give a number: 1 to N, the number of words (at
// most 7: a round has a word per active player).
func (s *Screen) numberKeys() string {
	if n := len(s.v.Words); n >= 1 && n <= 9 {
		return numberKeyNames[n]
	}
	return "1-9"
}

// numberKeyNames are numberKeys' texts, made once: the footer asks for the keys every frame.
var numberKeyNames = [10]string{"", "1", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7", "1-8", "1-9"}

// approved reports whether the viewer approved the current team ballot.
func (s *Screen) approved() bool {
	if s.v.Ballot == nil {
		return false
	}
	for _, a := range s.v.Ballot.Approved {
		if a == s.seat {
			return true
		}
	}
	return false
}

// botPrefix starts every bot's name (lobby's botName).
const botPrefix = "Bot "

// Letters gives every seat a distinct token letter: the first letter of the name that is
// still free, else the first free letter of the alphabet, so tokens differ without colour.
// A bot's "Bot " prefix is skipped, so bots Ada, Bo and Cy are A, B and C rather than
// B, O and C.
func Letters(names []string) map[int]rune {
	out := make(map[int]rune, len(names))
	used := map[rune]bool{}
	for seat, name := range names {
		var pick rune
		for _, r := range strings.ToUpper(strings.TrimPrefix(name, botPrefix)) {
			if unicode.IsLetter(r) && r < 128 && !used[r] {
				pick = r
				break
			}
		}
		for r := 'A'; pick == 0 && r <= 'Z'; r++ {
			if !used[r] {
				pick = r
			}
		}
		if pick == 0 {
			pick = rune('a' + seat%26)
		}
		used[pick] = true
		out[seat] = pick
	}
	return out
}

// sortedVotes turns the local ballot into the action's list, in seat order.
func sortedVotes(b map[int]int) []qd.Vote {
	out := make([]qd.Vote, 0, len(b))
	for seat, n := range b {
		out = append(out, qd.Vote{Seat: seat, Number: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seat < out[j].Seat })
	return out
}
