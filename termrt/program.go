package termrt

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	gossh "golang.org/x/crypto/ssh"
)

// Program runs a player's model by Bubble Tea's contract (Init, then Update for every
// message, each returned command run on its own goroutine and its message sent back),
// on the goroutine that calls Run, with the painter drawing its frames and the key
// reader reading its input.
//
// Why not tea.Program: with the painter drawing the frames (paint.go) and the key
// reader reading the input (keys.go), what tea.Program still did was this loop, and for
// it every session kept two more goroutines that do nothing for parlor: the command
// runner, which only starts a goroutine for each command (Program.handleCommands), and
// the renderer's frame ticker, which it starts even without a renderer
// (startRenderer). Those were two of a session's eleven goroutines, against the goal of
// six (docs/performance.md). Here a command's goroutine is started where the command
// is returned, and nothing ticks.
//
// What it keeps of tea.Program's behaviour: input events become Bubble Tea's messages
// (as Program.translateInputEvent makes them), a tea.BatchMsg runs each of its
// commands, tea.QuitMsg ends the loop, and a message sent after the end is dropped, not
// blocked on. What parlor does not use is left out: tea.Sequence, the terminal queries
// (clipboard, colours, cursor position), exec and suspend. A panic in a command is
// raised again on the loop's goroutine, so that it ends only its session, as any
// other panic in a session's handler does.
type Program struct {
	ctx    context.Context
	cancel context.CancelFunc // run calls it when it returns
	msgs   chan tea.Msg

	// requests are the session channel's requests, taken in the loop as they come:
	// request answers one and gives the message it makes for the model (a new window
	// size), or nil. Of a burst of them only the last message is delivered.
	requests <-chan *gossh.Request
	request  func(*gossh.Request) tea.Msg

	sess ssh.Session // whose terminal Run draws on and reads; nil for the loop alone
	fps  int         // the most frames a second the painter draws
}

// commandPanic carries a command's panic to the loop.
type commandPanic struct {
	value any
	stack []byte
}

// NewProgram makes the program of a player's session: sess is its terminal, fps the
// most frames a second drawn to it. It runs once Run is called; ctx ends it.
func NewProgram(ctx context.Context, sess ssh.Session, fps int) *Program {
	p := newProgram(ctx)
	p.sess, p.fps = sess, fps
	return p
}

func newProgram(ctx context.Context) *Program {
	// A little room, so that the goroutine that brings news or a key can usually hand
	// it over and end without waiting for the loop.
	ctx, cancel := context.WithCancel(ctx)
	return &Program{ctx: ctx, cancel: cancel, msgs: make(chan tea.Msg, 8)}
}

// Run runs m on the session's terminal until the model quits, the program's context
// ends or the client goes: it sends m the terminal's colour profile and window size
// first, then its keys, its resizes and whatever else is sent, and draws each frame
// that changed. When it returns (after a panic in m too, which it lets through) the
// terminal is as it found it: the main screen, a cursor, the keyboard as before.
func (p *Program) Run(m tea.Model) {
	sess := p.sess
	var screen io.Writer = sess
	cs, _ := sess.(*channelSession)
	if cs != nil {
		// The channel itself: a session's Write puts a "\r" before every "\n", copying
		// each write twice to do it (7 % of the server's allocations under load), and the
		// painter moves the cursor and writes no newline.
		screen = cs.Channel
	}
	painter := newPainter(p.ctx, m, screen, p.fps, p.Send)
	// The window sizes come as the channel's requests, which the loop answers; the
	// first is the newest the client sent before the shell.
	pty, _, _ := sess.Pty()
	if cs != nil {
		p.requests = cs.reqs
		p.request = func(req *gossh.Request) tea.Msg {
			if w, _ := cs.serve(req); w != nil {
				return tea.WindowSizeMsg{Width: w.Width, Height: w.Height}
			}
			return nil
		}
	}
	if r, ok := sess.(Resizer); ok {
		r.OnResize(func(w ssh.Window) { p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height}) })
	}
	go readKeys(sess, p.Send)
	// Deferred, so that a panic in the model (which ends only this session, in the
	// handler's recovery) still gives the terminal back.
	defer func() {
		p.cancel()
		painter.close()
	}()
	p.run(painter, tea.ColorProfileMsg{Profile: colorprofile.Env(append(sess.Environ(), "TERM="+pty.Term))},
		tea.WindowSizeMsg{Width: pty.Window.Width, Height: pty.Window.Height})
}

// Send delivers msg to the model; from any goroutine. Once the program has ended, or
// its context is done, it returns at once.
func (p *Program) Send(msg tea.Msg) {
	select {
	case p.msgs <- msg:
	case <-p.ctx.Done():
	}
}

// TrySend delivers msg if the loop has room for it now, and reports whether it did; it
// never waits. After the end it may take msg and drop it, as Send does.
func (p *Program) TrySend(msg tea.Msg) bool {
	if p.ctx.Err() != nil {
		return true
	}
	select {
	case p.msgs <- msg:
		return true
	default:
		return false
	}
}

// run calls m.Init, updates m with each of first, then with every message sent, until
// the model quits or the context ends. It returns the last model.
func (p *Program) run(m tea.Model, first ...tea.Msg) tea.Model {
	defer p.cancel()
	p.exec(m.Init())
	for _, msg := range first {
		m = p.update(m, msg)
	}
	for {
		select {
		case <-p.ctx.Done():
			return m
		case req, ok := <-p.requests:
			if msg := p.answer(req, ok); msg != nil {
				m = p.update(m, msg)
			}
		case msg := <-p.msgs:
			switch msg := translate(msg).(type) {
			case tea.QuitMsg:
				return m
			case tea.BatchMsg:
				for _, cmd := range msg {
					p.exec(cmd)
				}
			case commandPanic:
				panic(fmt.Sprintf("%v\n\ncommand's stack:\n%s", msg.value, msg.stack))
			default:
				m = p.update(m, msg)
			}
		}
	}
}

// answer answers req and every request already waiting after it, and returns the last
// message they made. ok false: the requests have ended (the channel closed).
func (p *Program) answer(req *gossh.Request, ok bool) tea.Msg {
	var last tea.Msg
	for ok {
		if msg := p.request(req); msg != nil {
			last = msg
		}
		select {
		case req, ok = <-p.requests:
		default:
			return last
		}
	}
	p.requests = nil // a nil channel: never ready again
	return last
}

func (p *Program) update(m tea.Model, msg tea.Msg) tea.Model {
	m, cmd := m.Update(msg)
	p.exec(cmd)
	return m
}

// exec runs cmd on a goroutine of its own and sends its message back.
func (p *Program) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				p.Send(commandPanic{r, debug.Stack()})
			}
		}()
		if msg := cmd(); msg != nil {
			p.Send(msg)
		}
	}()
}

// translate turns the key reader's input events into Bubble Tea's messages, as
// tea.Program does for its own reader's (input.go, translateInputEvent, which is not
// exported): only the events a player's terminal sends without being asked, and the
// mode reports the painter asks for.
func translate(msg tea.Msg) tea.Msg {
	switch e := msg.(type) {
	case uv.KeyPressEvent:
		return tea.KeyPressMsg(e)
	case uv.KeyReleaseEvent:
		return tea.KeyReleaseMsg(e)
	case uv.PasteEvent:
		return tea.PasteMsg(e)
	case uv.PasteStartEvent:
		return tea.PasteStartMsg(e)
	case uv.PasteEndEvent:
		return tea.PasteEndMsg(e)
	case uv.MouseClickEvent:
		return tea.MouseClickMsg(e)
	case uv.MouseReleaseEvent:
		return tea.MouseReleaseMsg(e)
	case uv.MouseWheelEvent:
		return tea.MouseWheelMsg(e)
	case uv.MouseMotionEvent:
		return tea.MouseMotionMsg(e)
	case uv.FocusEvent:
		return tea.FocusMsg(e)
	case uv.BlurEvent:
		return tea.BlurMsg(e)
	case uv.ModeReportEvent:
		return tea.ModeReportMsg(e)
	case uv.KeyboardEnhancementsEvent:
		return tea.KeyboardEnhancementsMsg(e)
	case uv.WindowSizeEvent:
		return tea.WindowSizeMsg(e)
	}
	return msg
}
