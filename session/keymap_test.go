package session

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlor/lobby"
	"parlor/rules"
	qd "parlor/rules/quadrant"
	"parlor/session/gameui"
)

// bindingsOf are the key bindings of a keymap (a struct of them), by field name: the
// keys a part of the table screen handles, for it matches keys with them alone.
func bindingsOf(keymap any) map[string]key.Binding {
	v := reflect.ValueOf(keymap)
	out := map[string]key.Binding{}
	for i := range v.NumField() {
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			out[v.Type().Field(i).Name] = b
		}
	}
	return out
}

// entry is a binding as a footer shows it.
func entry(b key.Binding) string { return b.Help().Key + " " + b.Help().Desc }

// inHelp says whether the help's key lines list b, as keyLines draws it.
func inHelp(help string, b key.Binding) bool {
	re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(b.Help().Key) + ` +` + regexp.QuoteMeta(b.Help().Desc) + `\s*$`)
	return re.MatchString(help)
}

// sharedKeys fails for a key two enabled bindings of a keymap share: one of them would
// never have it, though shown.
func sharedKeys(t *testing.T, where string, keymap map[string]key.Binding) {
	t.Helper()
	owner := map[string]string{}
	for name, b := range keymap {
		if !b.Enabled() {
			continue
		}
		for _, k := range b.Keys() {
			if other, ok := owner[k]; ok {
				t.Errorf("%s: %s and %s are both enabled and share %q", where, other, name, k)
			}
			owner[k] = name
		}
	}
}

// TestTheRoomShowsEveryKeyItHandles: in every state of a table's room, each key of the
// room's keymap that is enabled (and so works: the room matches keys with the keymap
// alone) is shown by the footer, the seats panel's heading or the help, none of them
// shares a key with another, and everything the footer, the heading and the help list
// is an enabled key of the keymap (or the help's own key): no key is shown that does
// not work, nor works unshown.
func TestTheRoomShowsEveryKeyItHandles(t *testing.T) {
	choices := []rules.Option{{Key: lobby.OptDeck, Name: "Deck"}, {Key: "rounds", Name: "Rounds"}}
	for _, host := range []bool{false, true} {
		for _, seat := range []int{0, rules.Spectator} {
			for _, guest := range []bool{false, true} {
				for _, state := range []string{lobby.StateWaiting, lobby.StatePlaying} {
					for _, played := range []bool{false, true} {
						for _, opts := range [][]rules.Option{nil, choices} {
							for _, cut := range []bool{false, true} {
								for panel := range panels {
									ts := tableScreen{panel: panel, seatsCut: cut, u: lobby.Update{Host: host, Seat: seat,
										Table: lobby.TableInfo{State: state, Choices: opts, Seats: []lobby.SeatInfo{{Name: "Zed", Guest: guest}, {Name: "Amy"}}}}}
									if played {
										ts.u.View = rules.View(struct{ rules.Header }{})
									}
									where := fmt.Sprintf("host %v, seat %d, guest %v, %s, a game before %v, options %v, seats cut %v, panel %d",
										host, seat, guest, state, played, opts != nil, cut, panel)
									checkRoomKeys(t, where, &ts)
								}
							}
						}
					}
				}
			}
		}
	}
}

func checkRoomKeys(t *testing.T, where string, ts *tableScreen) {
	t.Helper()
	keymap := bindingsOf(ts.roomKeymap())
	sharedKeys(t, where, keymap)
	lines, seatKeysIn := ts.roomFooter(80)
	listed := ts.roomFooterKeys(nil)
	if seatKeysIn {
		listed = ts.roomFooterKeys(ts.seatKeys())
	} else {
		lines = append(lines, footerLines(34-2, ts.seatKeys()...)...) // under the seats' heading
		listed = append(listed, ts.seatKeys()...)
	}
	shown := ansi.Strip(strings.Join(lines, " · "))
	help := ansi.Strip(strings.Join(keyLines(ts.roomKeys()), "\n"))
	listed = append(listed, ts.roomKeys()...)
	for name, b := range keymap {
		if b.Enabled() && !strings.Contains(shown, entry(b)) && !inHelp(help, b) {
			t.Errorf("%s: %s (%q) works, but neither the footer nor the help shows it:\n%s\n%s", where, name, entry(b), shown, help)
		}
	}
	for _, b := range listed {
		if b.Help() == helpKey.Help() {
			continue
		}
		found := false
		for _, k := range keymap {
			found = found || k.Enabled() && k.Help() == b.Help() && slices.Equal(k.Keys(), b.Keys())
		}
		if !found {
			t.Errorf("%s: %q is shown, but no enabled key of the room's keymap is it", where, entry(b))
		}
	}
}

// typist is a game screen whose text box has focus, or not.
type typist struct{ typing bool }

func (typist) SetView(rules.View)            {}
func (typist) Update(tea.Msg) (any, tea.Cmd) { return nil, nil }
func (typist) Render(gameui.Frame) string    { return "" }
func (typist) Keys() []gameui.Key            { return []gameui.Key{{Keys: "enter", Help: "send"}} }
func (s typist) Typing() bool                { return s.typing }

// TestTheGameScreenShowsEveryTableKeyItHandles: the keys the table adds to a game screen
// (its chrome's keymap) are in its footer and the help exactly while they work, which is
// while the game's text box does not have the keys; the chat box's keys are in its footer.
func TestTheGameScreenShowsEveryTableKeyItHandles(t *testing.T) {
	l, ctx := newLobbyT(t, nil)
	m := New(ctx, Options{Lobby: l, Player: annP})
	for _, typing := range []bool{false, true} {
		ts := tableScreen{game: typist{typing}, u: lobby.Update{View: rules.View(struct{ rules.Header }{}),
			Table: lobby.TableInfo{State: lobby.StatePlaying, Seats: []lobby.SeatInfo{{Name: "Ann"}}}}}
		rows := ts.render(m, 80, 24)
		foot := ansi.Strip(strings.Join(rows[len(rows)-2:], " · "))
		help := ansi.Strip(strings.Join(keyLines(ts.gameChromeKeys()), "\n"))
		keymap := bindingsOf(ts.chromeKeymap())
		sharedKeys(t, fmt.Sprintf("typing %v", typing), keymap)
		for name, b := range keymap {
			if shown := strings.Contains(foot, entry(b)); shown != b.Enabled() {
				t.Errorf("typing %v: %s (%q) enabled %v, in the footer %v:\n%s", typing, name, entry(b), b.Enabled(), shown, foot)
			}
			if listed := strings.Contains(help, b.Help().Key+" "); listed != b.Enabled() {
				t.Errorf("typing %v: %s (%q) enabled %v, in the help %v:\n%s", typing, name, entry(b), b.Enabled(), listed, help)
			}
		}
		if n := len(ts.gameChromeKeys()); n != 0 && n != len(keymap) {
			t.Errorf("typing %v: the help lists %d of the chrome's %d keys", typing, n, len(keymap))
		}
	}
	ts := tableScreen{chatting: true}
	lines, _ := ts.roomFooter(80)
	foot := ansi.Strip(strings.Join(lines, " "))
	for name, b := range bindingsOf(chatBoxKeys) {
		if !strings.Contains(foot, entry(b)) {
			t.Errorf("the chat box's %s (%q) is not in its footer: %s", name, entry(b), foot)
		}
	}
}

// TestEverySeatComesIntoViewForEveryone: at a full table whose seats the room has no
// room for, a player who is not the host is offered ↑↓ (the host's ↑↓ pick a seat) and
// they bring every seat into view; where every seat fits, ↑↓ are not offered.
func TestEverySeatComesIntoViewForEveryone(t *testing.T) {
	h := newHarness(t, "Zed", 80, 24)
	host, err := h.l.Create(annP, "quadrant", rules.Options{qd.OptMode: qd.ModeTeam}, false)
	if err != nil {
		t.Fatal(err)
	}
	for range qd.TeamMax - 2 {
		if err := lobby.Run(host, lobby.AddBot{}); err != nil {
			t.Fatal(err)
		}
	}
	h.m.enter(h.l.Join(h.m.o.Player, host.Code()))
	h.pump(func() bool { return len(h.m.table.u.Table.Seats) == qd.TeamMax })
	if strings.Contains(h.flat(), "more seats") {
		t.Fatalf("↑↓ are offered where every seat fits:\n%s", h.screen())
	}
	// A notice on three lines leaves the seats short of lines.
	notice := func() {
		h.m.setStatus(strings.Repeat("a notice long enough to need three lines at eighty columns ", 3), false)
	}
	notice()
	if !strings.Contains(h.flat(), "↑↓ more seats") || !strings.Contains(h.screen(), "more") {
		t.Fatalf("↑↓ are not offered where the seats do not fit:\n%s", h.screen())
	}
	names := h.names()
	seen := map[int]bool{}
	for range names {
		for i, n := range names {
			if strings.Contains(h.screen(), fmt.Sprintf("%d %s ", i+1, n)) {
				seen[i] = true
			}
		}
		h.press("down")
		notice()
		h.checkFrame("moving down the seats")
	}
	if len(seen) != len(names) {
		t.Fatalf("only %d of %d seats came into view: %v\n%s", len(seen), len(names), seen, h.screen())
	}
}
