package linear

import (
	"fmt"
	"strconv"
	"strings"

	"parlor/lobby"
	"parlor/rules"
)

// help lists the commands. They are short words, so that they are quick to type on a
// braille keyboard; a number always answers the question.
var help = []string{
	"Commands: type a number to choose, or one of these words, then Enter.",
	"r: the question again, with the time left.",
	"b: the board, the cards or the question, as text.",
	"s: the scores.",
	"w: who is at the table.",
	"chat: the last chat lines. say, then words: say them to the table; a line starting with an apostrophe does too.",
	"log: what happened in this game so far.",
	"rules: the full rules of the game at your table.",
	"leave: leave the table. quit: leave parlor.",
	"Host only: kick, host, or stand-in, then a seat number: remove a player (a bot plays on), hand the host role over, let a bot play an away player's seat. close: end the table.",
	"ignore, then a seat number: hide that player's chat from you. report, a seat number, then why: tell the admins.",
	"time off: play at the table's own time limits; in this mode you get twice the time in every timed phase. time on: twice the time again.",
	"Host only: more, a seat number and 1.5, 2, 3 or 1: give that player more time (1: none).",
	"plain on: start in this mode whenever you connect with this key. plain off: start with the full screen again.",
}

// command runs line when it is a command; false when it is not one.
func (d *Door) command(line string) bool {
	if strings.HasPrefix(line, "'") {
		d.chat(strings.TrimSpace(line[1:]))
		return true
	}
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(word) {
	case "help", "?", "h":
		d.say(help...)
	case "r", "again":
		d.asked = ""
		d.prompt(true)
	case "b", "board":
		d.board()
	case "s", "scores":
		d.say(d.scores()...)
	case "w", "who":
		if d.last == nil {
			d.say("You are not at a table.")
			return true
		}
		d.say(d.seatsNow(*d.last)...)
	case "chat":
		d.chatLog()
	case "say":
		d.chat(rest)
	case "log":
		d.log()
	case "rules":
		if d.last == nil {
			d.say("You are not at a table: choose Read the rules of a game in the lobby.")
			return true
		}
		if spec, ok := rules.Lookup(d.last.Table.Game); ok {
			d.rules(spec)
		}
	case "leave":
		if d.place == nil {
			d.say("You are not at a table.")
			return true
		}
		d.leave(true)
		d.say("You left the table.")
		d.prompt(true)
	case "quit", "exit":
		d.quit = true
	case "kick", "host", "stand-in", "ignore", "block":
		d.seatOp(strings.ToLower(word), rest)
	case "report":
		seat, reason, _ := strings.Cut(rest, " ")
		d.seatOp("report "+strings.TrimSpace(reason), seat)
	case "close":
		d.run(func(p lobby.Place) error { return lobby.Run(p, lobby.CloseTable{}) })
	case "plain":
		d.remember(strings.ToLower(rest))
	case "time":
		d.moreTime(strings.ToLower(rest))
	case "more":
		seat, factor, _ := strings.Cut(rest, " ")
		d.seatOp("more "+strings.TrimSpace(factor), seat)
	default:
		return false
	}
	return true
}

// run sends an operation to the player's table and says a failure.
func (d *Door) run(op func(lobby.Place) error) {
	if d.place == nil {
		d.say("You are not at a table.")
		return
	}
	if err := op(d.place); err != nil {
		d.say(d.notDone(err))
	}
}

func (d *Door) seatOp(what, arg string) {
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil || n < 1 {
		d.say(fmt.Sprintf("Say which seat by its number, as in: %s 2. Type w to hear the seats.", strings.Fields(what)[0]))
		return
	}
	seat := n - 1
	d.run(func(p lobby.Place) error {
		switch {
		case what == "kick":
			return lobby.Run(p, lobby.Kick{Seat: seat})
		case what == "host":
			return lobby.Run(p, lobby.MakeHost{Seat: seat})
		case what == "stand-in":
			return lobby.Run(p, lobby.StandIn{Seat: seat})
		case what == "ignore":
			return lobby.Run(p, lobby.Ignore{Seat: seat})
		case what == "block":
			return lobby.Run(p, lobby.Block{Seat: seat})
		case strings.HasPrefix(what, "more"):
			arg := strings.TrimSpace(strings.TrimPrefix(what, "more"))
			if arg == "" {
				return fmt.Errorf("say how much, as in: more %d 2 (1.5, 2 or 3 times the time; 1 for none)", n)
			}
			f, err := rules.ParseFactor(arg)
			if err != nil {
				return err
			}
			return lobby.Run(p, lobby.ExtraTime{Seat: seat, Factor: f})
		}
		reason := strings.TrimSpace(strings.TrimPrefix(what, "report"))
		if reason == "" {
			return fmt.Errorf("say why, as in: report %d spam in the chat", n)
		}
		if err := lobby.Run(p, lobby.ReportPlayer{Seat: seat, Reason: reason}); err != nil {
			return err
		}
		d.say("Reported. Thank you.")
		return nil
	})
}

func (d *Door) chat(text string) {
	if text == "" {
		d.say("Say what? Type say, then your words.")
		return
	}
	d.run(func(p lobby.Place) error { return lobby.Run(p, lobby.Chat{Text: text}) })
}

// chatLog says the last chat lines the table keeps.
func (d *Door) chatLog() {
	if d.last == nil || len(d.last.Chat) == 0 {
		d.say("No chat yet.")
		return
	}
	chat := d.last.Chat
	if len(chat) > 10 {
		chat = chat[len(chat)-10:]
	}
	lines := []string{fmt.Sprintf("The last %s:", countLines(len(chat), "chat line"))}
	for _, c := range chat {
		lines = append(lines, chatWords(c))
	}
	d.say(lines...)
}

func countLines(n int, what string) string { return rules.Count(n, what) }

// log says the game's log as the view keeps it.
func (d *Door) log() {
	if d.last == nil || d.last.View == nil {
		d.say("No game has started at this table.")
		return
	}
	log := d.last.View.Head().Log
	if len(log) == 0 {
		d.say("Nothing has happened yet.")
		return
	}
	lines := []string{"What happened last:"}
	for _, l := range log {
		lines = append(lines, sentence(l))
	}
	d.say(lines...)
}

// board says the game's board through its speaker, with the round and the question.
func (d *Door) board() {
	if d.last == nil {
		d.say("You are not at a table.")
		return
	}
	if d.last.View == nil || d.speaker == nil {
		d.say(d.seatsNow(*d.last)...)
		return
	}
	d.say(d.speaker.Board()...)
}

// rules says a game's complete rules, a paragraph or list item a line.
func (d *Door) rules(spec *rules.Spec) {
	text := spec.Rules
	if text == "" {
		text = spec.Name + ". " + spec.HowToPlay
	}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimLeft(l, "#")
		l = strings.TrimPrefix(strings.TrimSpace(l), "- ")
		if l != "" {
			lines = append(lines, l)
		}
	}
	d.say(append(lines, "End of the rules of "+spec.Name+".")...)
}

func (d *Door) remember(arg string) {
	if d.opts.Remember == nil {
		d.say("Only a player with an SSH key can have this remembered.")
		return
	}
	on := arg == "on"
	if arg != "on" && arg != "off" {
		d.say("Type plain on, or plain off.")
		return
	}
	if err := d.opts.Remember(on); err != nil {
		d.say(d.notDone(err))
		return
	}
	if on {
		d.say("Remembered: whenever you connect with this key, parlor starts in this mode.")
	} else {
		d.say(fmt.Sprintf("Remembered: parlor starts with the full screen when you connect; %s still starts this mode.", d.opts.SSH("plain")))
	}
}
