package session

import (
	"parlor/rules"
)

func (m *Model) renderHelp(w, h int) []string {
	out := []string{m.title(w, "parlor · help", "press ? or esc to close")}
	var body []string
	add := func(title string, keys ...[2]string) {
		body = append(body, "", headStyle.Render(title))
		for _, k := range keys {
			body = append(body, "  "+keyStyle.Render(fit(k[0], 12))+" "+k[1])
		}
	}
	switch m.screen {
	case screenLobby, screenName:
		add("Lobby", [2]string{"↑ ↓", "select a table"}, [2]string{"enter", "join the selected table (watch it if it is playing)"},
			[2]string{"w", "watch the selected table"}, [2]string{"tab", "join a table by its four-letter code"},
			[2]string{"c", "create a table"}, [2]string{"r", "go back to a table where you have a seat"},
			[2]string{"N", "change your name"}, [2]string{"q", "quit"})
		body = append(body, "", "From your shell: ssh -t <host> join ABCD  or  ssh -t <host> watch ABCD")
	case screenCreate:
		add("New table", [2]string{"↑ ↓", "choose a row"}, [2]string{"← →", "change the game or an option"},
			[2]string{"enter", "create the table"}, [2]string{"esc", "back to the lobby"})
	case screenTable:
		t := &m.table
		if t.showGame() {
			var keys [][2]string
			for _, k := range t.game.Keys() {
				keys = append(keys, [2]string{k.Keys, k.Help})
			}
			add("This game", keys...)
			add("Table", [2]string{"/", "chat"}, [2]string{"esc", "the table: seats, chat, host controls"}, [2]string{"q", "leave (asks first)"})
		} else {
			add("Table", append([][2]string{{"enter", "chat"}, {"pgup pgdn", "scroll the chat"}}, t.roomKeys()...)...)
		}
		if spec, ok := rules.Lookup(t.u.Table.Game); ok {
			body = append(body, "", headStyle.Render("How to play "+spec.Name))
			body = append(body, wrap(spec.HowToPlay, w-4)...)
		}
	}
	body = append(body, "", dimStyle.Render("ctrl+c quits from anywhere (asks first during a game)."))
	lines := make([]string, len(body))
	for i, l := range body {
		lines[i] = " " + l
	}
	out = append(out, block(joinLines(lines), w, h-1)...)
	return out
}
