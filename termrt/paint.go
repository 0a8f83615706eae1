package termrt

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
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
// on-demand mode, so a session's model runs in parlor's own loop (program.go), which
// has no renderer, and this model wrapper draws each frame right after the update that
// changed it.
//
// Why rows, not ultraviolet's cell renderer (which Bubble Tea's renderer and an earlier
// painter used): it keeps two cell buffers per session, what the terminal shows and the
// next frame, at about 120 bytes a cell: 0.44 MiB of a session's 0.68 MiB live heap at
// 80×24, all of it pointers for the garbage collector to scan. And parsing a frame into
// cells and comparing them was a quarter of the server's CPU under load. parlor's frames
// are whole lines that lipgloss ends with a reset, so the painter keeps the rows it drew
// (its own copy of the last frame's rows) and sends each changed row whole: cursor to the
// row, the row, clear to its end. What reaches the screen is the same (a test compares
// the emulated screen cell by cell with ultraviolet's reading of the frame), for a few
// more bytes per changed row. No library draws a frame by rows; x/ansi gives the
// sequences and widths, and colorprofile lowers colours the session's palette did not.
//
// The terminal modes are the ones parlor's View asks for (alternate screen, hidden
// cursor, bracketed paste, window title) plus Bubble Tea's keyboard set-up, set on the
// first frame and undone by close.
//
// Everything here runs on the program's event loop (Update), on a renderer while the
// loop waits for it (a quick message's update and its frame), or after the loop has
// ended (close): no lock is needed. A frame not yet due is drawn by a drawMsg sent from
// a timer, so no goroutine waits per session. What a frame sends is written to the
// terminal on the loop's own goroutine: a player who stops reading blocks the write,
// and a renderer must never wait on one player.
type painter struct {
	tea.Model
	ctx context.Context
	// out is the player's terminal. Its write errors are ignored: one means the player
	// has gone, and the session's context ends with it.
	out   io.Writer
	send  func(tea.Msg)
	every time.Duration // the shortest time between two frames

	width, height int
	profile       colorprofile.Profile
	graphemes     bool         // the terminal measures graphemes whole (mode 2027)
	sized         bool         // a window size has come
	colored       bool         // the colour profile has come
	syncd         bool         // the terminal takes synchronized output (mode 2026)
	started       bool         // the terminal modes are set
	title         string       // the window title they set
	rows          []string     // the rows on screen (the painter's own copy); nil: draw the next frame whole
	plain         []bool       // plainStarts(rows)
	redraw        bool         // draw the next frame even if its content is the same
	last          time.Time    // when the last frame went out
	waiting       bool         // a drawMsg is on its way
	timer         *time.Timer  // sends it; made once and reset
	frame         bytes.Buffer // what goes to the terminal at the end of this update

	// Work on a renderer (render.go). The functions are made once: a method value
	// made at each hand-over would allocate on the session's goroutine.
	job              renderJob
	renderFn, stepFn func()
	onRenderer       bool     // this update runs on a renderer: render in place
	rendered         []string // the rows renderFn drew
	quick            tea.Msg  // the message stepFn updates with
	cmd              tea.Cmd  // and the command it gave

	stylesA, stylesB []string // sendTo's readers' styles, kept from row to row
}

// drawMsg draws a frame that was not yet due when its change came.
type drawMsg struct{}

func newPainter(ctx context.Context, m tea.Model, out io.Writer, fps int, send func(tea.Msg)) *painter {
	p := &painter{Model: m, ctx: ctx, out: out, send: send, every: time.Second / time.Duration(fps)}
	p.renderFn, p.stepFn = p.renderRows, p.stepQuick
	return p
}

func (p *painter) Init() tea.Cmd {
	// As Bubble Tea asks every terminal: does it take synchronized output (2026), and
	// does it measure graphemes as whole (2027)? The answers come as ModeReportMsg.
	p.write(ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore)
	p.flush()
	return p.Model.Init()
}

// Update updates the model with msg and draws the frame if it changed; a message the
// model takes quickly, or a frame come due, is taken on a renderer, frame and all.
func (p *painter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, quick := msg.(drawMsg)
	if pr, ok := p.Model.(Preparer); ok && !quick {
		msg, quick = pr.Prepare(msg)
	}
	var cmd tea.Cmd
	if quick {
		p.quick, p.job.run = msg, p.stepFn
		onRenderer(&p.job)
		cmd = p.cmd
		p.quick, p.cmd = nil, nil
	} else {
		cmd = p.step(msg)
	}
	p.flush()
	return p, cmd
}

// stepQuick is step with p.quick, run on a renderer.
func (p *painter) stepQuick() {
	p.onRenderer = true
	defer func() { p.onRenderer = false }()
	p.cmd = p.step(p.quick)
}

// step updates the model with msg and paints what changed into p.frame.
func (p *painter) step(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case drawMsg:
		p.waiting = false
		p.paint(true)
		return nil
	case tea.WindowSizeMsg:
		p.sized = true
		p.width, p.height = msg.Width, msg.Height
		p.redraw, p.rows = true, nil // and cleared: some terminals scroll the screen on a resize
	case tea.ColorProfileMsg:
		p.profile = msg.Profile
		p.colored, p.redraw, p.rows = true, true, nil // what is on screen has the old profile's colours
	case tea.ModeReportMsg:
		p.modeReport(msg)
	}
	var cmd tea.Cmd
	p.Model, cmd = p.Model.Update(msg)
	p.paint(false)
	return cmd
}

// flush writes what this update painted to the terminal.
func (p *painter) flush() {
	if p.frame.Len() > 0 {
		_, _ = p.out.Write(p.frame.Bytes())
		p.frame.Reset()
	}
}

// View is what a renderer would draw: nothing. The painter asks the model for its
// frame itself; a renderer that asked too (tea.Program's does, after every update, even
// without a renderer to draw it) would render a changed screen twice.
func (p *painter) View() tea.View { return tea.View{} }

func (p *painter) modeReport(msg tea.ModeReportMsg) {
	switch msg.Mode {
	case ansi.ModeSynchronizedOutput:
		p.syncd = msg.Value == ansi.ModeReset // supported, and off until a frame turns it on
	case ansi.ModeUnicodeCore:
		if msg.Value == ansi.ModeReset || msg.Value == ansi.ModeSet || msg.Value == ansi.ModePermanentlySet {
			p.write(ansi.SetModeUnicodeCore)
			p.graphemes = true
			p.redraw, p.rows = true, nil
		}
	}
}

// paint draws the frame if it changed: now if it is due (or the timer says so), else
// it has a drawMsg sent when it is. A frame not yet due is not rendered until then:
// a burst of updates (players joining a table one after another, each redrawing every
// seat's waiting room) renders a seat's frame once per frame interval, not once each.
func (p *painter) paint(due bool) {
	if p.waiting || !p.sized || !p.colored {
		return
	}
	if wait := p.every - time.Since(p.last); wait > 0 && !due {
		p.waiting = true
		if p.timer == nil {
			p.timer = time.AfterFunc(wait, p.due)
		} else {
			p.timer.Reset(wait)
		}
		return
	}
	rows := p.frameRows()
	if len(rows) > p.height {
		rows = rows[:p.height]
	}
	if slices.Equal(rows, p.rows) && !p.redraw {
		return
	}
	p.draw(rows)
}

// due sends the drawMsg of a frame that has come due (on the timer's goroutine).
func (p *painter) due() {
	if p.ctx.Err() == nil {
		p.send(drawMsg{})
	}
}

// frameRows is the model's frame as rows, rendered on a renderer.
func (p *painter) frameRows() []string {
	if p.onRenderer {
		return rowsOf(p.Model)
	}
	p.job.run = p.renderFn
	onRenderer(&p.job)
	rows := p.rendered
	p.rendered = nil
	return rows
}

func (p *painter) renderRows() { p.rendered = rowsOf(p.Model) }

// rowsOf is m's frame as rows.
func rowsOf(m tea.Model) []string {
	if f, ok := m.(Framer); ok {
		return f.Frame()
	}
	return strings.Split(m.View().Content, "\n")
}

// draw paints one frame into p.frame: the rows that differ from what the terminal
// shows. The buffer is the painter's own, kept from frame to frame (a few KB a
// session), so drawing allocates nothing once it has grown.
func (p *painter) draw(rows []string) {
	b := &p.frame
	start := b.Len()
	if p.syncd {
		b.WriteString(ansi.SetModeSynchronizedOutput)
	}
	first := !p.started
	if first {
		p.started = true
		p.title = p.Model.View().WindowTitle
		// What parlor's View asks for (the alternate screen, no cursor, bracketed
		// paste, its title: the same on every frame, so set once) and Bubble Tea's
		// keyboard set-up (modifyOtherKeys, Kitty's key disambiguation).
		b.WriteString(ansi.ResetModifyOtherKeys + ansi.SetModeAltScreenSaveCursor + ansi.ResetModeTextCursorEnable +
			ansi.SetModeBracketedPaste + ansi.SetWindowTitle(p.title) +
			ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(ansi.KittyDisambiguateEscapeCodes) + ansi.RequestKittyKeyboard)
	}
	before := b.Len()
	p.rowsTo(b, rows)
	p.redraw, p.last = false, time.Now()
	if b.Len() == before && !first {
		b.Truncate(start) // no row changed
		return
	}
	if p.syncd {
		b.WriteString(ansi.ResetModeSynchronizedOutput)
	}
}

// rowsTo writes to b what brings the screen from p.rows to rows (at most the window's
// height of them), and keeps a copy of rows as the ones on screen.
//
// A row is sent again when it changed, or when the style it starts in may have: a style
// can run on from one row into the next, so a row that does not start in the default
// style (plainStarts) is sent again whenever a row above it, back to one that starts
// plain in both frames, was. Each row sent starts from a reset plus the styles that run
// into it, and ends with a reset, so what it clears and what follows is unstyled.
func (p *painter) rowsTo(b *bytes.Buffer, rows []string) {
	plain := plainStarts(rows)
	whole := p.rows == nil
	if whole {
		b.WriteString(ansi.ResetStyle + ansi.EraseEntireScreen)
	}
	carried := false // the style a row starts in differs from the last frame's
	for y := range p.height {
		row, old := at(rows, y, ""), at(p.rows, y, "")
		sameStart := !carried || (at(plain, y, true) && at(p.plain, y, true))
		changed := row != old || !sameStart
		carried = changed
		carriedIn := !at(plain, y, true)
		if !whole && !changed || whole && plainTail(row, carriedIn) == 0 { // a cleared screen has its blank rows
			continue
		}
		if !whole && sameStart && !carriedIn && at(p.plain, y, true) {
			if off, col, style, ok := p.sendFrom(row, old); ok {
				// The row starts as it did: only what follows its common start is sent,
				// and of that only up to where it ends as it did, if it does.
				if col < p.width {
					b.WriteString(ansi.CursorPosition(col+1, y+1))
					if end, ok := p.sendTo(row, old, off, col, style); ok {
						p.spanTo(b, style+row[off:end])
					} else {
						p.rowTo(b, style+row[off:], false, col)
					}
				}
				continue
			}
		}
		b.WriteString(ansi.CursorPosition(1, y+1))
		if carriedIn {
			b.WriteString(ansi.ResetStyle)
			styleInto(b, rows, plain, y)
		}
		p.rowTo(b, row, carriedIn, 0)
	}
	// A copy: the model may change its rows in place (a countdown's line), and these
	// must stay what the terminal shows.
	p.rows, p.plain = append(p.rows[:0], rows...), plain
}

// sendFrom is where row may be sent from when the terminal shows old in its place, both
// starting in the default style: off, a byte offset of row, at column col, and style,
// the style sequences before it (since the last reset), which set the style row has
// there. What comes before off is the same in both, so the cells it drew stay as they
// are. ok is false when the row must be sent whole: nothing in common, or a sequence
// other than a style (a hyperlink) before the point.
//
// A point is taken only before a printable character that old has there too: then it
// starts a character in old as well (a character's bounds depend on what comes before
// it and on itself), and it is not a combining mark, which a terminal would put on the
// cell before the cursor. A token's move changes a few cells of a row of eighty; sending
// the row from its first change on halves what a move costs the wire and the players'
// terminals, and the parse here is the width measure rowTo no longer makes of that part.
func (p *painter) sendFrom(row, old string) (off, col int, style string, ok bool) {
	common := 0
	for common < len(row) && common < len(old) && row[common] == old[common] {
		common++
	}
	r := rowReader{s: row, graphemes: p.graphemes}
	var kept []string // the style sequences before the point
	for r.i < common {
		i, x, styles := r.i, r.col, r.styles
		if !r.next() {
			return 0, 0, "", false // a hyperlink, or anything else that is not a style
		}
		if r.i >= common {
			break // not wholly in common: nothing after it is
		}
		if r.col > x && i > 0 { // a character with a width
			off, col, kept, ok = i, x, styles, true
		}
	}
	return off, col, strings.Join(kept, ""), ok
}

// sendTo is where a row sent from off (at column col, in style, found by sendFrom) may
// stop, when the terminal shows old in its place: end, a byte offset of row, after which
// row is old's end byte for byte, in the same column and the same style, so the cells
// it drew stay as they are. ok is false when the row must be sent to its end: no such
// end, one past the window's edge, or a sequence other than a style in either row.
//
// The two rows are read from off, each up to their common end; from the first point
// where both are at the same place of it (a character or sequence begins there in both),
// they read alike, and the end is the first such point where both are in the same column
// and the same style, before a character with a width (a combining mark would join the
// cell before it, which changed). A token's move changes a cell or two of a board row;
// without this, the rest of the row (the board's far side, the panel beside it) went
// again with it, most of what a move sent.
func (p *painter) sendTo(row, old string, off, col int, style string) (end int, ok bool) {
	common := 0 // bytes the two rows end with, after the common start
	for common < len(row)-off && common < len(old)-off && row[len(row)-1-common] == old[len(old)-1-common] {
		common++
	}
	if common == 0 {
		return 0, false
	}
	from, shift := len(row)-common, len(old)-len(row) // shift: old's offset of a point of row's common end
	a := rowReader{s: row, i: off, col: col, styles: p.stylesA[:0], graphemes: p.graphemes}
	b := rowReader{s: old, i: off, col: col, styles: p.stylesB[:0], graphemes: p.graphemes}
	if style != "" { // what both rows set before off, since their last reset
		a.styles, b.styles = append(a.styles, style), append(b.styles, style)
	}
	defer func() { // keep the larger buffers (a reset starts a reader's next run further on)
		if cap(a.styles) > cap(p.stylesA) {
			p.stylesA = a.styles[:0]
		}
		if cap(b.styles) > cap(p.stylesB) {
			p.stylesB = b.styles[:0]
		}
	}()
	for a.i < from || b.i < from+shift || a.i+shift != b.i {
		r := &a
		if b.i < from+shift || a.i+shift > b.i {
			r = &b
		}
		if !r.next() {
			return 0, false
		}
	}
	for a.i < len(row) && a.col <= p.width {
		if a.col != b.col {
			return 0, false // the same bytes follow: the columns never meet
		}
		if slices.Equal(a.styles, b.styles) && startsWithWidth(row[a.i:], p.graphemes) {
			return a.i, a.i > off
		}
		if !a.next() || !b.next() {
			return 0, false
		}
	}
	return 0, false
}

// rowReader reads a row a character or an escape sequence at a time, keeping the
// column and the style sequences in effect (those since the last reset).
type rowReader struct {
	s         string
	i, col    int
	styles    []string
	state     byte
	graphemes bool
}

// next reads past one character or sequence; false at the row's end, a control
// character, or a sequence other than a style.
func (r *rowReader) next() bool {
	if r.i >= len(r.s) {
		return false
	}
	if c := r.s[r.i]; r.state == 0 && c >= ' ' && c < 0x7f && (r.i+1 == len(r.s) || r.s[r.i+1] < 0x80) {
		r.i, r.col = r.i+1, r.col+1 // an ASCII character before another: a column of its own
		return true
	}
	decode := ansi.DecodeSequenceWc[string]
	if r.graphemes {
		decode = ansi.DecodeSequence[string]
	}
	seq, w, n, next := decode(r.s[r.i:], r.state, nil)
	switch {
	case seq[0] >= ' ' && seq[0] != 0x7f: // a character
		r.col += w
	case seq == ansi.ResetStyle || seq == "\x1b[0m":
		// A run of its own after the last: what a caller kept of the last stays as it was.
		r.styles = r.styles[len(r.styles):]
	case isStyle(seq):
		r.styles = append(r.styles, seq)
	default:
		return false
	}
	r.i, r.state = r.i+n, next
	return true
}

// startsWithWidth tells whether the first character of s, past any escape sequences,
// takes a column (or s has none).
func startsWithWidth(s string, graphemes bool) bool {
	decode := ansi.DecodeSequenceWc[string]
	if graphemes {
		decode = ansi.DecodeSequence[string]
	}
	var state byte
	for len(s) > 0 {
		seq, w, n, next := decode(s, state, nil)
		if w > 0 {
			return true
		}
		if seq == "" || seq[0] != '\x1b' { // a character without a width
			return false
		}
		s, state = s[n:], next
	}
	return true
}

// spanTo writes span, the part of a row that changed, at the cursor; it fits in the
// window (sendTo), and the cells after it stay. Style sequences at its end, which set a
// style for nothing, are left out, and a style in effect at its end is reset.
func (p *painter) spanTo(b *bytes.Buffer, span string) {
	for {
		i := strings.LastIndexByte(span, '\x1b')
		if i < 0 || span[i:] == ansi.ResetStyle || span[i:] == "\x1b[0m" || !isStyle(span[i:]) {
			break
		}
		span = span[:i]
	}
	if strings.IndexByte(span, '\x1b') >= 0 && p.lowers(span) {
		_, _ = (&colorprofile.Writer{Forward: b, Profile: p.profile}).WriteString(span)
	} else {
		b.WriteString(span)
	}
	if strings.IndexByte(span, '\x1b') >= 0 && !strings.HasSuffix(span, ansi.ResetStyle) && !strings.HasSuffix(span, "\x1b[0m") {
		b.WriteString(ansi.ResetStyle)
	}
}

// isStyle tells whether seq is one style sequence (SGR) and nothing else.
func isStyle(seq string) bool {
	if !strings.HasPrefix(seq, "\x1b[") || !strings.HasSuffix(seq, "m") {
		return false
	}
	return strings.Trim(seq[2:len(seq)-1], "0123456789;:") == ""
}

// rowTo writes one row at the cursor, which is at column col, cut to the window's
// width, and clears the rest of the line unstyled (when the row is narrower). carriedIn: a style from the rows
// above was set before it.
func (p *painter) rowTo(b *bytes.Buffer, row string, carriedIn bool, col int) {
	width, truncate := ansi.StringWidthWc, ansi.TruncateWc
	if p.graphemes {
		width, truncate = ansi.StringWidth, ansi.Truncate
	}
	room := p.width - col
	w := width(row)
	if w > room {
		// Cut to the room. Where a wide character did not fit in the last column, that
		// column is a blank in the style in effect there, as the whole frame has it (an
		// underline or a background shows): Truncate writes its tail at the cut.
		cut := truncate(row, room, "")
		if width(cut) < room {
			cut = truncate(row, room, " ")
		}
		row, w = cut, room
	}
	if cut := plainTail(row, carriedIn); cut < len(row) {
		row, w = row[:cut], -1 // less than the width: the line is erased from here
	}
	styled := strings.IndexByte(row, '\x1b') >= 0
	if styled && p.lowers(row) {
		_, _ = (&colorprofile.Writer{Forward: b, Profile: p.profile}).WriteString(row)
	} else {
		b.WriteString(row)
	}
	if styled || carriedIn {
		if !strings.HasSuffix(row, ansi.ResetStyle) && !strings.HasSuffix(row, "\x1b[0m") {
			b.WriteString(ansi.ResetStyle) // most rows end in one: lipgloss ends its styles
		}
		if carriedIn || strings.Contains(row, "\x1b]8;") {
			b.WriteString(ansi.ResetHyperlink())
		}
	}
	if w < room { // a full row leaves the cursor waiting to wrap: clearing would take its last cell
		b.WriteString(ansi.EraseLineRight)
	}
}

// plainTail is where row's trailing blanks in the default style begin (len(row) if it
// has none, so a row cut short by it is narrower than it was): spaces after its last
// escape sequence when that is a reset, or in a row with none that starts plain, and any
// resets after them. The session pads every row to the window's width, and erasing the
// rest of the line draws those blanks in 3 bytes: in a first frame or a redraw they were
// most of the bytes. Spaces in any other style, or in a row with a hyperlink, are kept:
// they may show (reverse video, a background).
func plainTail(row string, carriedIn bool) int {
	end := len(row)
	for {
		if strings.HasSuffix(row[:end], ansi.ResetStyle) {
			end -= len(ansi.ResetStyle)
		} else if strings.HasSuffix(row[:end], "\x1b[0m") {
			end -= len("\x1b[0m")
		} else {
			break
		}
	}
	cut := len(strings.TrimRight(row[:end], " "))
	if cut == end || strings.Contains(row, "\x1b]8;") { // no blanks, or maybe a link's
		return len(row)
	}
	esc := strings.LastIndexByte(row[:cut], '\x1b')
	switch {
	case esc < 0 && !carriedIn:
	case esc >= 0 && (strings.HasPrefix(row[esc:], ansi.ResetStyle) || strings.HasPrefix(row[esc:], "\x1b[0m")):
	default:
		return len(row)
	}
	return cut
}

// lowers tells whether row has a colour the terminal's profile must lower. parlor's
// session already draws its palette in the profile's own forms (gameui.Recolor), so most rows
// have none; the test is by the SGR parameters that introduce a colour of a higher
// profile, and a false yes only costs a parse.
func (p *painter) lowers(row string) bool {
	switch {
	case p.profile >= colorprofile.TrueColor:
		return false
	case p.profile == colorprofile.ANSI256:
		return strings.Contains(row, "8;2;") || strings.Contains(row, "8:2:")
	case p.profile == colorprofile.ANSI:
		return strings.Contains(row, "8;") || strings.Contains(row, "8:")
	}
	return true // no colours at all
}

// styleInto writes the style sequences (SGR and hyperlinks) of the rows above y back
// to the nearest that starts plain: applied in order after a reset, they leave the
// terminal in the style row y starts in.
func styleInto(b *bytes.Buffer, rows []string, plain []bool, y int) {
	from := y - 1
	for from > 0 && !plain[from] {
		from--
	}
	parser := ansi.GetParser()
	defer ansi.PutParser(parser)
	for _, r := range rows[from:y] {
		var state byte
		for len(r) > 0 {
			parser.Reset()
			seq, _, n, next := ansi.DecodeSequence(r, state, parser)
			if ansi.HasCsiPrefix(seq) && parser.Command() == 'm' || ansi.HasOscPrefix(seq) && parser.Command() == 8 {
				b.WriteString(seq)
			}
			r, state = r[n:], next
		}
	}
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

// close gives the terminal back as it was: the main screen and the cursor where they
// were (mode 1049 saved it), a cursor shown, no bracketed paste, no title, the keyboard
// as before. Called once the program has ended.
func (p *painter) close() {
	if p.timer != nil {
		p.timer.Stop()
	}
	if !p.started {
		return
	}
	tail := ansi.ResetStyle + ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1) +
		ansi.ResetModeAltScreenSaveCursor + ansi.SetModeTextCursorEnable + ansi.ResetModeBracketedPaste
	if p.title != "" {
		tail += ansi.SetWindowTitle("")
	}
	if p.graphemes {
		tail += ansi.ResetModeUnicodeCore
	}
	p.write(tail)
	p.flush()
}

// write adds s to what this update sends.
func (p *painter) write(s string) { p.frame.WriteString(s) }
