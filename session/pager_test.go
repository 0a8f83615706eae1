package session

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestPagerDrawsItsViewAgainOnlyWhenItChanged checks that a pager keeps its view while
// nothing it shows changed (a waiting room is drawn again at every join, its rules
// with it), and draws it again after a scroll, a resize or new text.
func TestPagerDrawsItsViewAgainOnlyWhenItChanged(t *testing.T) {
	text := func(word string) []string {
		var l []string
		for i := range 10 {
			l = append(l, fmt.Sprintf("%s %d", word, i))
		}
		return l
	}
	p := newPager()
	p.set(text("rule"), 20, 3)
	first := p.view()
	if len(first) != 3 || !strings.HasPrefix(first[0], "rule 0") {
		t.Fatalf("first view %q", first)
	}
	p.set(text("rule"), 20, 3) // the same text again, as every redraw sets it
	if again := p.view(); &again[0] != &first[0] {
		t.Error("the view was drawn again with nothing changed")
	}
	steps := []struct {
		what string
		do   func()
		want string
		rows int
	}{
		{"a scroll", func() { p.key(tea.KeyPressMsg{Code: tea.KeyDown}) }, "rule 1", 3},
		{"a resize", func() { p.set(text("rule"), 20, 5) }, "rule 1", 5},
		{"new text", func() { p.set(text("law"), 20, 5) }, "law 1", 5},
		{"scrolling to the top", func() { p.key(tea.KeyPressMsg{Code: tea.KeyHome}) }, "law 0", 5},
	}
	for _, s := range steps {
		s.do()
		v := p.view()
		if len(v) != s.rows || !strings.HasPrefix(v[0], s.want) {
			t.Errorf("after %s the view is %q, want %d rows from %q", s.what, v, s.rows, s.want)
		}
	}
}
