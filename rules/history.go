package rules

// Historian is a game that can give a seat every line of its log that seat may see, as
// far back as the game keeps them, oldest first: a player who comes back to a table,
// or a spectator who comes late, reads the rounds they missed, where a view carries
// only the last few lines. A game without it gives its views' lines only.
type Historian interface {
	History(seat int) []string
}

// HistoryOf is g's History for seat, or nil for a game that keeps none.
func HistoryOf(g Game, seat int) []string {
	if h, ok := g.(Historian); ok {
		return h.History(seat)
	}
	return nil
}
