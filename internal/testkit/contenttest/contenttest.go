// Package contenttest reads the games' content files from the source tree, for the tests
// of the rules packages, which play with the real decks and their annotations but may
// not import assets. Only tests import it.
package contenttest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Load reads the named files (relative to assets/content, as in rules.Spec.Content).
func Load(t testing.TB, names ...string) map[string][]byte {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("contenttest: cannot tell where the source tree is")
	}
	dir := filepath.Join(filepath.Dir(here), "..", "..", "..", "assets", "content")
	out := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = b
	}
	return out
}
