package termrt

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// keyReader reads a player's input from the SSH channel and sends it to the program as
// ultraviolet events, which the program turns into Bubble Tea's key, paste and report
// messages as tea.Program does for its own reader's events (program.go, translate).
//
// Why not Bubble Tea's reader: it builds ultraviolet's table of key sequences
// (buildKeysTable) for every program: 134 KB of maps and strings per session, the same
// in all of them. Once the painter had dropped its cell buffers that was 60 % of a
// session's live heap, which every garbage collection marks, and those collections
// were what held up the 3,000- and 5,000-player runs (docs/performance.md); building
// it was 13 % of the server's CPU per login. The table only speeds up sequences that
// ultraviolet's EventDecoder parses anyway (and adds terminfo's, which parlor's
// players, on xterm-like terminals, do not need). ultraviolet exports no reader without
// it, so this is the loop around the library's EventDecoder that its reader has: an
// escape alone, or the start of a sequence, waits EscTimeout for the rest, and a
// bracketed paste is gathered into one PasteEvent. It runs on one goroutine where
// Bubble Tea's reader used two.
type keyReader struct {
	send func(tea.Msg)
	dec  uv.EventDecoder

	// plainPastes tells apart a paste from a terminal that does not bracket pastes
	// (unbracketed); readKeys sets it. Without it the events are exactly ultraviolet's.
	plainPastes bool
	pastedAt    time.Time // when the last unbracketed paste came

	mu      sync.Mutex
	pending []byte // read, not yet an event: the start of a sequence
	paste   []byte // a bracketed paste being gathered; nil outside one
	timer   *time.Timer
}

const (
	// maxPending bounds a sequence that never ends (an OSC without its terminator):
	// past it, what is held is taken as it is.
	maxPending = 64 << 10
	// maxPaste bounds a paste; what comes after is dropped. No text box takes more.
	maxPaste = 64 << 10
)

// readKeys reads r until it ends (the channel closed with the session) and sends
// every event to send.
func readKeys(r io.Reader, send func(tea.Msg)) {
	(&keyReader{send: send, plainPastes: true}).read(r)
}

func (k *keyReader) read(r io.Reader) {
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			k.take(buf[:n])
		}
		if err != nil { // the input ended: what waited for more is taken as it is
			k.mu.Lock()
			if k.timer != nil {
				k.timer.Stop()
			}
			k.scan(true)
			k.mu.Unlock()
			return
		}
	}
}

// take adds what was read and sends the events it completes; what may be the start of
// a longer sequence waits for more input, or for EscTimeout.
func (k *keyReader) take(b []byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.plainPastes && k.paste == nil && len(k.pending) == 0 {
		if lead, text, trail, ok := k.unbracketed(b); ok {
			// Keys before the text and the line ends after it stay keys, as typed:
			// "ctrl+u, Bob, enter" sent at once (a script, a fast typist) still clears
			// the box, fills it and sends it; only the text is kept from acting as keys.
			k.keys(lead)
			k.pastedAt = time.Now()
			k.send(uv.PasteStartEvent{})
			k.send(uv.PasteEvent{Content: strings.ToValidUTF8(string(text), "")})
			k.send(uv.PasteEndEvent{})
			k.keys(trail)
			return
		}
	}
	k.keys(b)
}

// keys decodes b as keys (and sequences), what may be the start of a longer sequence
// waiting for more input, or for EscTimeout; k.mu is held.
func (k *keyReader) keys(b []byte) {
	if len(b) == 0 {
		return
	}
	k.pending = append(k.pending, b...)
	k.scan(len(k.pending) > maxPending)
	switch {
	case len(k.pending) == 0:
		if k.timer != nil {
			k.timer.Stop()
		}
	case k.timer == nil:
		k.timer = time.AfterFunc(uv.DefaultEscTimeout, k.expire)
	default:
		k.timer.Reset(uv.DefaultEscTimeout)
	}
}

// pasteGap is how soon after an unbracketed paste more plain text is taken as the rest
// of it: a terminal sends a long paste in pieces at once (a server slow to read gets
// them in one read anyway), and nobody types a key that soon after pasting.
const pasteGap = 10 * time.Millisecond

// unbracketed tells whether b, one read of plain text (no escape sequence in it), holds
// a paste from a terminal that does not mark pastes (bracketed paste, which parlor asks
// for): text of two different characters or more that is long (pasteMin characters) or
// goes on after a line end, or text right after such a paste. Typed as keys, a paste's
// letters would be taken as the screen's keys ("s" starts the game, "b" adds a bot) and
// its line ends would send what came before them. A terminal sends each key as it is
// pressed, but a server slow to read (under load, or the race detector's tests) gets
// several in one read: a held key ("llll", to move), enter pressed twice, a few keys
// typed fast ("12" to rank). Those stay keys: they are short, or one key repeated. So
// a short paste of one line is still typed as keys, as it would be with no rule.
// lead is the keys before the text (ctrl+u, backspace) and trail the line ends after
// one line of text, which stay keys; text is the paste.
func (k *keyReader) unbracketed(b []byte) (lead, text, trail []byte, ok bool) {
	if bytes.IndexByte(b, ansi.ESC) >= 0 {
		return nil, nil, nil, false
	}
	control := func(r rune) bool { return r < ' ' || r == 0x7f } // enter, tab, backspace, ctrl+key
	start := bytes.IndexFunc(b, func(r rune) bool { return !control(r) })
	if start < 0 {
		return nil, nil, nil, false // keys only
	}
	if time.Since(k.pastedAt) < pasteGap {
		return nil, b, nil, true // the rest of a paste
	}
	end := len(bytes.TrimRight(b, "\r\n"))
	text = b[start:end]
	var first rune = -1
	printable, mixed := 0, false
	for _, r := range string(text) {
		if control(r) {
			continue
		}
		if first < 0 {
			first = r
		}
		printable++
		mixed = mixed || r != first
	}
	lines := bytes.ContainsAny(text, "\r\n")
	if !mixed || printable < pasteMin && !lines {
		return nil, nil, nil, false
	}
	if lines {
		// Lines of text: the line end after the last is the paste's too, or it would
		// send or submit what the paste was not meant for.
		return b[:start], b[start:], nil, true
	}
	return b[:start], text, b[end:], true
}

// pasteMin is how many characters in one read make a paste of one line: more than a
// player types while a busy server does not read.
const pasteMin = 8

// expire takes what waited as it is: no more of it came in time.
func (k *keyReader) expire() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.scan(true)
}

// scan sends the events in pending. Unless expired, it stops at one that more input
// could change: an escape with at most one byte after it (esc alone, or alt+key, may
// be the start of a sequence) or a sequence the decoder does not know yet.
func (k *keyReader) scan(expired bool) {
	buf := k.pending
	for len(buf) > 0 {
		n, ev := k.dec.Decode(buf)
		if n == 0 {
			break
		}
		_, unknown := ev.(uv.UnknownEvent)
		if !expired && (unknown || buf[0] == ansi.ESC && n <= 2) {
			break
		}
		k.event(ev, buf[:n])
		buf = buf[n:]
	}
	k.pending = append(k.pending[:0], buf...)
}

// event sends one decoded event, or adds it to the paste being gathered. seq is the
// input it was decoded from.
func (k *keyReader) event(ev uv.Event, seq []byte) {
	if k.paste != nil {
		switch ev := ev.(type) {
		case uv.PasteEndEvent:
			k.send(uv.PasteEvent{Content: strings.ToValidUTF8(string(k.paste), "")})
			k.paste = nil
			k.send(ev)
		case uv.KeyPressEvent: // text, or a key such as enter or tab as it was typed
			if len(k.paste) < maxPaste {
				if ev.Text != "" {
					k.paste = append(k.paste, ev.Text...)
				} else {
					k.paste = append(k.paste, seq...)
				}
			}
		}
		return // anything else inside a paste is not part of it
	}
	switch ev := ev.(type) {
	case nil:
	case uv.PasteStartEvent:
		k.paste = []byte{}
		k.send(ev)
	case uv.MultiEvent:
		for _, e := range ev {
			k.send(e)
		}
	default:
		k.send(ev)
	}
}
