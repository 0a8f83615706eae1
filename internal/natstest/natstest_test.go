package natstest_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"parlor/internal/natstest"
)

// A stream message acknowledged before a restart is there after it, on the same URL,
// through a connection that reconnected by itself.
func TestRestartKeepsJetStreamData(t *testing.T) {
	srv := natstest.Start(t)
	url := srv.URL()
	nc := natstest.Connect(t, url)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "T", Subjects: []string{"t.>"}})
	if err != nil {
		t.Fatal(err)
	}
	ack, err := js.Publish(ctx, "t.one", []byte("kept"))
	if err != nil {
		t.Fatal(err)
	}

	srv.Restart()
	if !srv.Running() || srv.URL() != url {
		t.Fatalf("after restart: running %v at %s, want %s", srv.Running(), srv.URL(), url)
	}
	var msg *jetstream.RawStreamMsg
	for msg == nil {
		// The client reconnects on its own; until then a request may fail.
		if msg, err = s.GetMsg(ctx, ack.Sequence); err != nil && ctx.Err() != nil {
			t.Fatalf("message %d after restart: %v", ack.Sequence, err)
		}
	}
	if string(msg.Data) != "kept" {
		t.Errorf("message after restart = %q", msg.Data)
	}
}

// Run's shutdown stops the server: a client can no longer reach it.
func TestRunShutdown(t *testing.T) {
	url, shutdown := natstest.Run(t)
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	nc.Close()
	shutdown()
	shutdown() // harmless twice
	if nc, err := nats.Connect(url, nats.Timeout(time.Second)); err == nil {
		nc.Close()
		t.Fatal("connected to a server that was shut down")
	}
}
