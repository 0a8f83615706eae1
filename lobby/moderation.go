package lobby

import (
	"strings"

	"parlor/playertext"
	"parlor/rules"
)

// Moderation at the table: an admin's server-wide mute (Config.Muted) stops a player's
// chat and game texts. The family filter is filter.go's.

// ErrMuted refuses the chat and game texts of a player an admin muted.
var ErrMuted = rules.Sentinel("lobby.muted", "an admin has muted you on this server")

// muted fails when an admin has muted the member's player server-wide, saying why and
// until when. It asks Config.Muted, which may read a store: never on the actor.
func (m *Member) muted() error {
	f := m.t.lobby.cfg.Muted
	if f == nil {
		return nil
	}
	reason, until, muted := f(m.player.ID)
	if !muted {
		return nil
	}
	when := "until an admin lifts it"
	if !until.IsZero() {
		when = "until " + until.UTC().Format("2 Jan 2006 15:04 UTC")
	}
	why := ""
	if reason = strings.TrimSpace(reason); reason != "" {
		why = " (" + playertext.Short(reason, 120) + ")"
	}
	return told(ErrMuted, "an admin has muted you on this server%s: you cannot chat or write in games %s", why, when)
}

// filtered fails at a family table when text holds a word of the family filter.
func (t *Table) filtered(text, what string) error {
	if t.everything {
		return nil
	}
	w, ok := t.lobby.filter.Find(text)
	if !ok {
		return nil
	}
	return told(ErrFiltered, "%s has %q, which the family filter does not allow at this table (its Content is family)", what, w)
}
