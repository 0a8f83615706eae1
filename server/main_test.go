package server_test

import (
	"testing"

	"go.uber.org/goleak"

	"parlor/internal/testkit/e2e"
	"parlor/internal/testkit/natstest"
	_ "parlor/internal/testkit/testgame"
)

func TestMain(m *testing.M) {
	e2e.MostlyWaiting(4)
	goleak.VerifyTestMain(m, e2e.IgnoreTerminal, natstest.IgnoreAsyncPublishRace,
		goleak.IgnoreTopFunction("parlor/termrt.renderer")) // the renderers live as long as the process (termrt/render.go)
}
