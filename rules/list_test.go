package rules_test

import (
	"testing"

	"parlor/rules"
)

func TestListAndCount(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"A"}, "A"}, {[]string{"A", "B"}, "A and B"}, {[]string{"A", "B", "C"}, "A, B and C"}} {
		if got := rules.List(c.in); got != c.want {
			t.Errorf("List(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for n, want := range map[int]string{0: "0 games", 1: "1 game", 2: "2 games"} {
		if got := rules.Count(n, "game"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
