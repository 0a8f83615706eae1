package session

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"parlor/lobby"
)

// confirmKind is what a yes/no question asks, and so what its yes does; "" when nothing
// is asked.
type confirmKind string

const (
	confirmQuit     confirmKind = "quit"   // leave parlor during a game
	confirmLeave    confirmKind = "leave"  // leave the table during a game
	confirmClose    confirmKind = "close"  // close the table for everyone
	confirmRemove   confirmKind = "remove" // take a person's seat: question.seat, question.player
	confirmBlock    confirmKind = "block"  // block a person from the table: question.seat, question.player
	confirmMakeHost confirmKind = "host"   // hand the host role to question.seat, question.player
)

// question is a yes/no question on screen: it takes the next key, and yesKey does what
// its kind says (Model.onConfirm); any other key, nothing. The model embeds it, so
// m.confirm is the kind asked.
type question struct {
	confirm confirmKind
	seat    int    // the seat confirmRemove and confirmBlock ask about
	player  string // who held it when asked: the seats may change meanwhile
}

// yesKey answers a question yes; every other key answers no.
var yesKey = bind("y", "yes", "y", "Y")

// text is the question as the player reads it. A guest is told they cannot come back
// (their seat is tied to this connection); playing says a game runs, in which a removed
// player's seat goes to a bot.
func (q question) text(guest, playing bool) string {
	var ask string
	switch q.confirm {
	case confirmQuit:
		ask = "Leave parlor mid-game? Your seat waits for you."
		if guest {
			ask = "Leave parlor mid-game? A guest cannot come back."
		}
	case confirmLeave:
		ask = "Leave this game? Your seat waits for you while it runs."
	case confirmClose:
		ask = "Close the table for everyone?"
	case confirmRemove:
		ask = fmt.Sprintf("Remove %s from the table?", q.player)
		if playing {
			ask = fmt.Sprintf("Give %s's seat to a bot for good?", q.player)
		}
	case confirmBlock:
		ask = fmt.Sprintf("Block %s? They cannot sit or watch here until you unblock them.", q.player)
	case confirmMakeHost:
		ask = fmt.Sprintf("Make %s the host? The host's controls become theirs.", q.player)
	default:
		return ""
	}
	return ask + " " + answers()
}

// answers are a question's keys, as the player reads them.
func answers() string {
	yes := yesKey.Help()
	return fmt.Sprintf("%s: %s · other keys: no", yes.Key, yes.Desc)
}

// confirmText is the question on screen, as the player reads it.
func (m *Model) confirmText() string {
	return m.question.text(m.o.Player.Guest, m.table.playing())
}

// onConfirm takes the answer to the question on screen: yesKey does what it asks.
func (m *Model) onConfirm(k tea.KeyPressMsg) tea.Cmd {
	q := m.question
	m.question = question{}
	if !key.Matches(k, yesKey) {
		return nil
	}
	switch q.confirm {
	case confirmQuit:
		m.leaveTable()
		m.goodbye = "Thanks for playing parlor! Connect again with the same key to take your seat back."
		if m.o.Player.Guest {
			m.goodbye = "Thanks for playing parlor!"
		}
		return tea.Quit
	case confirmLeave:
		m.leaveTable()
		m.toLobby()
		m.setStatus("You left the table. Your seat is kept while the game runs: join it again to come back.", false)
	case confirmClose:
		if err := lobby.Run(m.table.member, lobby.CloseTable{}); err != nil {
			m.setStatus(err.Error(), true)
		}
	case confirmRemove:
		if seats := m.table.u.Table.Seats; q.seat >= len(seats) || seats[q.seat].Name != q.player {
			m.setStatus(fmt.Sprintf("The seats changed while you were asked: nobody was removed. Pick %s's seat again.", q.player), true)
			return nil
		}
		if err := lobby.Run(m.table.member, lobby.Kick{Seat: q.seat}); err != nil {
			m.setStatus(err.Error(), true)
		}
	case confirmMakeHost:
		if seats := m.table.u.Table.Seats; q.seat >= len(seats) || seats[q.seat].Name != q.player {
			m.setStatus(fmt.Sprintf("The seats changed while you were asked: the host is still you. Pick %s's seat again.", q.player), true)
			return nil
		}
		if err := lobby.Run(m.table.member, lobby.MakeHost{Seat: q.seat}); err != nil {
			m.setStatus(err.Error(), true)
		}
	case confirmBlock:
		if seats := m.table.u.Table.Seats; q.seat >= len(seats) || seats[q.seat].Name != q.player {
			m.setStatus(fmt.Sprintf("The seats changed while you were asked: nobody was blocked. Pick %s's seat again.", q.player), true)
			return nil
		}
		if err := lobby.Run(m.table.member, lobby.Block{Seat: q.seat}); err != nil {
			m.setStatus(err.Error(), true)
		} else {
			m.setStatus(fmt.Sprintf("%s is blocked from this table until you unblock them (U).", q.player), false)
		}
	}
	return nil
}
