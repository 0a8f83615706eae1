package lobby

import "sync"

// Shared is what the updates of one table state have in common: one value in the
// update of every member from one fan-out. Sessions keep in it what they draw from the
// public state, so the first session at the table that needs a drawing makes it and
// the others reuse it until the table changes. The lobby only makes it (one small
// allocation per fan-out); it never draws, and nothing is drawn for a session that
// does not ask.
type Shared struct {
	mu sync.Mutex
	m  map[any]any
}

// Remember returns what is kept under key, or makes it with draw and keeps it. A nil
// Shared (an update from elsewhere) keeps nothing. draw runs once per key, under the
// lock: sessions that want the same drawing wait for the first instead of drawing too.
func (s *Shared) Remember(key any, draw func() any) any {
	if s == nil {
		return draw()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.m[key]; ok {
		return v
	}
	v := draw()
	if s.m == nil {
		s.m = map[any]any{}
	}
	s.m[key] = v
	return v
}
