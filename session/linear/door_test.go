package linear

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"parlor/lobby"
)

func TestNewLinesSaysOnlyWhatFollows(t *testing.T) {
	for _, tc := range []struct {
		old, log, want []string
	}{
		{nil, []string{"a", "b"}, []string{"a", "b"}},
		{[]string{"a", "b"}, []string{"a", "b"}, nil},
		{[]string{"a", "b", "c"}, []string{"b", "c", "d"}, []string{"d"}},      // the view keeps the last few
		{[]string{"x", "x"}, []string{"x", "x", "x"}, []string{"x"}},           // the same words again are new
		{[]string{"a", "b"}, []string{"c", "d"}, []string{"c", "d"}},           // nothing in common: all new
		{[]string{"a", "b", "c"}, []string{"c", "d", "e"}, []string{"d", "e"}}, // a burst
	} {
		got := newLines(tc.old, tc.log)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("newLines(%q, %q) = %q, want %q", tc.old, tc.log, got, tc.want)
		}
	}
}

func TestChatBurstIsSummarised(t *testing.T) {
	d := New(Options{})
	var chat []lobby.ChatLine
	for i := 1; i <= 7; i++ {
		chat = append(chat, lobby.ChatLine{ID: i, From: "Ann", Seat: 0, Text: fmt.Sprintf("line %d", i)})
	}
	got := d.chatEvents(chat[:2])
	if want := "Ann says: line 1|Ann says: line 2"; strings.Join(got, "|") != want {
		t.Fatalf("two lines: %q, want %q", got, want)
	}
	got = d.chatEvents(chat) // five new ones: three said, two counted
	want := "Ann says: line 3|Ann says: line 4|Ann says: line 5|2 more chat lines; type chat to hear the last ones."
	if strings.Join(got, "|") != want {
		t.Fatalf("a burst: %q, want %q", got, want)
	}
	if got := d.chatEvents(chat); got != nil {
		t.Fatalf("the same lines again: %q", got)
	}
	// Four new lines are said one by one: a count would be no shorter.
	more := append(chat, lobby.ChatLine{ID: 8, Seat: -2, Text: "Ben sits down."}, lobby.ChatLine{ID: 9, From: "Ben", Text: "hi"},
		lobby.ChatLine{ID: 10, From: "Ben", Text: "a"}, lobby.ChatLine{ID: 11, From: "Ben", Text: "b"})
	if got := d.chatEvents(more); len(got) != 4 || got[0] != "Ben sits down." {
		t.Fatalf("four lines: %q", got)
	}
}

func TestTimeLeftInWords(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		90 * time.Second:         "(1 minute 30 seconds left.)",
		2 * time.Minute:          "(2 minutes left.)",
		1 * time.Second:          "(1 second left.)",
		-5 * time.Second:         "(0 seconds left.)",
		59400 * time.Millisecond: "(59 seconds left.)",
	} {
		if got := timeLeft(now.Add(d), now); got != want {
			t.Errorf("timeLeft(%s) = %q, want %q", d, got, want)
		}
	}
	if got := timeLeft(time.Time{}, now); got != "" {
		t.Errorf("no deadline: %q", got)
	}
}

// syncBuffer is a writer the editor's goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// On a terminal the door echoes what is typed, takes back a backspace with a plain BS,
// drops an arrow key's sequence, and writes the table's news on a line of its own with
// the half typed line after it.
func TestEditorEchoesAndKeepsTheTypedLine(t *testing.T) {
	e := newEditor(true)
	var out syncBuffer
	write := func(s string) { e.printAbove(&out, s) }
	in, typed := io.Pipe()
	lines := make(chan string)
	go e.read(context.Background(), in, lines, write)

	_, _ = io.WriteString(typed, "hx\x7fi\x1b[A")
	waitFor(t, &out, "hx\b \bi")
	write("Bot Ada has ranked.\n")
	waitFor(t, &out, "hx\b \bi\nBot Ada has ranked.\nhi")
	_, _ = io.WriteString(typed, " there\r\n")
	if got := <-lines; got != "hi there" {
		t.Fatalf("line = %q, want %q", got, "hi there")
	}
	_, _ = io.WriteString(typed, "2\r")
	if got := <-lines; got != "2" {
		t.Fatalf("line = %q, want 2 (the \\n of \\r\\n is not a second Enter)", got)
	}
	_ = typed.Close()
	if _, ok := <-lines; ok {
		t.Fatal("lines stay open after the input ended")
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Fatalf("an escape sequence in the echo: %q", out.String())
	}
}

func waitFor(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	for range 2500 { // at most 5 s, for a busy machine
		if out.String() == want {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("output %q, want %q", out.String(), want)
}

// A refusal is said as the terminal shows it: without the game's id, which the engines
// put first for the logs.
func TestARefusalIsSaidWithoutTheGamesID(t *testing.T) {
	d := New(Options{})
	if got, want := d.notDone(errors.New("you are not seated")), "Not done: You are not seated."; got != want {
		t.Errorf("away from a table: %q, want %q", got, want)
	}
	d.last = &lobby.Update{Table: lobby.TableInfo{Game: "quadrant"}}
	if got, want := d.notDone(errors.New("quadrant: that token is locked")), "Not done: That token is locked."; got != want {
		t.Errorf("at a Quadrant table: %q, want %q", got, want)
	}
}
