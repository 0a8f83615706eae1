package assets_test

import (
	"strings"
	"testing"

	"parlor/assets"
	"parlor/rules"
	"parlor/rules/topfive"
)

// The embedded Top Five deck parses with the engine's own validator: enough topics, none
// too long, no repeats.
func TestTopFiveTopics(t *testing.T) {
	b, err := assets.Read(topfive.TopicsFile)
	if err != nil {
		t.Fatal(err)
	}
	topics, err := topfive.ParseTopics(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(topics) < topfive.MinTopics {
		t.Fatalf("%d topics, want at least %d", len(topics), topfive.MinTopics)
	}
	seen := map[string]bool{}
	for _, tp := range topics {
		if n := rules.Width(tp); n == 0 || n > topfive.MaxTopicWidth {
			t.Errorf("%q is %d characters", tp, n)
		}
		k := strings.ToLower(tp)
		if seen[k] {
			t.Errorf("%q repeats", tp)
		}
		seen[k] = true
	}
	// Nor is a topic another one with words added: "Museums" and "Museums with a guided
	// tour" came up in one playtest game and read as the same topic twice.
	for _, a := range topics {
		for _, b := range topics {
			if a != b && strings.HasPrefix(strings.ToLower(b), strings.ToLower(a)+" ") {
				t.Errorf("%q is %q with words added", b, a)
			}
		}
	}
	for _, name := range topfive.Spec.Content {
		if _, err := assets.Read(name); err != nil {
			t.Errorf("content %s: %v", name, err)
		}
	}
}
