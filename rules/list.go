package rules

import (
	"fmt"
	"strings"
)

// List writes items as a sentence does: "A", "A and B", "A, B and C".
func List(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// Count writes n and the noun, plural unless n is 1: "1 point", "3 points" (nouns with
// a regular plural only).
func Count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
