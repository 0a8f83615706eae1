package session

// The table's chat and events: the feed of a game screen (its last lines under or beside
// the game, the whole of it in the log), the room's chat, and the chat box.

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"parlor/lobby"
	"parlor/rules"
	"parlor/session/gameui"
)

// chatMax is the most characters a chat message has.
const chatMax = 200

// chatBox is the chat's text box, made when the player first chats.
func (t *tableScreen) chatBox() *lineInput {
	if t.chat == nil {
		t.chat = newLineInput(chatMax)
	}
	return t.chat
}

// feedMax is how many events and chat lines the game screen's log keeps.
const feedMax = 500

// addChat appends the table's chat and notices that are new since the last update.
func (t *tableScreen) addChat(chat []lobby.ChatLine) {
	for _, c := range chat {
		if c.ID > t.lastChat {
			t.lastChat = c.ID
			if c.Seat == -2 {
				t.feed = append(t.feed, "» "+c.Text)
			} else {
				t.feed = append(t.feed, speaker(c)+": "+c.Text)
			}
			t.feedSeq++
		}
	}
}

// newGameRule heads the lines of another game at the table in the log (apply).
const newGameRule = "── a new game ──"

// historyRule heads the game's earlier lines in a log that starts late (apply).
const historyRule = "── the game so far ──"

// addLog appends the lines of a game log that are new since the last view.
func (t *tableScreen) addLog(log []string) {
	k := 0
	for k = min(len(t.lastLog), len(log)); k > 0; k-- {
		if equal(t.lastLog[len(t.lastLog)-k:], log[:k]) {
			break
		}
	}
	t.feed = append(t.feed, log[k:]...)
	t.feedSeq += len(log) - k
	t.lastLog = append(t.lastLog[:0], log...)
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// chatBoxKeys are the chat box's keys while a message is typed: every other key types.
var chatBoxKeys = struct{ Send, Cancel key.Binding }{
	Send:   bind("enter", "send", "enter"),
	Cancel: bind("esc", "cancel", "esc"),
}

var (
	// chatTypingKeys are the footer while a chat message is typed.
	chatTypingKeys = []key.Binding{chatBoxKeys.Send, chatBoxKeys.Cancel, helpInTyped}
	// closeLog closes the log; the pager's keys scroll it (scrollKeys).
	closeLog = bind("esc", "close the log", "esc", "v", "q")
)

// chatKey handles a key while a chat message is typed.
func (t *tableScreen) chatKey(m *Model, k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, chatBoxKeys.Cancel):
		t.chatting, t.mod.typingFor = false, ""
	case key.Matches(k, chatBoxKeys.Send):
		if t.mod.typingFor != "" { // a report's reason or a name to unblock (moderation.go)
			t.sendTyped(m)
			return nil
		}
		if text := t.chatBox().value(); text != "" {
			if err := lobby.Run(t.member, lobby.Chat{Text: text}); err != nil {
				m.setStatus(err.Error(), true)
				return nil
			}
		}
		t.chatBox().reset()
		t.chatting = false
	default:
		box := t.chatBox()
		changed := box.update(k)
		full := !changed && k.Text != "" && rules.Width(box.value())+rules.Width(k.Text) > chatMax
		if box.cut || full { // a key that would pass the limit is not taken: say why
			m.setStatus(fmt.Sprintf("A message has at most %d characters: send it, or shorten it.", chatMax), true)
		}
	}
	return nil
}

// logKey handles a key while the log is open: it scrolls, or closes it.
func (t *tableScreen) logKey(k tea.KeyPressMsg) {
	if key.Matches(k, closeLog) {
		t.logOpen, t.log = false, nil
	} else {
		t.log.key(k)
	}
}

// roomChat is the key the room's chat lines at a width are shared under.
type roomChat struct{ width int }

// chatLinesWhileTyping is how many lines the conversation gets while a message is typed.
const chatLinesWhileTyping = 7

// feedEntry is one event or chat line wrapped to w columns, continuation indented, on
// at most n lines (0: all), the last one cut with "…" if there is more (v shows it whole).
func feedEntry(f string, w, n int) []string {
	lines := gameui.Wrap(f, w-3)
	if n > 0 && len(lines) > n {
		lines = wrapWithin(f, w-3, n)
	}
	out := make([]string, 0, len(lines))
	for i, l := range lines {
		if i == 0 {
			out = append(out, dimStyle.Paint(" "+l))
		} else {
			out = append(out, dimStyle.Paint("   "+l))
		}
	}
	return out
}

// feedLines is the whole feed of events and chat, each entry wrapped to w columns.
func (t *tableScreen) feedLines(w int) []string {
	var out []string
	for _, f := range t.feed {
		out = append(out, feedEntry(f, w, 0)...)
	}
	return out
}

// feedTail is the newest entries that fit in n lines, whole: an entry too long for
// the lines left is cut at its end with "…" (v shows it whole), never shown by its tail.
// The same feed at the same size is the same tail: it is drawn when one of them changed.
func (t *tableScreen) feedTail(w, n int) []string {
	return t.tailDrawn.get(tailKey{w, n, t.feedSeq}, func() []string { return t.drawFeedTail(w, n) })
}

// feedBlock is the feed's tail as n lines of the game screen, w wide. Callers must not
// change it: it is kept until the feed or the size changes.
func (t *tableScreen) feedBlock(w, n int) []string {
	return t.feedDrawn.get(tailKey{w, n, t.feedSeq}, func() []string { return blockOf(t.feedTail(w-1, n), w, n) })
}

// drawFeedTail is feedTail drawn afresh.
func (t *tableScreen) drawFeedTail(w, n int) []string {
	var lines []string
	for i := len(t.feed) - 1; i >= 0 && len(lines) < n; i-- {
		lines = append(feedEntry(t.feed[i], w, n-len(lines)), lines...)
	}
	for len(lines) < n {
		lines = append([]string{""}, lines...)
	}
	return lines
}

// renderLog shows every event and chat line of the game in a scrollable view.
func (t *tableScreen) renderLog(m *Model, w, h int) []string {
	out := []string{m.title(w, t.u.Table.GameName+" · table "+t.u.Table.Code+" · the whole log", "esc closes")}
	vp := t.log.scroller()
	atEnd := vp.AtBottom() || vp.TotalLineCount() == 0
	t.log.set(t.feedLines(w), w, h-3)
	if atEnd {
		vp.GotoBottom() // follow new events until the player scrolls up
	}
	out = append(out, t.log.view()...)
	out = append(out, fit(dimStyle.Paint(" "+t.log.position()), w))
	out = append(out, footerLine(w, append(scrollKeys(), closeLog)...))
	return out
}

// speaker names who said a chat line, a spectator marked as one wherever the line
// shows: anyone may watch under any name, so a spectator's line must not pass for a
// seated player's.
func speaker(c lobby.ChatLine) string {
	if c.Seat < 0 {
		return c.From + " (watching)"
	}
	return c.From
}

func (t *tableScreen) chatLines(w int) []string {
	var out []string
	for _, c := range t.u.Chat {
		stamp := dimStyle.Paint(c.At.Format("15:04") + " ")
		if c.Seat == -2 {
			for i, l := range gameui.Wrap("» "+c.Text, w-8) {
				if i == 0 {
					out = append(out, fit(stamp+dimStyle.Paint(l), w))
				} else {
					out = append(out, fit("      "+dimStyle.Paint(l), w))
				}
			}
			continue
		}
		name := speaker(c)
		if c.Seat >= 0 {
			name = gameui.SeatInk(c.Seat).Paint(name)
		} else {
			name = dimStyle.Paint(name)
		}
		// The text wraps under itself; a very long name gives way to the text.
		indent := min(rules.Width(name)+2, w/3)
		for i, l := range gameui.Wrap(c.Text, w-6-indent) {
			if i == 0 {
				out = append(out, fit(stamp+name+": "+l, w))
			} else {
				out = append(out, fit("      "+strings.Repeat(" ", indent)+l, w))
			}
		}
	}
	return out
}
