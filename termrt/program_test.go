package termrt

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// logged is a model that records every message it is updated with, and answers some of
// them with commands.
type logged struct {
	seen chan tea.Msg
	init tea.Cmd
	on   func(tea.Msg) tea.Cmd
}

type note string

func (l *logged) Init() tea.Cmd  { return l.init }
func (l *logged) View() tea.View { return tea.View{} }
func (l *logged) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	l.seen <- msg
	if l.on != nil {
		return l, l.on(msg)
	}
	return l, nil
}

// runProgram runs m in a program until it ends; the channel is closed then.
func runProgram(ctx context.Context, m tea.Model, first ...tea.Msg) (*Program, <-chan struct{}) {
	prog := newProgram(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		prog.run(m, first...)
	}()
	return prog, done
}

func next(t *testing.T, l *logged) tea.Msg {
	t.Helper()
	select {
	case msg := <-l.seen:
		return msg
	case <-time.After(5 * time.Second):
		t.Fatal("no message reached the model")
		return nil
	}
}

// The first messages come before the init command's, and before anything sent; a
// batch runs each of its commands; quitting ends the loop.
func TestProgramOrderBatchAndQuit(t *testing.T) {
	l := &logged{seen: make(chan tea.Msg, 16), init: func() tea.Msg { return note("init") }}
	l.on = func(msg tea.Msg) tea.Cmd {
		if msg == note("go") {
			return tea.Batch(func() tea.Msg { return note("a") }, nil, func() tea.Msg { return note("b") })
		}
		if msg == note("stop") {
			return tea.Quit
		}
		return nil
	}
	prog, done := runProgram(context.Background(), l, tea.WindowSizeMsg{Width: 80, Height: 24}, note("second"))
	if got := next(t, l); got != (tea.WindowSizeMsg{Width: 80, Height: 24}) {
		t.Fatalf("first message %#v; want the window size", got)
	}
	if got := next(t, l); got != note("second") {
		t.Fatalf("second message %#v", got)
	}
	if got := next(t, l); got != note("init") {
		t.Fatalf("third message %#v; want the init command's", got)
	}
	prog.Send(note("go"))
	next(t, l)
	batch := map[tea.Msg]bool{next(t, l): true, next(t, l): true}
	if !batch[note("a")] || !batch[note("b")] {
		t.Fatalf("the batch gave %v; want a and b", batch)
	}
	prog.Send(note("stop"))
	next(t, l)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("tea.Quit did not end the program")
	}
	// After the end a send neither blocks nor reaches the model.
	for range 100 {
		prog.Send(note("late")) // would block once the buffer is full
	}
	select {
	case msg := <-l.seen:
		t.Fatalf("%#v reached a model whose program had ended", msg)
	default:
	}
}

// Sends after the context ended return at once.
func TestProgramSendAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	l := &logged{seen: make(chan tea.Msg, 16)}
	prog, done := runProgram(ctx, l)
	cancel()
	<-done
	for range 100 {
		prog.Send(note("late")) // would block forever once the buffer is full
	}
}

// Input events come to the model as Bubble Tea's messages.
func TestProgramTranslatesInput(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := &logged{seen: make(chan tea.Msg, 16)}
	prog, _ := runProgram(ctx, l)
	prog.Send(uv.KeyPressEvent{Code: 'x', Text: "x"})
	if got, ok := next(t, l).(tea.KeyPressMsg); !ok || got.String() != "x" {
		t.Fatalf("a key press came as %#v", got)
	}
	prog.Send(uv.PasteEvent{Content: "hello"})
	if got, ok := next(t, l).(tea.PasteMsg); !ok || got.Content != "hello" {
		t.Fatalf("a paste came as %#v", got)
	}
}

// A command's panic ends the loop with a panic on the loop's goroutine (where the
// session's recovery catches it), not on the command's, which would end the server.
func TestProgramCommandPanicReachesTheLoop(t *testing.T) {
	l := &logged{seen: make(chan tea.Msg, 16), init: func() tea.Msg { panic("boom") }}
	prog := newProgram(context.Background())
	got := make(chan any, 1)
	go func() {
		defer func() { got <- recover() }()
		prog.run(l)
	}()
	select {
	case r := <-got:
		if s := fmt.Sprint(r); !strings.Contains(s, "boom") || !strings.Contains(s, "program_test.go") {
			t.Fatalf("the loop's panic %q does not carry the command's and its stack", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the command's panic never reached the loop")
	}
}

// TrySend hands a message over only when the loop has room for it, and never waits: the
// table's actor calls it with news.
func TestTrySendNeverWaits(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prog := newProgram(ctx) // no loop yet: nothing takes the messages
	taken := 0
	for range cap(prog.msgs) + 3 {
		if prog.TrySend(note("news")) {
			taken++
		}
	}
	if taken != cap(prog.msgs) {
		t.Fatalf("TrySend took %d messages with room for %d", taken, cap(prog.msgs))
	}
	l := &logged{seen: make(chan tea.Msg, 64)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		prog.run(l)
	}()
	for range taken {
		if msg := next(t, l); msg != note("news") {
			t.Fatalf("the loop took %v, want the news", msg)
		}
	}
	cancel()
	<-done
	if !prog.TrySend(note("late")) {
		t.Error("after the end TrySend says the message waits to be sent")
	}
}
