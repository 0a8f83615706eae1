package natstest_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that a stopped server and its clients leave no goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
