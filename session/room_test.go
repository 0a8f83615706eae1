package session

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// TestOptionsLookLockedWhileAGameRuns: while the table plays, the host's options panel
// offers no ‹ › to change an option but says the options are locked until the game ends,
// in words (a terminal without colour shows it as well), and ←→ change nothing; before
// the game the picked option has its ‹ ›.
func TestOptionsLookLockedWhileAGameRuns(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	h.m.Update(tea.ColorProfileMsg{Profile: colorprofile.Ascii})
	h.sitAt("topfive", nil, 3)
	h.press("esc", "tab") // the room, the options in focus
	if h.m.table.panel != panelOptions {
		t.Fatalf("the options are not in focus (panel %d)", h.m.table.panel)
	}
	h.checkFrame("the options of a running game")
	screen := h.screen()
	if strings.ContainsAny(screen, "‹›") {
		t.Errorf("an option of a running game offers ‹ › to change it:\n%s", screen)
	}
	if !strings.Contains(screen, "Options (locked until the game ends)") {
		t.Errorf("the options of a running game do not say they are locked:\n%s", screen)
	}
	if strings.Contains(screen, "←→") {
		t.Errorf("the footer offers ←→ while the options are locked:\n%s", screen)
	}
	before := h.m.table.u.Table.Options
	h.press("right")
	if flat := h.flat(); strings.Contains(flat, "Not while") || strings.Contains(flat, "✗") {
		t.Errorf("→ on a locked option was refused after the fact:\n%s", h.screen())
	}
	for k, v := range before {
		if h.m.table.u.Table.Options[k] != v {
			t.Errorf("→ changed %s while the game runs", k)
		}
	}

	h.closeTable()
	h.m.enter(h.l.Create(h.m.o.Player, "topfive", nil, true))
	h.pump(func() bool { return len(h.m.table.u.Table.Seats) == 1 })
	h.press("tab")
	if screen := h.screen(); !strings.Contains(screen, "‹ ") || !strings.Contains(screen, " ›") || strings.Contains(screen, "locked") {
		t.Errorf("the picked option of a waiting table has no ‹ ›, or it says the options are locked:\n%s", screen)
	}
}
