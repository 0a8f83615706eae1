// Package linear is the linear mode: parlor for a screen reader or a braille display.
// It only ever appends lines (no cursor movement, no clearing, no alternate screen), says
// each event in one sentence, asks each question with its choices numbered and its time
// left, and takes a typed line as the answer.
//
// It is one more door over the same table operations as the terminal UI and the JSON
// API: it holds a lobby.Place and sends lobby requests, and each game's words come from
// that game's speaker (gameui.Speaker, registered by session/<game>), which builds the
// same actions the game's screen builds.
package linear

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"parlor/lobby"
	"parlor/playertext"
	"parlor/rules"
	"parlor/session"
	"parlor/session/gameui"
)

// Options is what the server gives the linear mode for one connection.
type Options struct {
	Lobby   *lobby.Lobby
	Player  lobby.Player
	Online  *lobby.Online
	AskName bool   // the player has no name yet: ask for one first
	Join    string // a table's code to go straight to
	Watch   string // a table's code to watch straight away
	// SaveName keeps a chosen name for the player's key; nil for a guest.
	SaveName func(name string) error
	// Remember keeps whether the player's key starts in the linear mode; nil for a guest.
	Remember func(on bool) error
	// Echo: the client sent a terminal (a PTY), which echoes nothing by itself, so the
	// door echoes what is typed and keeps the line being typed.
	Echo bool
	// IdleTimeout ends a session that sends nothing for this long; 0 for never.
	IdleTimeout time.Duration
	// SSH is the ssh command line to this server, with the given arguments.
	SSH func(args ...string) string
}

// Door is one player's connection in the linear mode.
type Door struct {
	opts   Options
	player lobby.Player
	l      *lobby.Lobby

	wmu sync.Mutex
	out io.Writer
	ed  *editor

	notices chan string
	ended   chan string

	place    lobby.Place
	stop     context.CancelFunc // the place's pump
	updates  chan placeUpdate
	last     *lobby.Update // the newest update of the place, nil before the first
	speaker  gameui.Speaker
	menu     *prompt  // a question of the door's own (a lobby list, a host's option), answered first
	asked    string   // the key of the prompt said last, to say it again only when it changes
	head     string   // the game's prompt said last
	sent     bool     // an action went to the table since the last update
	again    bool     // say the question after the next update, even if it is the same
	stepped  bool     // the answer was a step of the game's question: the next step follows
	hurried  string   // the question whose time running out was said
	held     []string // lines typed before the table's first update, answered after it
	lastChat int
	naming   bool
	quit     bool
}

type placeUpdate struct {
	place  lobby.Place
	u      lobby.Update
	ok     bool
	reason lobby.Closed
}

// New makes a door for one connection.
func New(opts Options) *Door {
	player := opts.Player
	// A screen reader reads slower than an eye: the player gets ×2 in every timed phase
	// of every game, given by the table when they sit down (Player.MoreTime), unless
	// they turn it off ("time off").
	player.MoreTime = lobby.LinearMoreTime
	return &Door{
		opts: opts, player: player, l: opts.Lobby,
		notices: make(chan string, 8), ended: make(chan string, 1), updates: make(chan placeUpdate, 1),
		naming: opts.AskName,
	}
}

// Notice says an operator's or the server's words to the player (any goroutine).
func (d *Door) Notice(text string) {
	select {
	case d.notices <- text:
	default:
	}
}

// End says goodbye with text and ends the session (any goroutine).
func (d *Door) End(text string) {
	select {
	case d.ended <- text:
	default:
	}
}

// Run talks with the player until they quit, the input ends or ctx does. It leaves
// the player's table as a dropped connection would (a key keeps its seat), unless
// they asked to leave.
func (d *Door) Run(ctx context.Context, in io.Reader, out io.Writer) {
	d.out = out
	d.ed = newEditor(d.opts.Echo)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan string)
	go d.ed.read(ctx, in, lines, d.write)
	defer d.leave(false)

	d.say("Welcome to parlor, in the linear mode: every line is new, nothing is redrawn.",
		"Type a number to choose, or a command; type help for the commands.")
	if d.naming {
		if d.player.Name != "" {
			d.say(fmt.Sprintf("What is your name? Press Enter alone to be %s, or type another.", d.player.Name))
		} else {
			d.say("What is your name? Type it and press Enter.")
		}
	} else {
		d.say(fmt.Sprintf("Hello, %s.", d.player.Name))
		d.goStraight()
		d.prompt(true)
	}
	var idle <-chan time.Time
	var timer *time.Timer
	if d.opts.IdleTimeout > 0 {
		timer = time.NewTimer(d.opts.IdleTimeout)
		defer timer.Stop()
		idle = timer.C
	}
	// While a timed question waits for the player, a check each second says when little
	// time is left (once per question), so that the deadline never passes unannounced.
	// It reads the lobby's clock, which may run faster than the wall clock.
	tick := time.NewTicker(time.Second)
	tick.Stop()
	defer tick.Stop()
	ticking := false
	for !d.quit {
		if timed := d.timed() != nil; timed != ticking { // no work per second otherwise
			ticking = timed
			if timed {
				tick.Reset(time.Second)
			} else {
				tick.Stop()
			}
		}
		select {
		case <-tick.C:
			d.hurry()
		case <-ctx.Done():
			return
		case msg := <-d.ended:
			d.say(msg)
			return
		case msg := <-d.notices:
			d.say("Notice: " + msg)
		case <-idle:
			d.say(fmt.Sprintf("Goodbye: nothing was typed for %s.", d.opts.IdleTimeout))
			return
		case pu := <-d.updates:
			if pu.place != d.place {
				continue // the pump of a table already left
			}
			if !pu.ok {
				d.closed(pu.reason)
				continue
			}
			d.update(pu.u)
		case line, ok := <-lines:
			if !ok {
				return
			}
			if timer != nil {
				timer.Reset(d.opts.IdleTimeout)
			}
			d.line(line)
		}
	}
	d.say("Goodbye.")
}

// say writes whole lines, each a sentence or a few.
func (d *Door) say(lines ...string) {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	d.write(b.String())
}

func (d *Door) write(s string) {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	d.ed.printAbove(d.out, s)
}

// line handles one typed line.
func (d *Door) line(line string) {
	line = strings.TrimSpace(playertext.Clean(line))
	if d.naming {
		d.setName(line)
		return
	}
	if d.place != nil && d.last == nil {
		// The table has not said how things stand yet: the line waits for it, as a
		// key pressed on the screen waits for the table's first frame.
		d.held = append(d.held, line)
		return
	}
	if d.atTheKeys() {
		return
	}
	if line == "" {
		d.prompt(true)
		return
	}
	p := d.current()
	// A number answers the question; a typed answer is taken before the commands'
	// words only when it is not one of them (say "board." to give the word "board").
	if n, err := strconv.Atoi(line); err == nil {
		d.answer(p, n, "")
		return
	}
	if d.command(line) {
		return
	}
	if p != nil && p.text {
		d.answer(p, 0, line)
		return
	}
	d.say(fmt.Sprintf("%q is not a command here. Type help for the commands, or r to hear the question again.", playertext.Short(line, 30)))
}

// hurryAt is how much time left a timed question is said again at.
const hurryAt = 15 * time.Second

// timed is the question said last when it is timed, waits for the player, and its time
// running out has not been said yet; nil otherwise.
func (d *Door) timed() *prompt {
	if d.hurried == d.asked || d.place == nil || d.last == nil {
		return nil
	}
	p := d.current()
	if p == nil || p.deadline.IsZero() || (len(p.choices) <= 1 && !p.text) || p.ident() != d.asked { // one choice: nothing to decide
		return nil
	}
	return p
}

// hurry says, once per question, that its time is nearly up.
func (d *Door) hurry() {
	p := d.timed()
	if p == nil {
		return
	}
	if left := p.deadline.Sub(d.l.Now()); left > 0 && left <= hurryAt {
		d.hurried = d.asked
		d.say(fmt.Sprintf("Hurry: %s left. Type r for the question.", strings.TrimSuffix(strings.Trim(timeLeft(p.deadline, d.l.Now()), "()"), " left.")))
	}
}

// atTheKeys takes the player's seat back from a bot that plays it while they were idle
// (the host's stand-in), as a key press does on the screen; the line typed is not taken
// as an answer, since the question may have changed meanwhile.
func (d *Door) atTheKeys() bool {
	if d.place == nil || d.last == nil || d.last.Table.State != lobby.StatePlaying {
		return false
	}
	seats, seat := d.last.Table.Seats, d.last.Seat
	if seat < 0 || seat >= len(seats) || !seats[seat].StandIn || seats[seat].Away {
		return false
	}
	if err := lobby.Run(d.place, lobby.Resume{}); err != nil {
		d.say(d.notDone(err))
		return true
	}
	d.say("You play again; a bot played for you meanwhile.")
	d.again = true
	return true
}

// answer gives a number or a line to the current question.
func (d *Door) answer(p *prompt, n int, text string) {
	if p == nil || (len(p.choices) == 0 && !p.text) {
		d.say("Nothing is asked of you now. Type r to hear where things stand, or help for the commands.")
		return
	}
	if text == "" && (n < 1 || n > len(p.choices)) {
		if len(p.choices) == 0 {
			d.say("Type your answer as words, then Enter.")
		} else {
			d.say(fmt.Sprintf("Choose a number from 1 to %d.", len(p.choices)))
		}
		d.prompt(true)
		return
	}
	if err := p.answer(n, text); err != nil {
		d.say(d.notDone(err))
		d.prompt(true)
		return
	}
	if d.stepped {
		d.stepped = false
		d.prompt(false)
		return
	}
	if d.place != nil && d.menu == nil && !d.naming {
		// What the answer did comes back as the table's next update: the question is
		// said again after it, even when it is the same one (add another bot).
		d.again = true
		return
	}
	d.prompt(false)
}

// oneLine makes an error one sentence on one line.
// notDone is the line that says an operation was refused, as a sentence without the
// game's id (rules.Refusal), as the terminal says it.
func (d *Door) notDone(err error) string {
	game := ""
	if d.last != nil {
		game = d.last.Table.Game
	}
	return "Not done: " + oneLine(rules.Refusal(game, err))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s != "" && !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}

func (d *Door) setName(line string) {
	if line == "" {
		line = d.player.Name
	}
	name, err := session.CheckName(line)
	if err == nil {
		err = d.opts.Online.Name(name)
	}
	if err == nil && d.opts.SaveName != nil {
		err = d.opts.SaveName(name)
	}
	if err != nil {
		d.say(oneLine(err.Error()), "What is your name?")
		return
	}
	d.player.Name, d.naming = name, false
	d.say(fmt.Sprintf("Hello, %s.", name))
	d.goStraight()
	d.prompt(true)
}

// goStraight goes to the table the ssh command named, if any.
func (d *Door) goStraight() {
	switch {
	case d.opts.Join != "":
		d.join(d.opts.Join, false)
	case d.opts.Watch != "":
		d.join(d.opts.Watch, true)
	}
}

// leave takes the door away from its table: asked, the seat is freed before a game (as
// the TUI's leave); otherwise kept, as a dropped connection's.
func (d *Door) leave(asked bool) {
	if d.place == nil {
		return
	}
	if asked {
		_ = lobby.Run(d.place, lobby.Leave{})
	} else {
		_ = lobby.Run(d.place, lobby.Disconnect{})
	}
	d.drop()
}

func (d *Door) drop() {
	if d.stop != nil {
		d.stop()
	}
	d.place, d.stop, d.last, d.speaker, d.menu, d.lastChat, d.asked, d.held = nil, nil, nil, nil, nil, 0, "", nil
}

// at takes a place at a table and starts reading its updates.
func (d *Door) at(p lobby.Place) {
	d.leave(true)
	ctx, cancel := context.WithCancel(context.Background())
	d.place, d.stop = p, cancel
	go func() {
		for {
			u, ok, reason := p.Next(ctx)
			if ctx.Err() != nil {
				return
			}
			select {
			case d.updates <- placeUpdate{place: p, u: u, ok: ok, reason: reason}:
			case <-ctx.Done():
				return
			}
			if !ok {
				return
			}
		}
	}()
}

func (d *Door) join(code string, watch bool) {
	code = strings.ToUpper(strings.TrimSpace(code))
	var p lobby.Place
	var err error
	for try := 1; ; try++ {
		if watch {
			p, err = d.l.Watch(d.player, code)
		} else {
			p, err = d.l.Join(d.player, code)
		}
		if !errors.Is(err, lobby.ErrMoving) || try == lobby.MovingTries {
			break
		}
		if try == 1 {
			d.say(fmt.Sprintf("Table %s is moving to another server: you will be at it as soon as it is there.", spelled(code)))
		}
		// Lines typed meanwhile wait, as they do while any answer is awaited.
		time.Sleep(lobby.MovingEvery)
	}
	if err != nil {
		d.say(d.notDone(err))
		return
	}
	d.at(p)
	if watch {
		d.say(fmt.Sprintf("You are watching table %s.", spelled(p.Code())))
	} else {
		d.say(fmt.Sprintf("You are at table %s.", spelled(p.Code())))
	}
}

func (d *Door) closed(reason lobby.Closed) {
	d.drop()
	text := reason.Text
	if text == "" {
		text = "You are no longer at the table."
	}
	d.say(oneLine(text), "You are back in the lobby.")
	d.prompt(true)
}

// moreTime answers "time off" and "time on": whether the player gets ×2 in every timed
// phase (lobby.LinearMoreTime, given when they sit down). Off takes it back at once from
// the seat they hold; on gives it from the next time they sit down, as a player cannot
// give themselves more time at a table (the host can, with "more").
func (d *Door) moreTime(arg string) {
	switch arg {
	case "off":
		d.player.MoreTime = 0
		if d.place != nil && d.last != nil && d.last.Seat >= 0 {
			if err := lobby.Run(d.place, lobby.ExtraTime{Seat: d.last.Seat, Factor: 1}); err != nil {
				d.say(d.notDone(err))
				return
			}
		}
		d.say("You play at the table's own time limits from now on. Type time on to get twice the time again.")
	case "on":
		d.player.MoreTime = lobby.LinearMoreTime
		if d.place != nil && d.last != nil && d.last.Seat >= 0 {
			d.say("You get twice the time again from the next time you sit down; the host can give it to you now.")
			return
		}
		d.say("You get twice the time in every timed phase when you sit down.")
	default:
		more := "twice the time limits"
		if d.player.MoreTime <= 1 {
			more = "the table's own time limits"
		}
		d.say(fmt.Sprintf("You play with %s. Type time off or time on to change it.", more))
	}
}
