package server

import (
	"fmt"
	"os"

	"parlor/lobby"
)

// loadFilterWords reads the family filter's word list from path (Config.FilterWords);
// "" is the built-in list (nil). A list that cannot be read or has no word stops the
// server: a typo would otherwise leave family tables unfiltered without a word said.
func loadFilterWords(path string) (*lobby.WordFilter, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--filter-words: %w", err)
	}
	defer f.Close()
	words, err := lobby.ParseFilterWords(f)
	if err != nil {
		return nil, fmt.Errorf("--filter-words %s: %w", path, err)
	}
	return words, nil
}
