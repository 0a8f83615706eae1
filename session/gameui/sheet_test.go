package gameui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"parlor/rules"
)

func sheetOf(rounds int) rules.Sheet {
	s := rules.NewSheet(3, 0)
	totals := make([]int, 3)
	for r := 1; r <= rounds; r++ {
		pts := []int{r, 2, 0}
		for i := range totals {
			totals[i] += pts[i]
		}
		s.Add(r, fmt.Sprintf("Seat%d narrates", r%3), pts, totals, []string{fmt.Sprintf("Ann: %d right = %d.", r, r), "Bob: 2 right = 2.", "Cyd: the narrator, a breakdown line long enough that it has to wrap at eighty columns to be read whole."})
	}
	return s
}

func checkBox(t *testing.T, lines []string, w, h int) string {
	t.Helper()
	if len(lines) > h {
		t.Errorf("%d lines, at most %d", len(lines), h)
	}
	for _, l := range lines {
		if lipgloss.Width(l) > w {
			t.Errorf("line %d wide: %q", lipgloss.Width(l), l)
		}
	}
	return strings.Join(lines, "\n")
}

func TestSheetShowsRoundsTotalsAndBreakdown(t *testing.T) {
	names := []string{"Ann", "Bob", "Cyd"}
	out := checkBox(t, Sheet(sheetOf(2), names, 80, 20, true), 80, 20)
	for _, want := range []string{"Score sheet", "Ann", "Cyd", " 1 Seat1 narrates", " 2 Seat2 narrates", "+2", "Total", "3", "Last round:", "Ann: 2 right = 2.", "read whole."} {
		if !strings.Contains(out, want) {
			t.Errorf("sheet lacks %q:\n%s", want, out)
		}
	}
	// Coloured, it is the same size.
	checkBox(t, Sheet(sheetOf(2), names, 80, 20, false), 80, 20)
}

func TestSheetLeavesOutTheOldestRoundsWhenShort(t *testing.T) {
	out := checkBox(t, Sheet(sheetOf(20), []string{"Ann", "Bob", "Cyd"}, 80, 12, true), 80, 12)
	for _, want := range []string{"(rounds 1–", "    eighty columns to be read whole.", "20 Seat2", "Total          ", "210"} {
		if !strings.Contains(out, want) {
			t.Errorf("short sheet lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, " 1 Seat1") {
		t.Errorf("round 1 shown in a short sheet:\n%s", out)
	}
	// Fourteen seats still fit 80 columns.
	s := rules.NewSheet(14, 0)
	s.Add(1, "team A plays", make([]int, 14), make([]int, 14), nil)
	checkBox(t, Sheet(s, nil, 80, 10, true), 80, 10)
}

// A round's label ("Bot Ada narrates") is whole where the columns leave it room: it was
// cut to "Bot Ada narrat…" even at 120 columns.
func TestSheetLabelsAreWholeWhereThereIsRoom(t *testing.T) {
	s := rules.NewSheet(5, 0)
	s.Add(4, "Bot Ada narrates", []int{1, 2, 3, 4, 5}, []int{1, 2, 3, 4, 5}, nil)
	s.Add(5, "Bartholomew Jone narrates", []int{1, 2, 3, 4, 5}, []int{2, 4, 6, 8, 10}, nil)
	names := []string{"Ann", "Bob", "Cid", "Bot Ada", "Bot Bo"}
	for _, c := range []struct {
		width int
		whole []string
	}{{80, []string{" 4 Bot Ada narrates"}}, {88, []string{" 4 Bot Ada narrates", " 5 Bartholomew Jone narrates"}}} {
		out := strings.Join(Sheet(s, names, c.width, 12, true), "\n")
		for _, w := range c.whole {
			if !strings.Contains(out, w) {
				t.Errorf("%d columns: %q is cut:\n%s", c.width, w, out)
			}
		}
		if !strings.Contains(out, "Bot Bo") || !strings.Contains(out, "10") {
			t.Errorf("%d columns: a column is lost:\n%s", c.width, out)
		}
	}
}

// A breakdown line is wrapped at its spaces only: a "-25" never loses its number to the
// next line (a hyphen is a break for ansi.Wrap).
func TestSheetBreakdownKeepsSignedNumbersWhole(t *testing.T) {
	s := rules.NewSheet(3, 0)
	line := "Ann: A (own predictions) Bob -25, Cyd +50; B (foreseen by) Bob +25, Cyd -25; +25 → 475."
	s.Add(1, "Round 1", []int{25, 0, 0}, []int{475, 600, 600}, []string{line})
	for w := 30; w <= 80; w++ {
		for _, l := range Sheet(s, []string{"Ann", "Bob", "Cyd"}, w, 20, true) {
			if strings.HasSuffix(strings.TrimSpace(l), "-") || strings.HasSuffix(strings.TrimSpace(l), "+") {
				t.Fatalf("at %d columns a signed number is split: %q", w, l)
			}
		}
	}
}

// A sheet of turns (Fingertip's) says turns where it says what it leaves out and whose
// breakdown is last, and where the rest is.
func TestSheetOfTurnsSaysTurns(t *testing.T) {
	s := sheetOf(20)
	s.Word = "turn"
	out := checkBox(t, Sheet(s, []string{"Ann", "Bob", "Cyd"}, 80, 12, true), 80, 12)
	for _, want := range []string{"(turns 1–", "not shown: v shows the log)", "Last turn:"} {
		if !strings.Contains(out, want) {
			t.Errorf("sheet lacks %q:\n%s", want, out)
		}
	}
}
