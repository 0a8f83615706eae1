package rules

import (
	"fmt"
	"sort"
	"sync"
)

var (
	registryMu sync.RWMutex
	registry   = map[string]*Spec{}
)

// Register adds a game to the registry, with the CommonOptions after its own; a game
// package calls it from init.
// It panics on a duplicate or incomplete spec, which is a programming error.
func Register(s *Spec) {
	if s.ID == "" || s.New == nil || s.NewBot == nil || s.MinPlayers < 1 || s.MaxPlayers < s.MinPlayers {
		panic(fmt.Sprintf("rules: incomplete spec %q", s.ID))
	}
	for _, c := range CommonOptions {
		if _, dup := s.option(c.Key); dup {
			panic(fmt.Sprintf("rules: %s option %s is a common option", s.ID, c.Key))
		}
		s.Options = append(s.Options, c)
	}
	for _, o := range s.Options {
		if !contains(o.Choices, o.Default) {
			panic(fmt.Sprintf("rules: %s option %s: default %q is not a choice", s.ID, o.Key, o.Default))
		}
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[s.ID]; dup {
		panic("rules: duplicate game " + s.ID)
	}
	registry[s.ID] = s
}

// Lookup finds a registered game by id.
func Lookup(id string) (*Spec, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	s, ok := registry[id]
	return s, ok
}

// Games lists every registered game, ordered by name.
func Games() []*Spec {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]*Spec, 0, len(registry))
	for _, s := range registry {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
