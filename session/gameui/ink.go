package gameui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// Ink is a style turned into the escape sequences that open and close it, so that
// painting many short runs in it is string concatenation. lipgloss.Style.Render walks
// the whole style (borders, margins, padding, widths) on every call: a board drawn from
// a hundred runs in ten styles spent most of its time there.
type Ink struct {
	st        lipgloss.Style
	pre, post string
	whole     bool   // Render is pre+text+post for one line without tabs
	empty     string // Render("")
}

// inkProbe is what a style is rendered around to find its sequences.
const inkProbe = "x"

// InkOf renders st once to learn its sequences.
func InkOf(st lipgloss.Style) Ink {
	out := st.Render(inkProbe)
	pre, post, ok := strings.Cut(out, inkProbe)
	// Only a style that wraps its text as it is can be painted by concatenation: no
	// width, padding, margins, borders or transforms (which would change the probe), and
	// no underline or strikethrough (lipgloss draws those character by character).
	ok = ok && !strings.Contains(post, inkProbe) && st.GetWidth() == 0 && st.GetMaxWidth() == 0 &&
		st.GetHorizontalFrameSize() == 0 && st.GetVerticalFrameSize() == 0 && st.GetTransform() == nil &&
		!st.GetUnderline() && !st.GetStrikethrough()
	return Ink{st: st, pre: pre, post: post, whole: ok, empty: st.Render("")}
}

// Paint is st.Render(text).
func (k Ink) Paint(text string) string {
	if text == "" { // often: a seat with no marks, a line with no hint
		return k.empty
	}
	if !k.whole || strings.ContainsAny(text, "\n\t") {
		return k.st.Render(text)
	}
	return k.pre + text + k.post
}

// Wrap is what Paint puts around text when painting is concatenation: ok reports that
// Paint(text) is pre+text+post for every text that is not empty and has no newline or
// tab. A board that paints many runs writes pre, the run and post into its line itself,
// without making each painted run a string of its own.
func (k Ink) Wrap() (pre, post string, ok bool) { return k.pre, k.post, k.whole }
