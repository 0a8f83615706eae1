// Package topfive is the Top Five game screen: it shows one seat's view and turns keys
// into that seat's ranking (with the "I know this one!" marker) and ready actions.
package topfive

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parlor/rules"
	tf "parlor/rules/topfive"
	"parlor/session/gameui"
)

func init() {
	gameui.Register(tf.ID, func(seat int) gameui.Screen { return New(seat) })
}

// Screen is one seat's Top Five screen. Besides the newest view it holds only the
// player's draft ranking, which stays on this screen until it is submitted.
type Screen struct {
	seat   int
	v      tf.View
	have   bool
	draft  draft
	sent   bool   // the ranking of this round went out; wait for the view to say so
	ready  bool   // the ready of this round went out
	note   string // what the last enter could not do yet
	round  int    // the round the draft belongs to
	noteOK bool
}

// draft is the ranking being built: ranks[i] is the rank given to topic i (0 = none yet).
type draft struct {
	cursor int
	ranks  [tf.Hand]int
	marker int // topic index, or -1
}

// New makes the screen of a seat (rules.Spectator for a spectator).
func New(seat int) *Screen {
	return &Screen{seat: seat, draft: draft{marker: -1}}
}

// SetView takes the newest view; a new round starts a fresh draft.
func (s *Screen) SetView(view rules.View) {
	v, ok := rules.ViewAs[tf.View](view)
	if !ok {
		return
	}
	if !s.have || v.Round != s.round {
		s.draft, s.sent, s.ready, s.note, s.round = draft{marker: -1}, false, false, "", v.Round
	}
	if v.Phase != tf.PhaseResults {
		s.ready = false
	}
	s.v, s.have = v, true
}

// editing reports whether this seat still has to rank this round.
func (s *Screen) editing() bool {
	v := s.v
	return s.have && v.Phase == tf.PhaseRanking && s.seat >= 0 && s.seat < len(v.Submitted) &&
		!v.Submitted[s.seat] && !s.sent && v.Role != tf.RoleSpectator
}

// needsMarker reports whether this seat guesses (and so places a marker) this round.
func (s *Screen) needsMarker() bool { return s.v.Role == tf.RoleGuesser }

// Update turns a key into the seat's action.
func (s *Screen) Update(msg tea.Msg) (any, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || !s.have {
		return nil, nil
	}
	key := k.String()
	if s.v.Phase == tf.PhaseResults && key == "enter" && s.seat >= 0 && s.seat < len(s.v.Ready) && !s.v.Ready[s.seat] && !s.ready {
		s.ready = true
		return tf.Ready{Type: tf.TypeReady}, nil
	}
	if !s.editing() {
		return nil, nil
	}
	d := &s.draft
	switch key {
	case "up", "k":
		d.cursor = (d.cursor + tf.Hand - 1) % tf.Hand
	case "down", "j":
		d.cursor = (d.cursor + 1) % tf.Hand
	case "1", "2", "3", "4", "5":
		r := int(key[0] - '0')
		s.note = ""
		for i := range d.ranks {
			if d.ranks[i] == r && i != d.cursor {
				d.ranks[i] = 0 // a rank given twice moves; it never duplicates
				s.note, s.noteOK = fmt.Sprintf("Rank %d moved from %s: it has none now.", r, s.v.Topics[i]), true
			}
		}
		d.ranks[d.cursor] = r
		// Move on, so that a ranking can be typed as five digits.
		d.cursor = min(d.cursor+1, tf.Hand-1)
	case "0", "backspace", "delete", "x":
		d.ranks[d.cursor] = 0
		s.note = ""
	case "m":
		if s.needsMarker() {
			d.marker = d.cursor
			s.note = ""
		} else {
			s.note, s.noteOK = "No marker this round: "+noMarkerWhy(s.v), false
		}
	case "enter":
		if miss := s.missing(); len(miss) > 0 {
			s.note, s.noteOK = "Not yet: "+strings.Join(miss, "; ")+".", false
			return nil, nil
		}
		s.sent, s.note, s.noteOK = true, "Ranking sent.", true
		return tf.NewRank(d.ranks, d.marker), nil
	}
	return nil, nil
}

// missing says what keeps the draft from being submitted; empty when it is complete.
func (s *Screen) missing() []string {
	var used [tf.Hand + 1]bool
	for _, r := range s.draft.ranks {
		used[r] = true
	}
	var ranks []string
	for r := 1; r <= tf.Hand; r++ {
		if !used[r] {
			ranks = append(ranks, fmt.Sprint(r))
		}
	}
	var parts []string
	switch len(ranks) {
	case 0:
	case 1:
		parts = append(parts, "the ranking is missing rank "+ranks[0])
	default:
		parts = append(parts, "the ranking is missing ranks "+strings.Join(ranks[:len(ranks)-1], ", ")+" and "+ranks[len(ranks)-1])
	}
	if s.needsMarker() && s.draft.marker < 0 {
		parts = append(parts, "the marker is missing (press m)")
	}
	return parts
}

func noMarkerWhy(v tf.View) string {
	if v.Role == tf.RoleHonour {
		return "you are the Player of Honour."
	}
	return "in duo nobody places one."
}

// Keys lists the keys that work now.
func (s *Screen) Keys() []gameui.Key {
	switch {
	case s.editing():
		keys := []gameui.Key{{Keys: "1-5", Help: "rank the topic, then the next"}}
		if s.needsMarker() {
			keys = append(keys, gameui.Key{Keys: "m", Help: "marker on it"})
		}
		return append(keys, gameui.Key{Keys: "enter", Help: "send"}, gameui.Key{Keys: "↑↓", Help: "topic"}, gameui.Key{Keys: "0", Help: "clear"})
	case s.have && s.v.Phase == tf.PhaseResults && s.seat >= 0 && s.seat < len(s.v.Ready) && !s.v.Ready[s.seat] && !s.ready:
		return []gameui.Key{{Keys: "enter", Help: "ready for the next round"}}
	}
	return nil
}

// Typing is always false: Top Five has no text box.
func (s *Screen) Typing() bool { return false }
