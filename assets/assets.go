// Package assets embeds the games' content (decks, pictures, questions) and hands it out
// by name. Each game parses and validates its own files with a pure function in its
// rules package; the tests in this folder run those validators over the embedded files.
package assets

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"sync"
)

//go:embed content
var content embed.FS

// read keeps each file read, for every caller: embed.FS copies a file on every read,
// and every table of a game took its own copy of the game's content (22 MB at 714
// tables), which nobody changes.
var read sync.Map // name → []byte

// Read returns the embedded file at name, relative to content/, e.g. "topfive/topics.txt".
// The bytes are shared by every caller: read them, never change them.
func Read(name string) ([]byte, error) {
	if b, ok := read.Load(name); ok {
		return b.([]byte), nil
	}
	b, err := content.ReadFile("content/" + name)
	if err != nil {
		return nil, fmt.Errorf("assets: %s: %w", name, fs.ErrNotExist)
	}
	b = slices.Clip(b) // an append by a caller makes its own copy
	read.Store(name, b)
	return b, nil
}

// Load reads every named file into a map, for rules.Setup.Content.
func Load(names []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(names))
	for _, n := range names {
		b, err := Read(n)
		if err != nil {
			return nil, err
		}
		out[n] = b
	}
	return out, nil
}
