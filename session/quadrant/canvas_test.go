package quadrant

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// paintedLine is line as it was before it wrote the inks' sequences itself: every run
// painted as a string of its own (gameui.Ink.Paint).
func paintedLine(row []cell, plain bool) string {
	var b, run strings.Builder
	for i := 0; i < len(row); {
		run.Reset()
		j := i
		for ; j < len(row) && row[j].look == row[i].look; j++ {
			run.WriteString(row[j].ch)
		}
		if plain || row[i].look.kind == noLook {
			b.WriteString(run.String())
		} else {
			b.WriteString(lookInk(row[i].look).Paint(run.String()))
		}
		i = j
	}
	return b.String()
}

// A row renders exactly as painting each run of one look does, in every look (the
// underlined one is drawn by lipgloss, not concatenated), without colour, and with
// characters that a look cannot be wrapped around (a tab) or that are empty.
func TestLineIsEveryRunPainted(t *testing.T) {
	looks := []look{{}, {kind: dimLook}, {kind: labelLook}, {kind: seatLook, a: 2}, {kind: focusLook, a: 3},
		{kind: stackLook}, {kind: crowdLook}, {kind: bothLook}, {kind: pairLook, a: 1, b: 4}}
	chars := []string{" ", "─", "│", "A", "▀", "⁵", "◆", "\t", "", "日"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		row := make([]cell, 1+rng.IntN(50))
		l := looks[rng.IntN(len(looks))]
		for i := range row {
			if rng.IntN(4) == 0 {
				l = looks[rng.IntN(len(looks))]
			}
			row[i] = cell{ch: chars[rng.IntN(len(chars))], look: l}
		}
		for _, plain := range []bool{false, true} {
			if got, want := line(row, plain), paintedLine(row, plain); got != want {
				t.Fatalf("plain %v, row %v:\n%q\nwant\n%q", plain, row, got, want)
			}
		}
	}
}
