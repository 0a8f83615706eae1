package server

import (
	gossh "golang.org/x/crypto/ssh"
	"sync"
	"testing"
	"time"

	"charm.land/ssh"
)

// A window feed hands the session the size that came before it watched, then every
// newer one, one call at a time, and a flood of sizes while one is on its way ends in
// the newest.
func TestWindowFeedHandsOverTheNewestSizeOneAtATime(t *testing.T) {
	f := &windowFeed{changed: make(chan struct{}, 1)}
	f.set(ssh.Window{Width: 90, Height: 30}) // before the session watches

	var mu sync.Mutex
	var got []int
	inside, most := 0, 0
	release := make(chan struct{})
	f.Watch(func(w ssh.Window) {
		mu.Lock()
		inside++
		most = max(most, inside)
		got = append(got, w.Width)
		first := len(got) == 1
		mu.Unlock()
		if first {
			<-release // the session is slow to take the first size
		}
		mu.Lock()
		inside--
		mu.Unlock()
	})
	for waited := 0; ; waited++ { // the size from before arrives on its own
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n > 0 {
			break
		}
		if waited > 500 {
			t.Fatal("the size from before Watch never arrived")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for w := 100; w <= 140; w++ {
		f.set(ssh.Window{Width: w, Height: 30})
	}
	close(release)
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		done := len(got) > 0 && got[len(got)-1] == 140 && inside == 0
		mu.Unlock()
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the newest size never arrived: %v", got)
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if got[0] != 90 {
		t.Errorf("the size from before Watch was %v, want 90 first", got)
	}
	if most != 1 {
		t.Errorf("%d sizes were handed over at once, want one at a time", most)
	}
	if len(got) > 3 {
		t.Errorf("41 sizes sent while the session was busy were handed over one by one: %v", got)
	}
}

// recordingChannel is a session channel that keeps what is written to it.
type recordingChannel struct {
	gossh.Channel
	wrote []byte
}

func (c *recordingChannel) Write(p []byte) (int, error) {
	c.wrote = append(c.wrote, p...)
	return len(p), nil
}

// A session with a terminal gets its channel in its window feed, for the painter to
// write its frames to as they are (charm.land/ssh's session would put a "\r" before
// every "\n", copying the frame twice on the way).
func TestTheWindowFeedHoldsTheChannelItself(t *testing.T) {
	var w windowFeeds
	ch := &recordingChannel{}
	in := make(chan *gossh.Request, 2)
	in <- &gossh.Request{Type: "pty-req", Payload: gossh.Marshal(ptyRequest{Term: "xterm", Columns: 80, Rows: 24})}
	in <- &gossh.Request{Type: "shell"}
	defer close(in) // the feed lives while the channel's requests do
	var env struct{ Key, Value string }
	for req := range w.filter(ch, in) {
		if req.Type == "env" {
			if err := gossh.Unmarshal(req.Payload, &env); err != nil {
				t.Fatal(err)
			}
		}
		if req.Type == "shell" {
			f, ok := w.m.Load(env.Value)
			if !ok {
				t.Fatalf("no feed under %q", env.Value)
			}
			_, _ = f.(*windowFeed).screen.Write([]byte("a\nb"))
			if string(ch.wrote) != "a\nb" {
				t.Fatalf("the feed's screen wrote %q, want the bytes as they are", ch.wrote)
			}
			return
		}
	}
	t.Fatal("the shell request never came through")
}
