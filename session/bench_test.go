package session

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parlor/assets"
	"parlor/internal/testkit/testclock"
	"parlor/lobby"
	"parlor/rules"
	qd "parlor/rules/quadrant"
)

// quadrantTable is seven sessions seated at one started Quadrant table, fed the table's
// updates directly (no actor, no mailboxes): what a session does with an update, alone.
type quadrantTable struct {
	g      *qd.Game
	now    time.Time
	clock  *testclock.Clock // the sessions' lobby's
	info   lobby.TableInfo
	chat   []lobby.ChatLine
	models []*Model
}

func newQuadrantTable(tb testing.TB, p colorprofile.Profile) *quadrantTable {
	tb.Helper()
	names := []string{"Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus"}
	opts, err := qd.Spec.CheckOptions(rules.Options{qd.OptMode: qd.ModeCompetitive})
	if err != nil {
		tb.Fatal(err)
	}
	content, err := assets.Load(qd.Spec.Content)
	if err != nil {
		tb.Fatal(err)
	}
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	g, err := qd.New(rules.Setup{Names: names, Seed: 1, Options: opts, Content: content, Now: now})
	if err != nil {
		tb.Fatal(err)
	}
	info := lobby.TableInfo{Code: "QUAD", Game: qd.ID, GameName: qd.Spec.Name, State: lobby.StatePlaying,
		Options: opts, MinPlayers: 4, MaxPlayers: 7}
	for i, n := range names {
		info.Seats = append(info.Seats, lobby.SeatInfo{Name: n, Host: i == 0})
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := testclock.New(now)
	l := lobby.New(ctx, lobby.Config{Content: assets.Load, Clock: c})
	tb.Cleanup(func() {
		cancel()
		_ = l.Shutdown(context.Background())
	})
	t := &quadrantTable{g: g, now: now, clock: c, info: info}
	for _, n := range names {
		m := New(ctx, Options{Lobby: l, Player: lobby.Player{ID: "SHA256:" + n, Name: n}, Now: c.Now})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		m.Update(tea.ColorProfileMsg{Profile: p})
		m.screen = screenTable
		m.table = newTableScreen(nil)
		t.models = append(t.models, m)
	}
	t.fanOut()
	return t
}

// fanOut gives every session its update of the game's state, as one fan-out of the
// table does (one lobby.Shared for all of them), and draws every session's frame.
func (t *quadrantTable) fanOut() []string {
	shared := &lobby.Shared{}
	frames := make([]string, len(t.models))
	for seat, m := range t.models {
		t.deliver(seat, shared)
		frames[seat] = m.View().Content
	}
	return frames
}

// deliver gives seat its update of the game's state, with shared as the table state's
// lobby.Shared (nil: none).
func (t *quadrantTable) deliver(seat int, shared *lobby.Shared) {
	t.models[seat].Update(updateMsg{u: lobby.Update{Table: t.info, Seat: seat, Host: seat == 0, View: t.g.View(seat), Chat: t.chat, Shared: shared}})
}

// move moves seat 0's token to x.
func (t *quadrantTable) move(tb testing.TB, x int) {
	if err := t.g.Apply(0, rules.Encode(qd.Move{Type: qd.TypeMove, X: x, Y: 0}), t.now); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkMoveToSevenScreens is a whole table's share of one token move in the
// sessions: the move is applied, and each of the seven seated sessions at 80×24 takes
// its update and draws its whole frame (title, prompt, game area, feed, footer), all
// from one table state. BenchmarkMoveToSevenFrames (session/quadrant) is the game area
// alone.
func BenchmarkMoveToSevenScreens(b *testing.B) {
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256} {
		b.Run(p.String(), func(b *testing.B) {
			t := newQuadrantTable(b, p)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				t.move(b, i%41-20)
				t.fanOut()
			}
		})
	}
}

// BenchmarkLoginFirstScreen is a session's share of a login: the model is made and its
// first screen drawn at 80×24 (the name screen, or the lobby for a player whose name is
// remembered), each on a goroutine of its own as every connection's session is, so the
// cost of growing that goroutine's stack is counted too.
func BenchmarkLoginFirstScreen(b *testing.B) {
	for _, first := range []string{"name", "lobby"} {
		b.Run(first, func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			c := testclock.New(time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC))
			l := lobby.New(ctx, lobby.Config{Content: assets.Load, Clock: c})
			b.Cleanup(func() {
				cancel()
				_ = l.Shutdown(context.Background())
			})
			o := Options{Lobby: l, Player: lobby.Player{ID: "SHA256:x", Name: "Ann"}, Now: c.Now, AskName: first == "name"}
			b.ReportAllocs()
			done := make(chan string)
			for b.Loop() {
				go func() {
					m := New(ctx, o)
					m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
					done <- m.View().Content
				}()
				if frame := <-done; frame == "" {
					b.Fatal("no first screen")
				}
			}
		})
	}
}
