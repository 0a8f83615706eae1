// Package assets embeds the games' content (decks, pictures, questions) and hands it out
// by name. Each game parses and validates its own files with a pure function in its
// rules package; the tests in this folder run those validators over the embedded files.
package assets

import (
	"embed"
	"fmt"
	"io/fs"
)

//go:embed content
var content embed.FS

// Read returns the embedded file at name, relative to content/, e.g. "topfive/topics.txt".
func Read(name string) ([]byte, error) {
	b, err := content.ReadFile("content/" + name)
	if err != nil {
		return nil, fmt.Errorf("assets: %s: %w", name, fs.ErrNotExist)
	}
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
