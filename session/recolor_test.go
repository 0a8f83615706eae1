package session

import (
	"testing"

	"github.com/charmbracelet/colorprofile"

	"parlor/session/gameui"
)

// A line is recoloured exactly as the profile's replacer does it, whether or not it has
// a colour to rewrite.
func TestRecolorLineIsTheReplacers(t *testing.T) {
	lines := []string{"", "plain words   ", dimStyle.Paint("dim"), headStyle.Paint("Seats 3/7") + " " + gameui.SeatInk(2).Paint("Ann"),
		titleStyle.Paint(" parlor "), gameui.SeatInk(5).Paint("Bo") + okStyle.Paint("✓") + errStyle.Paint("no"), "\x1b[38;5;245mfixed\x1b[m"}
	for _, p := range []colorprofile.Profile{colorprofile.ANSI, colorprofile.ANSI256} {
		m := &Model{recolor: gameui.Recolor(p)}
		for _, l := range lines {
			if got, want := m.recolorLine(l, nil), m.recolor.Replace(l); got != want {
				t.Errorf("profile %v, %q: %q, the replacer gives %q", p, l, got, want)
			}
		}
	}
}
