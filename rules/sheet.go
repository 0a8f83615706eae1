package rules

import "slices"

// Sheet is a game's score history, the same for every game: a row per round (or turn), a
// column per seat, the totals, and the last round's breakdown in words. Games keep one in
// their state and copy it into every view's Header, so the screens and the JSON API read
// the history the same way.
type Sheet struct {
	Rows   []SheetRow `json:"rows"`           // oldest first
	Totals []int      `json:"totals"`         // score per seat after the last row
	Last   []string   `json:"last,omitempty"` // the last round's full breakdown, a line each
	Word   string     `json:"word,omitempty"` // what a row is when not a round (Spec.RoundWord): "turn"
}

// SheetRow is one round of a Sheet.
type SheetRow struct {
	Round  int    `json:"round"`           // the round (or turn) number, 1-based
	Label  string `json:"label,omitempty"` // whose round it was, e.g. "Ann narrates"
	Points []int  `json:"points"`          // what each seat scored in the round
}

// NewSheet is an empty sheet for seats players, each starting at start points.
func NewSheet(seats, start int) Sheet {
	t := make([]int, seats)
	for i := range t {
		t[i] = start
	}
	return Sheet{Rows: []SheetRow{}, Totals: t}
}

// Add records a round: what each seat scored, the totals after it, and its breakdown.
// A game gives its totals rather than letting the sheet add them up, because some games
// clamp scores (no score below 0) or give a team's score to every member.
func (s *Sheet) Add(round int, label string, points, totals []int, breakdown []string) {
	s.Rows = append(s.Rows, SheetRow{Round: round, Label: label, Points: slices.Clone(points)})
	s.Totals = slices.Clone(totals)
	s.Last = slices.Clone(breakdown)
}

// Clone copies the sheet for a view, sharing no memory with the game.
func (s Sheet) Clone() Sheet {
	c := Sheet{Rows: make([]SheetRow, len(s.Rows)), Totals: slices.Clone(s.Totals), Last: slices.Clone(s.Last), Word: s.Word}
	for i, r := range s.Rows {
		c.Rows[i] = SheetRow{Round: r.Round, Label: r.Label, Points: slices.Clone(r.Points)}
	}
	return c
}
