package session

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parlor/assets"
	"parlor/lobby"
	"parlor/rules"
	"parlor/rules/topfive"
)

// At 80×24 the lobby, new-table and table screens show every key of their footers
// (on two lines where one would cut them), and each screen is still exactly 24 rows.
func TestFootersAt80ColumnsShowEveryKey(t *testing.T) {
	l, ctx := newLobbyConfig(t, lobby.Config{Content: assets.Load}) // Top Five needs its topics
	m := New(ctx, Options{Lobby: l, Player: annP})
	host, err := l.Create(annP, topfive.ID, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	watcher, err := l.Watch(benP, host.Code())
	if err != nil {
		t.Fatal(err)
	}
	var last *tableScreen // the last room drawn
	room := func(p lobby.Place, playing bool) []string {
		ts := newTableScreen(p)
		ts.apply(nextUpdate(t, p, func(u lobby.Update) bool {
			return len(u.Table.Seats) >= 1 && (!playing || u.View != nil)
		}))
		ts.room = true
		last = &ts
		return ts.render(m, 80, 24)
	}
	var lob lobbyScreen
	create := newCreateScreen(func(id string) []rules.Option { return l.TableOptions(annP, id) })
	screens := map[string][]string{
		"lobby":         lob.render(m, 80, 24),
		"new table":     create.render(m, 80, 24),
		"host, waiting": room(host, false),
	}
	// With the rules in focus ↑↓ scroll them: the footer says so, and not "↑↓ seat", and
	// the rules' heading is not cut.
	hostRoom := last
	hostRoom.panel = panelRules
	rulesFocused := hostRoom.render(m, 80, 24)
	screens["spectator"] = room(watcher, false)
	screens["host, waiting, rules in focus"] = rulesFocused
	foot := ansi.Strip(strings.Join(rulesFocused[len(rulesFocused)-2:], "\n"))
	if !strings.Contains(foot, "↑↓ pgup pgdn scroll") || strings.Contains(foot, "↑↓ seat") {
		t.Errorf("the footer with the rules in focus does not say how to scroll them:\n%s", foot)
	}
	// With the options in focus ↑↓ pick one and ←→ change it.
	hostRoom.panel = panelOptions
	optionsFocused := hostRoom.render(m, 80, 24)
	screens["host, waiting, options in focus"] = optionsFocused
	foot = ansi.Strip(strings.Join(optionsFocused[len(optionsFocused)-2:], "\n"))
	if !strings.Contains(foot, "↑↓ option") || !strings.Contains(foot, "←→ change") || strings.Contains(foot, "↑↓ seat") {
		t.Errorf("the footer with the options in focus does not say how to pick and change one:\n%s", foot)
	}
	for _, r := range rulesFocused {
		if line := ansi.Strip(r); strings.Contains(line, "Rules ·") && strings.Contains(line, "…") {
			t.Errorf("the rules' heading is cut: %q", line)
		}
	}
	for _, op := range []lobby.Op[lobby.Done]{lobby.AddBot{}, lobby.AddBot{}, lobby.Start{}} {
		if err := lobby.Run(host, op); err != nil {
			t.Fatal(err)
		}
	}
	screens["host, playing"] = room(host, true)
	for name, rows := range screens {
		if len(rows) != 24 {
			t.Errorf("%s: %d rows, want 24", name, len(rows))
		}
		for _, r := range rows[len(rows)-2:] {
			if line := ansi.Strip(r); strings.Contains(line, "…") || ansi.StringWidth(r) != 80 {
				t.Errorf("%s: a footer line cut or not 80 wide: %q\n%s", name, line, ansi.Strip(strings.Join(rows, "\n")))
			}
		}
	}
}
