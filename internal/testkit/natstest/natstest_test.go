package natstest_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"parlor/internal/testkit/natstest"
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

// A cluster of three keeps a replicated stream working when one member stops, and the
// member comes back with what it had.
func TestClusterSurvivesAMember(t *testing.T) {
	c := natstest.StartCluster(t, 3)
	nc := natstest.Connect(t, c.URL())
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "R3", Subjects: []string{"r3.>"}, Replicas: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "r3.a", []byte("before")); err != nil {
		t.Fatal(err)
	}
	c.Servers[0].Stop()
	c.WaitReady()
	// The stream may be electing a new leader, and a publish sent just before the member
	// went can lose its reply with it: each try waits a few seconds, and a publish is
	// retried until one gets in. The message ID makes the stream keep one copy if a try
	// whose reply was lost got in after all.
	for {
		try, cancelTry := context.WithTimeout(ctx, 3*time.Second)
		_, err = js.Publish(try, "r3.a", []byte("during"), jetstream.WithMsgID("during"))
		cancelTry()
		if err == nil || ctx.Err() != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("publish with a member gone: %v", err)
	}
	c.Servers[0].Restart()
	c.WaitReady()
	info, err := s.Info(ctx)
	for err == nil && info.State.Msgs != 2 && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
		info, err = s.Info(ctx)
	}
	if err != nil || info.State.Msgs != 2 {
		t.Fatalf("stream after a member came back: %+v, %v", info, err)
	}
}
