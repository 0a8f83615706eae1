package store_test

import (
	"testing"

	"parlor/store"
	"parlor/store/storetest"
)

func TestMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return store.NewMemory() })
}
