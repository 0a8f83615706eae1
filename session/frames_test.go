package session

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"parlor/lobby"
	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui/gameuitest"
)

// Every seat's frame after a table update is exactly the frame a session draws afresh:
// sharing the table state's drawings (lobby.Shared) and keeping what did not change
// since the seat's last frame (the title, the prompt, the feed) change no byte, in
// colour, in 256 colours (the lines recoloured once for the table state) and without
// colour, while tokens move and lock, the clock runs, chat arrives, a notice covers the
// prompt and a seat types a message.
func TestSeatFramesAreTheFramesDrawnAfresh(t *testing.T) {
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.Ascii} {
		t.Run(p.String(), func(t *testing.T) {
			q := newQuadrantTable(t, p)
			fresh := newQuadrantTable(t, p) // the same seats, drawing every frame from nothing
			var chat []lobby.ChatLine
			recoloredOnce := 0 // lines a seat took recoloured from another (lobby.Shared)
			say := func(seat int, text string) {
				chat = append(chat, lobby.ChatLine{ID: len(chat) + 1, At: q.now, From: q.info.Seats[seat].Name, Seat: seat, Text: text})
			}
			step := func(what string) []string {
				t.Helper()
				q.chat, fresh.chat = chat, chat
				got := q.fanOut()
				for _, m := range q.models[1:] {
					for i, l := range m.lines {
						if i < len(q.models[0].lines) && l != m.drawn[i] && unsafe.StringData(l) == unsafe.StringData(q.models[0].lines[i]) {
							recoloredOnce++
						}
					}
				}
				for seat, m := range fresh.models {
					fresh.deliver(seat, nil)
					m.forget()
					m.dirty = true
					if want := m.View().Content; got[seat] != want {
						t.Fatalf("%s, seat %d: the frame differs from one drawn afresh:\n%q\n---\n%q", what, seat, got[seat], want)
					}
				}
				return got
			}
			step("the first view")
			for i := range 6 {
				q.move(t, i-3)
				fresh.move(t, i-3)
				step("a move")
			}
			say(2, "I think it is further left than that, honestly")
			step("a chat line")
			q.models[3].setStatus("A notice for seat 3", false)
			fresh.models[3].setStatus("A notice for seat 3", false)
			step("a notice")
			for _, tb := range []*quadrantTable{q, fresh} {
				for _, k := range []string{"/", "h", "i"} {
					tb.models[5].Update(gameuitest.Key(k))
				}
			}
			say(1, "and a line while seat 5 types")
			if got := step("seat 5 typing a message"); !strings.Contains(ansi.Strip(got[5]), "say: hi") {
				t.Fatalf("seat 5 shows no message box:\n%s", ansi.Strip(got[5]))
			}
			for _, tb := range []*quadrantTable{q, fresh} {
				tb.models[5].Update(gameuitest.Key("esc"))
			}
			step("seat 5 back from the message box")
			for _, tb := range []*quadrantTable{q, fresh} {
				tb.clock.Advance(2 * time.Second)
			}
			step("the clock ran")
			for seat := 1; seat < 7; seat++ {
				for _, tb := range []*quadrantTable{q, fresh} {
					if err := tb.g.Apply(seat, rules.Encode(qd.Lock{Type: qd.TypeLock}), tb.now); err != nil {
						t.Fatal(err)
					}
				}
				say(seat, "locked")
				step("a lock")
			}
			if p == colorprofile.ANSI256 && recoloredOnce == 0 {
				t.Error("every seat recoloured every line itself: no line was recoloured once for the table state")
			}
		})
	}
}
