package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// A browser that stops reading: the writes fill what the connection buffers, then one
// waits out its time, fails, and ends the session (its context), rather than holding
// the session's frames in memory or its goroutine for good.
func TestWebSessionToAReaderThatStopped(t *testing.T) {
	got := make(chan *webSession, 1)
	hold := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		got <- &webSession{conn: c, ctx: newWebContext(context.Background(), nil, nil), writeTimeout: 200 * time.Millisecond}
		<-hold
	}))
	defer srv.Close()
	defer close(hold)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseNow()
	sess := <-got // the client never reads again
	frame := make([]byte, 64<<10)
	for i := 0; ; i++ {
		if _, err := sess.Write(frame); err != nil {
			break
		}
		if i > 2000 { // 128 MB: far past any socket buffer
			t.Fatal("every write to a browser that reads nothing went through")
		}
	}
	select {
	case <-sess.ctx.Done():
	default:
		t.Fatal("a failed write left the session running")
	}
	if _, err := sess.Write([]byte("more")); err == nil {
		t.Fatal("a write after the close went through")
	}
}
