package jetstream

import "time"

// SetSetupAttempt sets how long Open's first attempt waits, until the returned func.
func SetSetupAttempt(d time.Duration) (restore func()) {
	old := setupAttempt
	setupAttempt = d
	return func() { setupAttempt = old }
}
