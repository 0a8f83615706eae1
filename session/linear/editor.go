package linear

import (
	"bufio"
	"context"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// maxLine bounds a typed line; a story is the longest thing a player types.
const maxLine = 2000

// editor reads typed lines. Without a terminal (plain `ssh host plain`) the player's own
// terminal edits and echoes the line, and the door reads whole lines. With one (ssh -t,
// or a client that always asks for it) nothing echoes but the door: it echoes each
// character and takes back a backspace, and what the table says meanwhile is written on
// a line of its own with the line being typed written again after it, so no typing is
// lost among the events. A backspace goes back with a plain BS character, never an
// escape sequence, so the output stays appended lines. Hand-written: bubbles' textinput
// redraws its line in place, which is what this mode must not do.
type editor struct {
	echo bool
	mu   sync.Mutex
	buf  []rune // the line being typed (echo only)
}

func newEditor(echo bool) *editor { return &editor{echo: echo} }

// read sends each typed line until the input ends or ctx does; then it closes lines.
func (e *editor) read(ctx context.Context, in io.Reader, lines chan<- string, write func(string)) {
	defer close(lines)
	r := bufio.NewReaderSize(in, 4096)
	send := func(s string) bool {
		select {
		case lines <- s:
			return true
		case <-ctx.Done():
			return false
		}
	}
	if !e.echo {
		for {
			s, err := r.ReadString('\n')
			if len(s) > maxLine {
				s = s[:maxLine]
			}
			if s != "" && !send(strings.TrimRight(s, "\r\n")) {
				return
			}
			if err != nil {
				return
			}
		}
	}
	lastCR := false
	for {
		c, _, err := r.ReadRune()
		if err != nil {
			return
		}
		if c == '\n' && lastCR { // "\r\n" is one Enter
			lastCR = false
			continue
		}
		lastCR = c == '\r'
		switch {
		case c == '\r' || c == '\n':
			e.mu.Lock()
			s := string(e.buf)
			e.buf = e.buf[:0]
			e.mu.Unlock()
			write("\n")
			if !send(s) {
				return
			}
		case c == 0x7f || c == 0x08:
			e.mu.Lock()
			back := len(e.buf) > 0
			if back {
				e.buf = e.buf[:len(e.buf)-1]
			}
			e.mu.Unlock()
			if back {
				write("\b \b")
			}
		case c == 0x03 || c == 0x04: // ctrl+c, ctrl+d: as the end of the input
			return
		case c == 0x1b:
			// An escape sequence (an arrow key): read and dropped whole.
			skipEscape(r)
		case c == 0x15: // ctrl+u: the line is dropped, and said so on a new line
			e.mu.Lock()
			e.buf = e.buf[:0]
			e.mu.Unlock()
			write("\n")
		case unicode.IsPrint(c) && c != utf8.RuneError:
			e.mu.Lock()
			if len(e.buf) < maxLine {
				e.buf = append(e.buf, c)
				e.mu.Unlock()
				write(string(c))
				continue
			}
			e.mu.Unlock()
		}
	}
}

// skipEscape reads the rest of an escape sequence the terminal sent (CSI or SS3).
func skipEscape(r *bufio.Reader) {
	if r.Buffered() == 0 {
		return
	}
	c, _ := r.ReadByte()
	if c != '[' && c != 'O' {
		return
	}
	for r.Buffered() > 0 {
		b, _ := r.ReadByte()
		if b >= 0x40 && b <= 0x7e {
			return
		}
	}
}

// printAbove writes s, which is whole lines or a piece of the typed line's echo. Whole
// lines arriving while a line is half typed go on a line of their own, and the half
// typed line follows them again.
func (e *editor) printAbove(w io.Writer, s string) {
	e.mu.Lock()
	typing := e.echo && len(e.buf) > 0 && strings.HasSuffix(s, "\n") && s != "\n"
	again := string(e.buf)
	e.mu.Unlock()
	if typing {
		s = "\n" + s + again
	}
	_, _ = io.WriteString(w, s)
}
