package rules

import "strings"

// List writes items as a sentence does: "A", "A and B", "A, B and C".
func List(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
