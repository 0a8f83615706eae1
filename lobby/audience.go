package lobby

import "slices"

// addressed tells whether the line is for some seats only.
func (c ChatLine) addressed() bool { return len(c.To) > 0 || len(c.NotTo) > 0 }

// isFor tells whether the line is for seat.
func (c ChatLine) isFor(seat int) bool {
	return (len(c.To) == 0 || slices.Contains(c.To, seat)) && !slices.Contains(c.NotTo, seat)
}

// audiences deals a table's chat out to its members when some lines are for some seats
// only: each member gets the lines for its seat, and a Shared of its own per set of
// lines, since sessions share their drawing of the chat (Shared) with every member of
// the update.
type audiences struct {
	chat []ChatLine
	by   map[string]audience // by which of the addressed lines it gets
}

type audience struct {
	chat   []ChatLine
	shared *Shared
}

// forSeat is the chat and the Shared of seat's audience.
func (a *audiences) forSeat(seat int) ([]ChatLine, *Shared) {
	var key []byte
	for _, c := range a.chat {
		if c.addressed() {
			key = append(key, "01"[boolInt(c.isFor(seat))])
		}
	}
	if au, ok := a.by[string(key)]; ok {
		return au.chat, au.shared
	}
	au := audience{chat: make([]ChatLine, 0, len(a.chat)), shared: &Shared{}}
	for _, c := range a.chat {
		if c.isFor(seat) {
			c.To, c.NotTo = nil, nil
			au.chat = append(au.chat, c)
		}
	}
	if a.by == nil {
		a.by = map[string]audience{}
	}
	a.by[string(key)] = au
	return au.chat, au.shared
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
