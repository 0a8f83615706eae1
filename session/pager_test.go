package session

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
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

// TestPagerWindowIsTheViewportsView: the rows a pager cuts from its lines are the rows
// the viewport's own View gives, fitted, whatever the text, size and scroll position.
// Its lines are wrapped to its width (a line too wide would end in "…" rather than be
// cut short as the viewport cuts it).
func TestPagerWindowIsTheViewportsView(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	words := []string{"rule", "日本語", "\x1b[1mbold\x1b[0m", "a", "─────────", "·", "🎲", "\x1b[38;5;3mtinted words\x1b[m", "   "}
	for round := range 300 {
		var lines []string
		for range rng.IntN(30) {
			var b strings.Builder
			for range rng.IntN(12) {
				b.WriteString(words[rng.IntN(len(words))] + " ")
			}
			lines = append(lines, b.String())
		}
		w, h := 1+rng.IntN(60), 1+rng.IntN(20)
		for i, l := range lines {
			lines[i] = ansi.Truncate(l, w, "")
		}
		p := newPager()
		p.set(lines, w, h)
		for range rng.IntN(6) {
			p.key(tea.KeyPressMsg{Code: []rune{tea.KeyDown, tea.KeyPgDown, tea.KeyUp, tea.KeyEnd}[rng.IntN(4)]})
		}
		if got, want := p.view(), block(p.vp.View(), w, h); !slices.Equal(got, want) {
			t.Fatalf("round %d (%d×%d, offset %d of %d lines):\n got %q\nwant %q", round, w, h, p.vp.YOffset(), len(lines), got, want)
		}
	}
}
