package gameui

import (
	"github.com/charmbracelet/x/ansi"
	"math/rand/v2"
	"slices"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestFit(t *testing.T) {
	for _, c := range []struct {
		s    string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"abcd", 4, "abcd"},
		{"\x1b[1mab\x1b[m", 3, "\x1b[1mab\x1b[m "},
		{"日本", 3, "日…"},
		{"abc", 0, ""},
		{"abc", -1, ""},
	} {
		if got := Fit(c.s, c.w); got != c.want {
			t.Errorf("Fit(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
	}
}

func TestBlock(t *testing.T) {
	got := Block([]string{"abcdef", "x", "cut"}, 3, 2)
	if want := []string{"ab…", "x  "}; !slices.Equal(got, want) {
		t.Errorf("Block cut = %q, want %q", got, want)
	}
	got = Block([]string{"a"}, 2, 3)
	if want := []string{"a ", "  ", "  "}; !slices.Equal(got, want) {
		t.Errorf("Block padded = %q, want %q", got, want)
	}
}

func TestPainter(t *testing.T) {
	bold := lipgloss.NewStyle().Bold(true)
	if got := (Painter{Plain: true}).Paint(bold, "hi"); got != "hi" {
		t.Errorf("plain Paint = %q, want the text as it is", got)
	}
	if got := (Painter{}).Paint(bold, ""); got != "" {
		t.Errorf("Paint of nothing = %q, want nothing", got)
	}
	if got, want := (Painter{}).Paint(bold, "hi"), bold.Render("hi"); got != want {
		t.Errorf("Paint = %q, want %q", got, want)
	}
}

// Refit fits exactly as Block does, frame after frame, whatever the caller does with
// the lines it passed or got back.
func TestRefitIsBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"plain", "\x1b[1mbold\x1b[m", "中文", "a rather long line of words that does not fit", "", "⏱ 12s"}
	var r Refit
	lines := make([]string, 6)
	for frame := range 300 {
		for range rng.IntN(3) {
			lines[rng.IntN(len(lines))] = pieces[rng.IntN(len(pieces))]
		}
		w, h := 20, 4+rng.IntN(4)
		if frame%50 == 49 {
			w = 12 // a resize
		}
		in := slices.Clone(lines[:rng.IntN(len(lines)+1)])
		var memo Memo
		if frame%3 == 0 {
			memo = &countingMemo{}
		}
		got := r.Block(in, w, h, memo)
		if want := Block(slices.Clone(in), w, h); !slices.Equal(got, want) {
			t.Fatalf("frame %d: %q, Block gives %q", frame, got, want)
		}
		// What the caller does with either slice afterwards is its own business.
		if frame%2 == 0 {
			for i := range got {
				got[i] = "changed"
			}
		} else {
			for i := range in {
				in[i] = pieces[0]
			}
		}
	}
}

// countingMemo is a table state's memo (lobby.Shared's contract) that counts the drawings
// it made.
type countingMemo struct {
	m     map[any]any
	drawn int
}

func (c *countingMemo) Remember(key any, draw func() any) any {
	if v, ok := c.m[key]; ok {
		return v
	}
	if c.m == nil {
		c.m = map[any]any{}
	}
	c.drawn++
	v := draw()
	c.m[key] = v
	return v
}

// The seats of one table state fit a line their frames changed once between them, in
// the table state's memo: such a line is mostly new (a token that moved), so the
// process-wide memo would only miss on it and fill up with it.
func TestRefitFitsAChangedLineOncePerTableState(t *testing.T) {
	seats := make([]Refit, 7)
	before := []string{"A Ann (3, 4)", "B Bob (0, 0)", "C Cy (1, 1)"}
	for i := range seats {
		seats[i].Block(before, 30, 3, nil)
	}
	after := []string{"A Ann (3, 4)", "B Bob (1, 0) \x1b[1mmoved\x1b[m", "C Cy (1, 1)"}
	memo := &countingMemo{}
	for i := range seats {
		got := seats[i].Block(slices.Clone(after), 30, 3, memo)
		if want := Block(slices.Clone(after), 30, 3); !slices.Equal(got, want) {
			t.Fatalf("seat %d: %q, want %q", i, got, want)
		}
	}
	if memo.drawn != 1 {
		t.Errorf("the seven seats fitted the changed line %d times in the table state's memo; want once", memo.drawn)
	}
}

// CutMiddle keeps the start and the end of a text too wide for its room: two packs named
// "Team offsite words for spring A" and "…B" stay apart.
func TestCutMiddle(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"Team offsite words for spring A", 15, "Team of…pring A"},
		{"Team offsite words for spring B", 15, "Team of…pring B"},
		{"short", 15, "short"},
		{"漢字漢字漢字漢字", 7, "漢…漢字"},
		{"abc", 1, "…"},
	} {
		got := CutMiddle(c.in, c.w)
		if got != c.want || ansi.StringWidth(got) > c.w {
			t.Errorf("CutMiddle(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}

// TestFill: lines already fitted are kept as they are, in a copy the caller may change,
// with blank lines of the width up to the height, and no more than the height.
func TestFill(t *testing.T) {
	in := []string{"ab", "cd", "ef"}
	got := Fill(in[:2], 2, 4)
	if want := []string{"ab", "cd", "  ", "  "}; !slices.Equal(got, want) {
		t.Fatalf("Fill = %q, want %q", got, want)
	}
	got[0] = "xx"
	if in[0] != "ab" || in[2] != "ef" {
		t.Errorf("Fill changed its input: %q", in)
	}
	if got := Fill(in, 2, 2); !slices.Equal(got, []string{"ab", "cd"}) {
		t.Errorf("Fill past the height = %q", got)
	}
}
