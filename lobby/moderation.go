package lobby

import "time"

// Report is one player's complaint about another at a table, for the operators: who, about
// whom, why, and the table's recent chat as the reporter saw it.
type Report struct {
	Table                            string
	ByID, ByName, AboutID, AboutName string
	Reason                           string
	Chat                             []ChatLine
	At                               time.Time
}

// CloseTable closes table code for everyone, who are told notice (an operator's close,
// in their words). ErrNoTable when no such table runs on this server.
func (l *Lobby) CloseTable(code string, notice Closed) error {
	l.mu.Lock()
	t := l.tables[code]
	l.mu.Unlock()
	if t == nil {
		return ErrNoTable
	}
	return t.do(func(time.Time) error {
		t.closing, t.closedBy = notice, nil
		return nil
	})
}
