package session

import (
	"fmt"
	"slices"
	"strings"

	"parlor/lobby"
)

// seatModeration is the table screen's state for the moderation keys.
type seatModeration struct {
	// typingFor is what the message box is typed for while chatting: "" a chat line,
	// "report" the reason of a report about boxName in boxSeat, "unblock" a blocked name.
	typingFor, boxName string
	boxSeat            int
	picked             bool // a player who is not the host picked a seat (↑↓): it is shown
}

// The table's moderation keys, for the seat picked in the seats panel: B blocks (the
// host, after a yes), I ignores or shows again, R reports with a reason typed in the
// message box, U unblocks a name typed there (docs/moderation.md).
func (t *tableScreen) moderate(m *Model, key string) {
	seats := t.u.Table.Seats
	var s lobby.SeatInfo
	if key != "U" {
		if t.seatSel < 0 || t.seatSel >= len(seats) {
			m.setStatus("Pick a seat first (↑↓).", true)
			return
		}
		s = seats[t.seatSel]
	}
	switch key {
	case "B":
		if !t.u.Host {
			m.setStatus(lobby.ErrNotHost.Error(), true)
			return
		}
		m.question = question{confirm: confirmBlock, seat: t.seatSel, player: s.Name}
	case "I":
		var err error
		if slices.Contains(t.u.Ignored, s.Name) {
			if err = lobby.Run(t.member, lobby.Unignore{Name: s.Name}); err == nil {
				m.setStatus(fmt.Sprintf("You see %s's chat again.", s.Name), false)
			}
		} else if err = lobby.Run(t.member, lobby.Ignore{Seat: t.seatSel}); err == nil {
			m.setStatus(fmt.Sprintf("You no longer see %s's chat here (I on their seat again shows it).", s.Name), false)
		}
		if err != nil {
			m.setStatus(t.refusal(err), true)
		}
	case "R":
		if s.Bot || t.seatSel == t.u.Seat {
			m.setStatus("Pick another player's seat to report them.", true)
			return
		}
		t.typeFor(key, s.Name)
		m.setStatus(fmt.Sprintf("Report %s to the admins: type what happened, enter sends it, esc gives up.", s.Name), false)
	case "U":
		if !t.u.Host {
			m.setStatus(lobby.ErrNotHost.Error(), true)
			return
		}
		if len(t.u.Table.Blocked) == 0 {
			m.setStatus("Nobody is blocked at this table.", false)
			return
		}
		t.typeFor(key, "")
		m.setStatus(fmt.Sprintf("Unblock whom? Blocked: %s. Type the name, enter.", strings.Join(t.u.Table.Blocked, ", ")), false)
	}
}

// boxLabel is what the message box shows before its text: what it is typed for.
func (s seatModeration) boxLabel() string {
	switch s.typingFor {
	case "report":
		return "report " + s.boxName + " (to the admins, not the table): "
	case "unblock":
		return "unblock (a blocked name): "
	}
	return "say: "
}

// typeFor opens the message box for a report's reason (R) or a name to unblock (U).
func (t *tableScreen) typeFor(key, name string) {
	t.mod.typingFor, t.mod.boxName, t.mod.boxSeat = map[string]string{"R": "report", "U": "unblock"}[key], name, t.seatSel
	t.chatBox().reset()
	t.chatting = true
}

// sendTyped sends what the message box was opened for (typeFor).
func (t *tableScreen) sendTyped(m *Model) {
	text := t.chatBox().value()
	var err error
	var ok string
	switch t.mod.typingFor {
	case "report":
		seats := t.u.Table.Seats
		if t.mod.boxSeat >= len(seats) || seats[t.mod.boxSeat].Name != t.mod.boxName {
			err = fmt.Errorf("the seats changed while you typed: nothing was sent. Pick %s's seat again", t.mod.boxName)
			break
		}
		if err = lobby.Run(t.member, lobby.ReportPlayer{Seat: t.mod.boxSeat, Reason: text}); err == nil {
			ok = fmt.Sprintf("Your report about %s went to the admins. Thank you.", t.mod.boxName)
		}
	case "unblock":
		if err = lobby.Run(t.member, lobby.Unblock{Name: text}); err == nil {
			ok = fmt.Sprintf("%s may come back to this table.", strings.TrimSpace(text))
		}
	}
	if err != nil {
		m.setStatus(t.refusal(err), true)
		if t.mod.typingFor == "report" && text == "" {
			return // the box stays open for the reason
		}
	} else {
		m.setStatus(ok, false)
	}
	t.chatBox().reset()
	t.chatting, t.mod.typingFor = false, ""
}
