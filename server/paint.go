package server

import (
	"bytes"
	"context"
	"io"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// painter draws a program's frames to the player's terminal when they change, at most
// once per frame interval, in place of Bubble Tea's renderer.
//
// Why not Bubble Tea's own: its renderer flushes on a ticker that every program runs at
// its frame rate whether or not anything changed (tea.go, startRenderer). At 30 frames a
// second that is 30 wake-ups per second per player: the whole idle cost of a session,
// about 0.7 of a core for 2,000 players sitting at a table (docs/performance.md), and a
// change waits for the next tick (half a frame on average). Bubble Tea offers no
// on-demand mode, so the program runs without its renderer (tea.WithoutRenderer, with
// a 1 fps ticker for what little it still flushes) and this model wrapper draws each
// frame right after the update that changed it, parsing only the rows that changed
// (fill). The drawing is ultraviolet's TerminalRenderer, the one Bubble Tea's renderer
// uses, set up as Bubble Tea sets it up for SSH but for the scroll search (below), so
// what reaches the terminal is the same. The terminal modes are the ones parlor's View
// asks for (alternate screen, hidden cursor, bracketed paste, window title) plus Bubble
// Tea's keyboard set-up, set on the first frame and undone by close.
//
// Everything here runs on the program's event loop (Update) or after it has ended
// (close): no lock is needed. A frame not yet due is drawn by a drawMsg sent from a
// timer, so no goroutine waits per session.
type painter struct {
	tea.Model
	ctx   context.Context
	out   io.Writer
	send  func(tea.Msg)
	every time.Duration // the shortest time between two frames

	scr     *uv.TerminalRenderer
	pending bytes.Buffer // what scr wrote for the frame being drawn
	cells   uv.ScreenBuffer
	sized   bool   // a window size has come
	colored bool   // the colour profile has come
	syncd   bool   // the terminal takes synchronized output (mode 2026)
	started bool   // the terminal modes are set
	title   string // the window title they set
	drawn   string
	rows    []string  // drawn's rows as the cells hold them; nil: draw the next frame whole
	plain   []bool    // plainStarts(rows)
	redraw  bool      // draw the next frame even if its content is the same
	last    time.Time // when the last frame went out
	waiting bool      // a drawMsg is on its way
}

// drawMsg draws a frame that was not yet due when its change came.
type drawMsg struct{}

func newPainter(ctx context.Context, m tea.Model, out io.Writer, env []string, fps int, send func(tea.Msg)) *painter {
	p := &painter{Model: m, ctx: ctx, out: out, send: send, every: time.Second / time.Duration(fps)}
	p.scr = uv.NewTerminalRenderer(&p.pending, env)
	// As Bubble Tea sets its renderer up for an SSH session (tea.go, Run): no hard tabs
	// or backspaces for cursor moves, and a newline the channel turns into CR LF.
	p.scr.SetTabStops(-1)
	p.scr.SetBackspace(false)
	p.scr.SetMapNewline(true)
	// Unlike Bubble Tea: no search for rows that moved up or down whole, which a game
	// screen's fixed layout hardly has (a chat box scrolls inside a row), and which
	// hashed every row of every frame (7 % of the server's CPU under load).
	p.scr.SetScrollOptim(false)
	p.scr.SetRelativeCursor(true)
	p.scr.SetFullscreen(false)
	p.cells = uv.NewScreenBuffer(0, 0)
	return p
}

func (p *painter) Init() tea.Cmd {
	// As Bubble Tea asks every terminal: does it take synchronized output (2026), and
	// does it measure graphemes as whole (2027)? The answers come as ModeReportMsg.
	p.write(ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore)
	return p.Model.Init()
}

func (p *painter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case drawMsg:
		p.waiting = false
		p.paint(true)
		return p, nil
	case tea.WindowSizeMsg:
		p.sized = true
		p.scr.Resize(msg.Width, msg.Height)
		p.cells.Resize(msg.Width, msg.Height)
		p.scr.Erase() // as Bubble Tea does: some terminals scroll the screen on a resize
		p.redraw, p.rows = true, nil
	case tea.ColorProfileMsg:
		p.scr.SetColorProfile(msg.Profile)
		p.scr.Erase() // what is on screen has the old profile's colours
		p.colored, p.redraw = true, true
	case tea.ModeReportMsg:
		p.modeReport(msg)
	}
	var cmd tea.Cmd
	p.Model, cmd = p.Model.Update(msg)
	p.paint(false)
	return p, cmd
}

func (p *painter) modeReport(msg tea.ModeReportMsg) {
	switch msg.Mode {
	case ansi.ModeSynchronizedOutput:
		p.syncd = msg.Value == ansi.ModeReset // supported, and off until a frame turns it on
	case ansi.ModeUnicodeCore:
		if msg.Value == ansi.ModeReset || msg.Value == ansi.ModeSet || msg.Value == ansi.ModePermanentlySet {
			p.write(ansi.SetModeUnicodeCore)
			p.cells.Method = ansi.GraphemeWidth
			p.redraw, p.rows = true, nil
		}
	}
}

// paint draws the frame if it changed: now if it is due (or the timer says so), else
// it has a drawMsg sent when it is.
func (p *painter) paint(due bool) {
	if p.waiting || !p.sized || !p.colored {
		return
	}
	v := p.Model.View()
	if v.Content == p.drawn && !p.redraw {
		return
	}
	if wait := p.every - time.Since(p.last); wait > 0 && !due {
		p.waiting = true
		ctx, send := p.ctx, p.send
		time.AfterFunc(wait, func() {
			if ctx.Err() == nil {
				send(drawMsg{})
			}
		})
		return
	}
	p.draw(v)
}

// draw sends one frame: the cells that differ from what the terminal shows.
func (p *painter) draw(v tea.View) {
	var head string
	if !p.started {
		p.started = true
		p.title = v.WindowTitle
		// What parlor's View asks for (the alternate screen, no cursor, bracketed
		// paste, its title: the same on every frame, so set once) and Bubble Tea's
		// keyboard set-up (modifyOtherKeys, Kitty's key disambiguation).
		p.scr.SaveCursor()
		p.scr.SetFullscreen(true)
		p.scr.SetRelativeCursor(false)
		p.scr.Erase()
		_, _ = p.scr.WriteString(ansi.SetModeBracketedPaste + ansi.SetWindowTitle(p.title) +
			ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(ansi.KittyDisambiguateEscapeCodes) + ansi.RequestKittyKeyboard)
		head = ansi.ResetModifyOtherKeys + ansi.SetModeAltScreenSaveCursor + ansi.ResetModeTextCursorEnable
	}
	p.fill(v.Content)
	p.scr.Render(p.cells.RenderBuffer)
	_ = p.scr.Flush()
	p.drawn, p.redraw, p.last = v.Content, false, time.Now()
	if p.pending.Len() == 0 && head == "" {
		return
	}
	frame := p.pending.String()
	p.pending.Reset()
	if p.syncd {
		frame = ansi.SetModeSynchronizedOutput + frame + ansi.ResetModeSynchronizedOutput
	}
	p.write(head + frame)
}

// fill brings the cells to content. Only the rows that changed are parsed again (a
// token move changes three rows of twenty-four; parsing the whole frame was 15 % of
// the server's CPU under load), and the renderer then compares only those rows with
// what the terminal shows. A style can run on from one row into the next, so a run of
// rows is drawn from a row that starts in the default style, in this frame and the
// last, to the next such row: with every row ending in a reset, as lipgloss ends them,
// that is the changed row alone.
func (p *painter) fill(content string) {
	rows := strings.Split(content, "\n")
	plain := plainStarts(rows)
	if p.rows == nil {
		p.cells.Clear()
		uv.NewStyledString(content).Draw(p.cells, p.cells.Bounds())
		p.rows, p.plain = rows, plain
		return
	}
	w, h := p.cells.Width(), p.cells.Height()
	cut := func(y int) bool { return at(plain, y, true) && at(p.plain, y, true) }
	for y := 0; y < h; {
		if at(rows, y, "") == at(p.rows, y, "") && cut(y) {
			y++
			continue
		}
		start, end := y, y+1
		for start > 0 && !cut(start) {
			start--
		}
		for end < h && (!cut(end) || at(rows, end, "") != at(p.rows, end, "")) {
			end++
		}
		var run string
		if start < len(rows) {
			run = strings.Join(rows[start:min(end, len(rows))], "\n")
		}
		uv.NewStyledString(run).Draw(p.cells, uv.Rect(0, start, w, end-start))
		y = end
	}
	p.rows, p.plain = rows, plain
}

// plainStarts tells for each row whether it starts in the default style: the row
// before ends with a reset (its last escape sequence; no hyperlink in it), or has no escape sequence and
// itself started plain. Unsure is false: the row is then drawn with the one before.
func plainStarts(rows []string) []bool {
	plain := make([]bool, len(rows)+1)
	plain[0] = true
	for i, r := range rows {
		switch {
		case strings.IndexByte(r, '\x1b') < 0:
			plain[i+1] = plain[i]
		case strings.Contains(r, "\x1b]8;"):
			plain[i+1] = false
		default: // the row's last escape sequence is a reset (spaces may follow)
			last := r[strings.LastIndexByte(r, '\x1b'):]
			plain[i+1] = strings.HasPrefix(last, "\x1b[m") || strings.HasPrefix(last, "\x1b[0m")
		}
	}
	return plain
}

// at is s[i], or def past its end.
func at[T any](s []T, i int, def T) T {
	if i < len(s) {
		return s[i]
	}
	return def
}

// close gives the terminal back as it was: the main screen, a cursor, no bracketed
// paste, no title, the keyboard as before. Called once the program has ended.
func (p *painter) close() {
	if !p.started {
		return
	}
	_, _ = p.scr.WriteString(ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1))
	p.scr.MoveTo(0, p.cells.Height()-1)
	_ = p.scr.Flush()
	p.scr.Erase()
	p.scr.SetRelativeCursor(true)
	p.scr.SetFullscreen(false)
	p.scr.RestoreCursor()
	tail := ansi.ResetModeAltScreenSaveCursor + ansi.SetModeTextCursorEnable + ansi.ResetModeBracketedPaste
	if p.title != "" {
		tail += ansi.SetWindowTitle("")
	}
	if p.cells.Method == ansi.GraphemeWidth {
		tail += ansi.ResetModeUnicodeCore
	}
	p.write(p.pending.String() + tail)
	p.pending.Reset()
}

func (p *painter) write(s string) {
	// A write error means the player has gone; the session's context ends with it.
	_, _ = io.WriteString(p.out, s)
}

// sessionEnv is the environment wish gives the program (bubbletea.MakeOptions): the
// client's variables and, with a PTY, its TERM, which decides the sequences used.
func sessionEnv(sess ssh.Session) []string {
	env := sess.Environ()
	if pty, _, ok := sess.Pty(); ok {
		env = append(env, "TERM="+pty.Term)
	}
	return env
}
