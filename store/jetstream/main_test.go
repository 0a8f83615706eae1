package jetstream_test

import (
	"testing"

	"go.uber.org/goleak"

	"parlor/internal/testkit/natstest"
)

// TestMain checks that stores, connections and the embedded servers leave nothing
// running behind them.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, natstest.IgnoreAsyncPublishRace)
}
