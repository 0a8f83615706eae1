package lobby_test

import (
	"context"
	"testing"
	"time"

	"parlor/internal/testkit/testgame"
	"parlor/lobby"
	"parlor/rules"
)

// TestShutdownWaitsForTheRecorder: a game that ended before shutdown is handed to
// OnFinish, and Shutdown returns only after OnFinish is done, so the server can close
// its store afterwards without losing the game.
func TestShutdownWaitsForTheRecorder(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	entered, release, recorded := make(chan struct{}), make(chan struct{}), make(chan struct{})
	l := lobby.New(ctx, lobby.Config{OnFinish: func(lobby.FinishedGame) {
		close(entered)
		<-release
		close(recorded)
	}})
	a, err := l.Create(ann, testgame.ID, rules.Options{"rounds": "1"}, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Join(ben, a.Code())
	if err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.Start{}); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(a, lobby.ActOf(testgame.Pick(1))); err != nil {
		t.Fatal(err)
	}
	if err := lobby.Run(b, lobby.ActOf(testgame.Pick(2))); err != nil {
		t.Fatal(err)
	}
	<-entered // the recorder is running (slowly, as a busy disk would)
	cancel()
	shut := make(chan error, 1)
	go func() { shut <- l.Shutdown(context.Background()) }()
	select {
	case <-shut:
		t.Fatal("Shutdown returned while the finished game was still being recorded")
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	select {
	case <-recorded:
	default:
		t.Fatal("Shutdown returned before the recorder finished")
	}
}
