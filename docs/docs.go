// Package docs carries the parts of the documentation the server prints itself, so that a
// player who cannot open the repository reads the same words: "ssh HOST pack help KIND"
// prints a pack kind's section of packs.md.
package docs

import (
	_ "embed"
	"strings"
)

//go:embed packs.md
var packs string

// PackKind is the section of packs.md on one pack kind (its format and an example), as
// plain text for a terminal: code blocks indented, their fences left out. ok is false for
// a kind the page has no section on.
func PackKind(kind string) (text string, ok bool) {
	_, rest, found := strings.Cut(packs, "\n### "+kind+"\n")
	if !found {
		return "", false
	}
	var b strings.Builder
	code := false
	for _, line := range strings.Split(rest, "\n") {
		if !code && (strings.HasPrefix(line, "## ") || strings.HasPrefix(line, "### ")) {
			break
		}
		if strings.HasPrefix(line, "```") {
			code = !code
			continue
		}
		if code {
			line = "    " + line
		}
		b.WriteString(strings.ReplaceAll(line, "`", "") + "\n")
	}
	return strings.TrimSpace(b.String()) + "\n", true
}
