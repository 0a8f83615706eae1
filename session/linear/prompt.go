package linear

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"parlor/lobby"
	"parlor/rules"
)

// prompt is what the player is asked now: a question, its numbered choices, or a typed
// line, and the time left when the phase is timed.
type prompt struct {
	key      string
	head     string   // the game's own words for what to do now, said when they change
	say      string   // the question, or where things stand when nothing is asked
	choices  []string // said numbered from 1
	text     bool     // a typed line answers it
	deadline time.Time
	answer   func(n int, text string) error
	echoes   bool // says nothing the events did not say just now
}

// ident tells one prompt from another: its key and its choices, not its words (a
// count of players) nor its time left.
func (p *prompt) ident() string {
	return p.key + "\x00" + strings.Join(p.choices, "\x00")
}

// prompt says the current question: always when again, otherwise only when it is not
// the one said last.
func (d *Door) prompt(again bool) {
	p := d.current()
	if p == nil {
		return
	}
	if !again && p.ident() == d.asked {
		return
	}
	d.asked = p.ident()
	if !again && p.echoes {
		return
	}
	var lines []string
	if p.head != "" && (again || p.head != d.head) {
		lines = append(lines, sentence(p.head))
	}
	d.head = p.head
	lines = append(lines, sentence(p.say))
	if left := timeLeft(p.deadline, d.l.Now()); left != "" {
		lines[len(lines)-1] += " " + left
	}
	for i, c := range p.choices {
		lines = append(lines, fmt.Sprintf("%d. %s", i+1, c))
	}
	switch {
	case len(p.choices) > 0 && p.text:
		lines = append(lines, "Type a number, or type your answer.")
	case len(p.choices) > 0:
		lines = append(lines, "Type a number.")
	case p.text:
		lines = append(lines, "Type your answer, then Enter.")
	}
	d.say(lines...)
}

// timeLeft says the time until deadline in words a screen reader reads well.
func timeLeft(deadline, now time.Time) string {
	if deadline.IsZero() {
		return ""
	}
	s := int(deadline.Sub(now).Round(time.Second) / time.Second)
	if s < 0 {
		s = 0
	}
	switch {
	case s >= 60 && s%60 == 0:
		return fmt.Sprintf("(%s left.)", rules.Count(s/60, "minute"))
	case s >= 60:
		return fmt.Sprintf("(%s %s left.)", rules.Count(s/60, "minute"), rules.Count(s%60, "second"))
	}
	return fmt.Sprintf("(%s left.)", rules.Count(s, "second"))
}

// current is the question now: the door's own (a menu), the game's, the table's or the
// lobby's.
func (d *Door) current() *prompt {
	if d.naming {
		return &prompt{key: "name", say: "What is your name?", text: true}
	}
	if d.menu != nil {
		return d.menu
	}
	if d.place == nil {
		return d.lobbyPrompt()
	}
	if d.last == nil {
		return nil
	}
	return d.tablePrompt(*d.last)
}

// menuOf makes a numbered question of the door's own; each choice's function runs
// after the menu is closed (it may open another).
func (d *Door) menuOf(key, say string, choices []string, do func(n int) error) *prompt {
	return &prompt{key: key, say: say, choices: append(choices, "Back"), answer: func(n int, _ string) error {
		d.menu = nil
		if n == len(choices)+1 {
			return nil
		}
		return do(n)
	}}
}

func (d *Door) lobbyPrompt() *prompt {
	choices := []string{"Create a table", "Join an open table", "Join a table by its code", "Watch a table", "Read the rules of a game", "Leave parlor"}
	return &prompt{key: "lobby", say: "You are in the lobby. What now?", choices: choices, answer: func(n int, _ string) error {
		switch n {
		case 1:
			d.chooseGame("create", "Which game?", func(spec *rules.Spec) error {
				p, err := d.l.Create(d.player, spec.ID, nil, false)
				if err != nil {
					return err
				}
				d.at(p)
				d.say(fmt.Sprintf("You opened table %s for %s, and you are its host. Others join with the code %s.", p.Code(), spec.Name, spelled(p.Code())))
				return nil
			})
		case 2:
			d.listTables(false)
		case 3:
			d.menu = &prompt{key: "code", say: "Type the table's code, four letters.", text: true, answer: func(_ int, text string) error {
				d.menu = nil
				d.join(text, false)
				return nil
			}}
		case 4:
			d.listTables(true)
		case 5:
			d.chooseGame("rules", "The rules of which game?", func(spec *rules.Spec) error {
				d.rules(spec)
				return nil
			})
		case 6:
			d.quit = true
		}
		return nil
	}}
}

// spelled is a code letter by letter, as a screen reader should read it.
func spelled(code string) string { return strings.Join(strings.Split(code, ""), " ") }

func (d *Door) chooseGame(key, say string, do func(*rules.Spec) error) {
	games := lobby.Games()
	slices.SortFunc(games, func(a, b *rules.Spec) int { return strings.Compare(a.Name, b.Name) })
	var names []string
	for _, g := range games {
		names = append(names, fmt.Sprintf("%s, %d to %d players: %s", g.Name, g.MinPlayers, g.MaxPlayers, g.Summary))
	}
	d.menu = d.menuOf(key, say, names, func(n int) error { return do(games[n-1]) })
}

func (d *Door) listTables(watch bool) {
	var tables []lobby.TableInfo
	for _, t := range d.l.Tables(d.player) {
		if watch || t.State != lobby.StatePlaying {
			tables = append(tables, t)
		}
	}
	if len(tables) == 0 {
		d.say("No table is open now. Create one, or ask a friend for their table's code.")
		return
	}
	var lines []string
	for _, t := range tables {
		var names []string
		for _, s := range t.Seats {
			names = append(names, s.Name)
		}
		lines = append(lines, fmt.Sprintf("%s at table %s, %s, %d of %d seats: %s", t.GameName, spelled(t.Code), t.State, len(t.Seats), t.MaxPlayers, rules.List(names)))
	}
	say := "Which table do you join?"
	if watch {
		say = "Which table do you watch?"
	}
	d.menu = d.menuOf("tables", say, lines, func(n int) error {
		d.join(tables[n-1].Code, watch)
		return nil
	})
}

// tablePrompt is the question at a table: the game's when it asks something, the host's
// choices before a game, or where things stand.
func (d *Door) tablePrompt(u lobby.Update) *prompt {
	t := u.Table
	if u.View != nil && t.State == lobby.StatePlaying && d.speaker != nil {
		h := u.View.Head()
		if a := d.speaker.Ask(); a.Asking() {
			return &prompt{key: "game/" + a.Key, head: h.Prompt, say: a.Question, choices: a.Choices, text: a.Text, deadline: h.Deadline,
				answer: func(n int, text string) error {
					action, err := d.speaker.Answer(n, text)
					if err != nil {
						return err
					}
					if action == nil { // the next step of the question, asked at once
						d.stepped = true
						return nil
					}
					if err := lobby.Run(d.place, lobby.ActOf(action)); err != nil {
						return err
					}
					d.sent = true // the view that says what it did is on its way
					return nil
				}}
		}
		if h.Prompt != "" && !d.sent {
			// A prompt that only repeats what the log just said ("Turn over: …") is said
			// by r, not after the log line.
			echo := len(h.Log) > 0 && strings.Contains(h.Prompt, strings.TrimSuffix(h.Log[len(h.Log)-1], "."))
			return &prompt{key: "game/wait/" + h.Phase, say: h.Prompt, deadline: h.Deadline, echoes: echo}
		}
		return nil
	}
	if t.State == lobby.StatePlaying {
		return &prompt{key: "watch", say: fmt.Sprintf("%s is being played.", t.GameName),
			choices: []string{"Leave the table"}, answer: func(int, string) error { d.leave(true); return nil }}
	}
	var say string
	var choices []string
	var acts []func() error
	add := func(c string, f func() error) { choices, acts = append(choices, c), append(acts, f) }
	players := fmt.Sprintf("%s seated, %d to %d play.", rules.Count(len(t.Seats), "player"), t.MinPlayers, t.MaxPlayers)
	switch {
	case u.Host:
		say = fmt.Sprintf("You are the host of table %s, %s. %s", spelled(t.Code), t.GameName, players)
		if t.State == lobby.StateFinished {
			say = "The game is over. " + say
		}
		add("Start the game", func() error { return lobby.Run(d.place, lobby.Start{}) })
		add("Add a bot", func() error { return lobby.Run(d.place, lobby.AddBot{}) })
		add("Change an option", func() error { d.chooseOption(t); return nil })
	case u.Seat >= 0:
		say = fmt.Sprintf("You are at table %s, %s. %s Waiting for the host to start.", spelled(t.Code), t.GameName, players)
	default:
		say = fmt.Sprintf("You are watching table %s, %s. %s", spelled(t.Code), t.GameName, players)
		add("Take a seat", func() error {
			if err := lobby.Run(d.place, lobby.TakeSeat{}); err != nil {
				return err
			}
			return nil
		})
	}
	add("Leave the table", func() error { d.leave(true); d.say("You left the table."); return nil })
	return &prompt{key: "table/" + t.State, say: say, choices: choices, answer: func(n int, _ string) error { return acts[n-1]() }}
}

func (d *Door) chooseOption(t lobby.TableInfo) {
	var names []string
	for _, o := range t.Choices {
		names = append(names, fmt.Sprintf("%s: %s", o.Name, cmpOr(t.Options[o.Key], o.Default)))
	}
	d.menu = d.menuOf("options", "Which option?", names, func(n int) error {
		o := t.Choices[n-1]
		d.menu = d.menuOf("option/"+o.Key, fmt.Sprintf("%s: %s", o.Name, o.Help), slices.Clone(o.Choices), func(k int) error {
			return lobby.Run(d.place, lobby.SetOptions{Options: rules.Options{o.Key: o.Choices[k-1]}})
		})
		return nil
	})
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
