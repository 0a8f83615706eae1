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
		// Without a key the pager has no viewport yet: its view and position from the
		// top are the viewport's all the same.
		got, pos := p.view(), p.position()
		if want := block(p.scroller().View(), w, h); !slices.Equal(got, want) {
			t.Fatalf("round %d (%d×%d, offset %d of %d lines):\n got %q\nwant %q", round, w, h, p.offset(), len(lines), got, want)
		}
		if want := p.position(); pos != want {
			t.Fatalf("round %d (%d×%d, offset %d of %d lines): position %q, the viewport's %q", round, w, h, p.offset(), len(lines), pos, want)
		}
	}
}

// A pager that is only shown, as the rules in a waiting room mostly are, makes no
// viewport; the first scroll makes one and scrolls from the top.
func TestPagerMakesItsViewportOnlyToScroll(t *testing.T) {
	var lines []string
	for i := range 30 {
		lines = append(lines, fmt.Sprintf("rule %d", i))
	}
	p := newPager()
	p.set(lines, 20, 10)
	if v, pos := p.view(), p.position(); !strings.HasPrefix(v[0], "rule 0") || pos != "lines 1–10 of 30 · 0%" {
		t.Fatalf("shown from the top: %q, %q", v[0], pos)
	}
	if p.vp != nil {
		t.Fatal("a pager only shown made a viewport")
	}
	p.key(tea.KeyPressMsg{Code: tea.KeyPgDown})
	if v, pos := p.view(), p.position(); !strings.HasPrefix(v[0], "rule 10") || pos != "lines 11–20 of 30 · 50%" {
		t.Fatalf("after a page down: %q, %q", v[0], pos)
	}
	q := newPager()
	q.set([]string{"a\nb"}, 5, 2) // line breaks need the viewport to split them
	if v := q.view(); q.vp == nil || len(v) != 2 || !strings.HasPrefix(v[0], "a") || !strings.HasPrefix(v[1], "b") {
		t.Fatalf("a text with a line break: %q", v)
	}
}
