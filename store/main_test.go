package store_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that Close really releases database/sql's background goroutines.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
