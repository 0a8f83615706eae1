package gameui

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// An ink paints exactly what the style renders, for the styles the boards use.
func TestInkPaintsWhatTheStyleRenders(t *testing.T) {
	styles := map[string]lipgloss.Style{
		"none":      {},
		"faint":     lipgloss.NewStyle().Faint(true),
		"bold":      lipgloss.NewStyle().Bold(true),
		"reverse":   lipgloss.NewStyle().Bold(true).Reverse(true),
		"seat":      SeatStyle(3),
		"fg+bg":     lipgloss.NewStyle().Foreground(SeatColor(1)).Background(SeatColor(2)),
		"underline": lipgloss.NewStyle().Bold(true).Underline(true),
		"padded":    lipgloss.NewStyle().Bold(true).Padding(0, 1),
		"width":     lipgloss.NewStyle().Width(6),
	}
	texts := []string{"", "x", "─────", "▲ hot things", "◆", "⁵", "a\tb", "two\nlines", "A B C", "日本"}
	for name, st := range styles {
		k := InkOf(st)
		for _, text := range texts {
			if got, want := k.Paint(text), st.Render(text); got != want {
				t.Errorf("%s: Paint(%q) = %q, Render = %q", name, text, got, want)
			}
			if pre, post, ok := k.Wrap(); ok && text != "" && !strings.ContainsAny(text, "\n\t") && pre+text+post != st.Render(text) {
				t.Errorf("%s: Wrap around %q = %q, Render = %q", name, text, pre+text+post, st.Render(text))
			}
		}
	}
	if k := InkOf(lipgloss.NewStyle().Faint(true)); !k.whole || k.pre == "" {
		t.Errorf("a faint style should paint by concatenation: %+v", k)
	}
}

// A seat's ink paints what the seat's style renders, spectators and seats past the
// palette's end included.
func TestSeatInkIsTheSeatsStyle(t *testing.T) {
	for seat := -1; seat < 2*len(seatTones)+1; seat++ {
		if got, want := SeatInk(seat).Paint("Ann"), SeatStyle(seat).Render("Ann"); got != want {
			t.Errorf("seat %d: %q, style renders %q", seat, got, want)
		}
	}
}
