package session

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Console runs the operators' commands (the words of "ssh host admin …") for an admin's
// session, answering one line per result; the server gives it to its admins' sessions,
// so the screen and the console cannot drift.
type Console interface {
	Admin(ctx context.Context, args []string) ([]string, error)
}

// adminViews are the admin screen's lists, each the console command that lists it.
var adminViews = []string{"players", "tables", "reports", "bans", "mutes", "audit"}

var adminKeys = struct {
	Open, Next, Up, Down, Lift, Ban, Command, Refresh, Back key.Binding
}{
	Open:    bind("A", "admin", "A"),
	Next:    bind("tab", "next list", "tab", "right", "l"),
	Up:      bind("↑↓", "select", "up", "k"),
	Down:    bind("↓", "down", "down", "j"),
	Lift:    bind("u", "unban/unmute", "u"),
	Ban:     bind("b", "ban key", "b"),
	Command: bind(":", "command", ":"),
	Refresh: bind("R", "refresh", "R"),
	Back:    bind("esc", "lobby", "esc"),
}

// adminScreen lists the players online, the open tables, the reports, the bans, the
// mutes and the audit log, and runs any console command typed at its prompt.
type adminScreen struct {
	view   int
	lines  []string
	err    string
	sel    int
	prompt *lineInput // nil unless typing a command
}

// run runs one console command for the screen.
func (s *adminScreen) run(m *Model, args []string) ([]string, error) {
	ctx, cancel := context.WithTimeout(m.ctx, 10*time.Second)
	defer cancel()
	return m.o.Console.Admin(ctx, args)
}

// load reads the current list again.
func (s *adminScreen) load(m *Model) {
	lines, err := s.run(m, []string{adminViews[s.view]})
	s.lines, s.err = lines, ""
	if err != nil {
		s.err = err.Error()
	}
	s.sel = min(s.sel, max(0, len(s.lines)-1))
}

// isAdmin says whether the player may open the admin screen.
func (m *Model) isAdmin() bool { return m.o.Console != nil && m.o.Player.Admin }

// openAdmin shows the admin screen (admins only).
func (m *Model) openAdmin() {
	if !m.isAdmin() {
		return
	}
	m.admin = &adminScreen{}
	m.admin.load(m)
	m.screen = screenAdmin
}

// field is the selected line's first field (a ban's ID, a player's key, a mute's key).
func (s *adminScreen) field(i int) string {
	if s.sel >= len(s.lines) {
		return ""
	}
	f := strings.Split(s.lines[s.sel], "\t")
	if i >= len(f) {
		return ""
	}
	return f[i]
}

func (s *adminScreen) key(m *Model, k tea.KeyPressMsg) tea.Cmd {
	if s.prompt != nil {
		switch k.String() {
		case "esc":
			s.prompt = nil
		case "enter":
			words := strings.Fields(s.prompt.value())
			s.prompt = nil
			s.command(m, words)
		default:
			s.prompt.update(k)
		}
		return nil
	}
	a := adminKeys
	switch {
	case keyMatches(k, a.Back):
		m.admin = nil
		m.toLobby()
	case keyMatches(k, a.Next):
		s.view, s.sel = (s.view+1)%len(adminViews), 0
		s.load(m)
	case k.String() == "shift+tab" || k.String() == "left" || k.String() == "h":
		s.view, s.sel = (s.view+len(adminViews)-1)%len(adminViews), 0
		s.load(m)
	case keyMatches(k, a.Up):
		s.sel = max(0, s.sel-1)
	case keyMatches(k, a.Down):
		s.sel = min(max(0, len(s.lines)-1), s.sel+1)
	case keyMatches(k, a.Refresh):
		s.load(m)
	case keyMatches(k, a.Command):
		s.prompt = newLineInput(300)
	case keyMatches(k, a.Lift):
		switch adminViews[s.view] {
		case "bans":
			if id := s.field(0); id != "" {
				s.command(m, []string{"unban", id})
			}
		case "mutes":
			if fp := s.field(0); fp != "" {
				s.command(m, []string{"unmute", fp})
			}
		}
	case keyMatches(k, a.Ban):
		// Ban the selected player's key: the prompt, filled in, waits for the reason.
		if adminViews[s.view] == "players" && strings.HasPrefix(s.field(1), "SHA256:") {
			s.prompt = newLineInput(300)
			s.prompt.set("ban key " + s.field(1) + " for 1d ")
		}
	}
	return nil
}

// command runs a typed (or chosen) command, shows its first line or its refusal, and
// reads the list again.
func (s *adminScreen) command(m *Model, words []string) {
	if len(words) == 0 {
		return
	}
	out, err := s.run(m, words)
	switch {
	case err != nil:
		m.setStatus(err.Error(), true)
	case len(out) > 0:
		m.setStatus(strings.ReplaceAll(out[0], "\t", "  "), false)
	default:
		m.setStatus("Done: nothing to list.", false)
	}
	s.load(m)
}

func (s *adminScreen) render(m *Model, w, h int) []string {
	out := []string{m.title(w, "parlor · admin", fmt.Sprintf("you are %s", m.o.Player.Name))}
	var tabs []string
	for i, v := range adminViews {
		if i == s.view {
			tabs = append(tabs, headStyle.Paint("["+v+"]"))
		} else {
			tabs = append(tabs, dimStyle.Paint(" "+v+" "))
		}
	}
	out = append(out, fit("  "+strings.Join(tabs, " "), w), "")
	a := adminKeys
	keys := []key.Binding{a.Next, a.Up, a.Command, a.Refresh, a.Back}
	switch adminViews[s.view] {
	case "bans", "mutes":
		keys = append(keys, a.Lift)
	case "players":
		keys = append(keys, a.Ban)
	}
	if s.prompt != nil {
		keys = []key.Binding{bind("enter", "run", "enter"), bind("esc", "cancel", "esc")}
	}
	foot := footerLines(w, keys...)
	status := m.statusLines(w, statusMax, "")
	avail := h - len(out) - 1 - len(status) - len(foot)
	var body []string
	switch {
	case s.err != "":
		body = append(body, errStyle.Paint("  "+s.err))
	case len(s.lines) == 0:
		body = append(body, dimStyle.Paint("  Nothing to list."))
	default:
		first := max(0, s.sel-avail+1)
		for i := first; i < len(s.lines) && i < first+avail; i++ {
			mark := "  "
			if i == s.sel {
				mark = "› "
			}
			line := fit(mark+strings.ReplaceAll(s.lines[i], "\t", "  "), w)
			if i == s.sel {
				line = headStyle.Paint(line)
			}
			body = append(body, line)
		}
	}
	out = append(out, blockOf(body, w, avail)...)
	if s.prompt != nil {
		out = append(out, fit("  admin "+boxed(s.prompt.view(w-12, m.plain), w-12), w))
	} else {
		out = append(out, fit(dimStyle.Paint("  : runs any console command (help lists them)"), w))
	}
	out = append(out, status...)
	return append(out, foot...)
}
