package termrt

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// inputs is what a player's terminal may send: text, wide and accented letters, keys
// with and without modifiers in the encodings parlor's terminal set-up asks for, an
// escape, alt+letter, a bracketed paste with a newline and an escape sequence in it,
// and the terminal's answers to the painter's queries.
var inputs = []string{
	"a", "Zq", "é", "中", "🎲", "\r", "\t", "\x7f", "\x03", " ",
	"\x1b[A", "\x1b[1;5C", "\x1b[1;2D", "\x1bOP", "\x1b[5~", "\x1b[3;3~", "\x1b[97;5u", "\x1b[27;5;13~",
	"\x1bx", "\x1b[I",
	"\x1b[200~two\r\nlines \x1b[31mand é\x1b[201~",
	"\x1b[?2026;2$y", "\x1b[?2027;1$y", "\x1b[?1u",
}

// readAll sends chunks through read, then a focus-out report that ends the input, and
// gathers the events before it. (No chunk list ends with an escape alone, which would
// wait for more.)
func readAll(t *testing.T, chunks []string, read func(io.Reader, chan<- any)) []any {
	t.Helper()
	r, w := io.Pipe()
	defer w.Close()
	events := make(chan any, 1024)
	go read(r, events)
	for _, c := range append(chunks, "\x1b[O") {
		if _, err := io.WriteString(w, c); err != nil {
			t.Fatal(err)
		}
	}
	var got []any
	for {
		select {
		case e := <-events:
			if _, end := e.(uv.BlurEvent); end {
				return got
			}
			got = append(got, e)
		case <-time.After(10 * time.Second):
			t.Fatalf("the input %q never ended; events so far: %v", chunks, got)
		}
	}
}

func describe(events []any) string {
	var b strings.Builder
	for _, e := range events {
		fmt.Fprintf(&b, "%T %+v\n", e, e)
	}
	return b.String()
}

// ourReader is the key reader without telling unbracketed pastes apart, which
// ultraviolet's reader does not do.
func ourReader(r io.Reader, events chan<- any) {
	(&keyReader{send: func(m tea.Msg) { events <- m }}).read(r)
}

func theirReader(r io.Reader, events chan<- any) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := make(chan uv.Event, 1024)
	go func() {
		for {
			select {
			case e := <-evs:
				events <- e
			case <-ctx.Done():
				return
			}
		}
	}()
	_ = uv.NewTerminalReader(r, "xterm-256color").StreamEvents(ctx, evs)
}

// The reader gives the events ultraviolet's own reader (Bubble Tea's) gives, for input
// in one piece or in pieces of any size, down to single bytes.
func TestKeyReaderGivesWhatUltravioletsReaderGives(t *testing.T) {
	t.Parallel() // sixty rounds of random input, on no shared state
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 60 {
		var in strings.Builder
		for range 1 + rng.IntN(8) {
			in.WriteString(inputs[rng.IntN(len(inputs))])
		}
		whole := in.String()
		want := describe(readAll(t, []string{whole}, theirReader))
		if len(want) == 0 {
			t.Fatalf("round %d: ultraviolet's reader gave nothing for %q", round, whole)
		}
		var pieces []string
		for rest := whole; rest != ""; {
			n := min(len(rest), 1+rng.IntN(4))
			pieces, rest = append(pieces, rest[:n]), rest[n:]
		}
		for _, chunks := range [][]string{{whole}, pieces} {
			if got := describe(readAll(t, chunks, ourReader)); got != want {
				t.Fatalf("round %d, input %q in %d pieces:\ngot\n%s\nultraviolet's reader gives\n%s",
					round, whole, len(chunks), got, want)
			}
		}
	}
}

// An escape alone is the escape key once nothing follows it in time, and a paste that
// never ends, or a sequence that never ends, does not grow without bound.
func TestKeyReaderEscapeAloneAndBounds(t *testing.T) {
	for _, ends := range []bool{false, true} { // the input stays open, or ends after it
		r, w := io.Pipe()
		events := make(chan tea.Msg, 1)
		go readKeys(r, func(m tea.Msg) { events <- m })
		_, _ = io.WriteString(w, "\x1b")
		if ends {
			_ = w.Close()
		}
		select {
		case e := <-events:
			if k, ok := e.(uv.KeyPressEvent); !ok || k.Code != uv.KeyEscape || k.Mod != 0 {
				t.Fatalf("an escape alone gave %T %+v, want the escape key", e, e)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("an escape alone gave nothing (input ended: %v)", ends)
		}
		_ = w.Close()
	}

	r, w := io.Pipe()
	defer w.Close()
	k := &keyReader{send: func(tea.Msg) {}}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if err != nil {
				return
			}
			k.take(buf[:n])
		}
	}()
	_, _ = io.WriteString(w, "\x1b[200~")
	_, _ = io.WriteString(w, strings.Repeat("x", 4*maxPaste))
	_, _ = io.WriteString(w, "\x1b]0;"+strings.Repeat("y", 4*maxPending)) // an OSC without its end
	k.mu.Lock()
	paste, pending := len(k.paste), len(k.pending)
	k.mu.Unlock()
	if paste > maxPaste+4096 || pending > maxPending+4096 {
		t.Fatalf("the paste holds %d bytes (bound %d) and the unfinished sequence %d (bound %d)", paste, maxPaste, pending, maxPending)
	}
}

// A terminal that does not bracket pastes sends a pasted text as if typed, but all at
// once: text of two different characters that is long, or goes on after a line end, is
// a paste, as is the text that follows right after it, so that no part of it runs as
// the screen's keys. The keys before the text and the line ends after it stay keys (a
// script's "ctrl+u, Zed Zeppelin, enter" in one write works as typed). Keys typed one
// at a time, or a few in one read from a server slow to read, a held key, enter pressed
// twice and keys sent as sequences stay keys.
func TestKeyReaderTellsUnbracketedPastes(t *testing.T) {
	keys := func(events []any) (n int) {
		for _, e := range events {
			if _, ok := e.(uv.KeyPressEvent); ok {
				n++
			}
		}
		return n
	}
	pasted := func(events []any) string {
		var b strings.Builder
		for _, e := range events {
			if p, ok := e.(uv.PasteEvent); ok {
				b.WriteString(p.Content)
			}
		}
		return b.String()
	}
	read := func(r io.Reader, events chan<- any) { readKeys(r, func(m tea.Msg) { events <- m }) }

	for _, c := range []struct {
		in     []string
		keys   int
		pasted string
	}{
		// Three lines, the last in a read of its own: all paste, their line ends too.
		{[]string{"good luck all\rm12345\r", "bbb nice\r"}, 0, "good luck all\rm12345\rbbb nice\r"},
		{[]string{"thanks, see you\r"}, 1, "thanks, see you"}, // one line, and its enter
		{[]string{"gl\rhf"}, 0, "gl\rhf"},                     // two short lines
		{[]string{"\x15Zed Zeppelin\r"}, 2, "Zed Zeppelin"},   // ctrl+u, a name, enter
	} {
		got := readAll(t, c.in, read)
		if keys(got) != c.keys || pasted(got) != c.pasted {
			t.Errorf("%q gave %d keys and the paste %q, want %d and %q:\n%s", c.in, keys(got), pasted(got), c.keys, c.pasted, describe(got))
		}
	}
	for _, typed := range [][]string{
		{"h", "i", "\r", "m", "1"}, // typed one key at a time
		{"a\r"},                    // a key and enter in one read
		{"12"}, {"m12345"},         // a few keys in one read
		{"\x15Bob\r"},    // ctrl+u, a short name, enter
		{"llllllllllll"}, // a key held while the server was slow to read
		{"\r\r"},         // enter twice
		{"\x1b[A\rx"},    // an arrow key among them
	} {
		got := readAll(t, typed, read)
		want := len(strings.Join(typed, ""))
		if typed[0] == "\x1b[A\rx" {
			want = 3
		}
		if keys(got) != want || pasted(got) != "" {
			t.Errorf("%q gave %d keys, want %d:\n%s", typed, keys(got), want, describe(got))
		}
	}
	if got := readAll(t, []string{"\x1b[200~a\rb\x1b[201~"}, read); pasted(got) != "a\rb" {
		t.Errorf("a bracketed paste gave:\n%s", describe(got))
	}
}
