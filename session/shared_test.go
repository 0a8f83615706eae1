package session

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlor/lobby"
	"parlor/session/gameui"
)

// countedScreen counts the drawings of a public screen.
type countedScreen struct {
	gameui.Screen
	renders *int
}

func (c countedScreen) Public() bool { return true }
func (c countedScreen) Render(f gameui.Frame) string {
	*c.renders++
	return c.Screen.Render(f)
}

// Spectators of one table state share one drawing of the game area: the first draws
// it, the others show the same without drawing.
func TestSpectatorsShareOneDrawingPerTableState(t *testing.T) {
	h := newHarness(t, "Ann", 80, 24)
	h.sitAt("quadrant", nil, 4)
	code := h.m.table.member.Code()

	watch := func(name string) *Model {
		m := New(h.ctx, Options{Lobby: h.l, Player: lobby.Player{ID: "SHA256:" + name, Name: name}, Now: h.clock.Now})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		m.enter(h.l.Watch(m.o.Player, code))
		t.Cleanup(m.leaveTable)
		ctx, cancel := context.WithTimeout(h.ctx, 5*time.Second)
		defer cancel()
		for !m.table.showGame() {
			u, ok, reason := m.table.member.Next(ctx)
			if !ok {
				t.Fatalf("%s: %s", name, reason)
			}
			m.Update(updateMsg{m.table.member, u})
		}
		return m
	}
	bo, cy := watch("Bo"), watch("Cy")
	cy.Update(updateMsg{cy.table.member, bo.table.u}) // the same table state for both
	renders := 0
	bo.table.game = countedScreen{bo.table.game, &renders}
	cy.table.game = countedScreen{cy.table.game, &renders}
	a, b := bo.View().Content, cy.View().Content
	if renders != 1 {
		t.Fatalf("two spectators drew the game area %d times for one table state, want once", renders)
	}
	if a != b {
		t.Fatalf("the two spectators see different screens:\n%s\n---\n%s", a, b)
	}
}

// memoSpy notes the memo a game screen is drawn with.
type memoSpy struct {
	gameui.Screen
	got *[]gameui.Memo
}

func (s memoSpy) Render(f gameui.Frame) string {
	*s.got = append(*s.got, f.Memo)
	return s.Screen.Render(f)
}

// A seat's game screen draws with its update's lobby.Shared, so that what it draws
// alike with the other seats (Quadrant's plane) is drawn once per table state.
func TestSeatsDrawWithTheTableStatesMemo(t *testing.T) {
	h := newHarness(t, "Ann", 80, 24)
	h.sitAt("quadrant", nil, 4)
	if h.m.table.u.Shared == nil {
		t.Fatal("the table's update carries no lobby.Shared")
	}
	var got []gameui.Memo
	h.m.table.game = memoSpy{h.m.table.game, &got}
	h.m.dirty = true
	h.m.View()
	if len(got) != 1 || got[0] != gameui.Memo(h.m.table.u.Shared) {
		t.Fatalf("the seat's screen was drawn with memos %v, want once with its update's %p", got, h.m.table.u.Shared)
	}
}
