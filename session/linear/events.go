package linear

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"parlor/lobby"
	"parlor/rules"
	"parlor/session/gameui"
)

// chatBurst is how many chat lines of one update are said one by one; more are
// summarised in one line, to be heard with the chat command.
const chatBurst = 3

// update says what changed at the table in one sentence per event, then the question
// if it changed.
func (d *Door) update(u lobby.Update) {
	prev := d.last
	d.last, d.sent = &u, false
	var lines []string
	if prev == nil {
		lines = append(lines, d.seatsNow(u)...)
	} else {
		lines = append(lines, optionEvents(prev.Table, u.Table)...)
		if prev.Host != u.Host && u.Host {
			lines = append(lines, "You are the host now.")
		}
	}
	started := u.View != nil && (prev == nil || prev.View == nil || prev.Table.State != lobby.StatePlaying) && u.Table.State == lobby.StatePlaying
	if started {
		d.speaker = nil
		if f, ok := gameui.LookupSpeaker(u.Table.Game); ok {
			d.speaker = f(u.Seat)
		}
		if d.speaker == nil {
			lines = append(lines, fmt.Sprintf("%s cannot be played in the linear mode yet: you can follow it and chat.", u.Table.GameName))
		} else {
			lines = append(lines, fmt.Sprintf("%s: type b for the board, s for the scores, r for the question again.", u.Table.GameName))
		}
		if prev != nil && prev.View != nil {
			prev = &lobby.Update{Table: prev.Table} // a new game's log is all new
		}
	}
	if u.View != nil {
		if d.speaker != nil {
			d.speaker.SetView(u.View)
		}
		var old []string
		if prev != nil && prev.View != nil {
			old = prev.View.Head().Log
		}
		for _, l := range newLines(old, u.View.Head().Log) {
			lines = append(lines, sentence(l))
		}
		if n, ok := d.speaker.(gameui.Narrator); ok {
			lines = append(lines, n.Events()...)
		}
	}
	lines = append(lines, d.chatEvents(u.Chat)...)
	if prev != nil && prev.Table.State == lobby.StatePlaying && u.Table.State == lobby.StateFinished {
		lines = append(lines, d.scores()...) // after the table's "Game over" in its chat
	}
	if len(lines) > 0 {
		d.say(lines...)
	}
	d.prompt(d.again)
	d.again = false
	held := d.held
	d.held = nil
	for _, l := range held {
		d.line(l)
	}
}

// sentence ends a line the games log with a full stop, if it has none.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if last, _ := utf8.DecodeLastRuneInString(s); s == "" || strings.ContainsRune(".!?…:", last) {
		return s
	}
	return s + "."
}

// newLines is what of log follows old: the longest end of old that starts log is the
// part already said.
func newLines(old, log []string) []string {
	for k := min(len(old), len(log)); k > 0; k-- {
		if slices.Equal(old[len(old)-k:], log[:k]) {
			return log[k:]
		}
	}
	return log
}

// seatsNow says who is at the table, when the door first comes to it.
func (d *Door) seatsNow(u lobby.Update) []string {
	var names []string
	for i, s := range u.Table.Seats {
		names = append(names, seatWords(i, s))
	}
	if len(names) == 0 {
		return []string{"Nobody is seated."}
	}
	return []string{"Seated: " + rules.List(names) + "."}
}

func seatWords(i int, s lobby.SeatInfo) string {
	w := fmt.Sprintf("seat %d %s", i+1, s.Name)
	var marks []string
	if s.Bot {
		marks = append(marks, "a bot")
	}
	if s.Host {
		marks = append(marks, "host")
	}
	if s.Team != "" {
		marks = append(marks, "team "+s.Team)
	}
	if s.Away {
		marks = append(marks, "away")
	}
	if s.More > 1 {
		marks = append(marks, strconv.FormatFloat(float64(s.More), 'f', -1, 64)+" times the time")
	}
	if len(marks) > 0 {
		w += " (" + strings.Join(marks, ", ") + ")"
	}
	return w
}

// optionEvents says the options the host changed. Who sat down, left, went away or
// came back the table says itself, in its chat.
func optionEvents(a, b lobby.TableInfo) []string {
	var out []string
	for _, o := range b.Choices {
		if va, vb := a.Options[o.Key], b.Options[o.Key]; va != vb && va != "" {
			out = append(out, fmt.Sprintf("%s is now %s.", o.Name, vb))
		}
	}
	return out
}

// chatEvents says new chat lines; a burst says the first few and counts the rest.
func (d *Door) chatEvents(chat []lobby.ChatLine) []string {
	var fresh []lobby.ChatLine
	for _, c := range chat {
		if c.ID > d.lastChat {
			fresh = append(fresh, c)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	d.lastChat = fresh[len(fresh)-1].ID
	var out []string
	for i, c := range fresh {
		if i == chatBurst && len(fresh) > chatBurst+1 {
			out = append(out, fmt.Sprintf("%d more chat lines; type chat to hear the last ones.", len(fresh)-chatBurst))
			break
		}
		out = append(out, chatWords(c))
	}
	return out
}

func chatWords(c lobby.ChatLine) string {
	if c.Seat == -2 || c.From == "" {
		return sentence(c.Text)
	}
	return fmt.Sprintf("%s says: %s", c.From, c.Text)
}

// scores says each seat's score, highest first.
func (d *Door) scores() []string {
	if d.last == nil || d.last.View == nil {
		return []string{"No game has started at this table."}
	}
	h := d.last.View.Head()
	names := d.gameNames()
	type row struct {
		name  string
		score int
	}
	var rows []row
	for i, sc := range h.Scores {
		name := fmt.Sprintf("Seat %d", i+1)
		if i < len(names) {
			name = names[i]
		}
		rows = append(rows, row{name, sc})
	}
	slices.SortStableFunc(rows, func(a, b row) int { return b.score - a.score })
	var parts []string
	for _, r := range rows {
		parts = append(parts, fmt.Sprintf("%s %d", r.name, r.score))
	}
	head := "Scores"
	if h.Round > 0 {
		head = fmt.Sprintf("Scores in round %d", h.Round)
		if h.Rounds > 0 {
			head += fmt.Sprintf(" of %d", h.Rounds)
		}
		if h.Over {
			head = "Final scores"
		}
	}
	return []string{head + ": " + strings.Join(parts, ", ") + "."}
}

// gameNames is the name of each of the game's seats (the table's seats, by GameSeats).
func (d *Door) gameNames() []string {
	t := d.last.Table
	n := len(d.last.View.Head().Scores)
	names := make([]string, n)
	for i, s := range t.Seats {
		g := i
		if len(t.GameSeats) > 0 {
			if i >= len(t.GameSeats) {
				continue
			}
			g = t.GameSeats[i]
		}
		if g >= 0 && g < n {
			names[g] = s.Name
		}
	}
	return names
}
