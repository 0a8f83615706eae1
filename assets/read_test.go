package assets_test

import (
	"testing"

	"parlor/assets"
)

// Every table of a game reads the same content: one copy in the process, which an append
// by a caller cannot write into.
func TestReadSharesOneCopy(t *testing.T) {
	a, err := assets.Read("topfive/topics.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, err := assets.Read("topfive/topics.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(a) == 0 || &a[0] != &b[0] {
		t.Fatal("two reads of a file gave two copies")
	}
	if cap(a) != len(a) {
		t.Fatalf("cap %d past len %d: an append would write into the shared copy", cap(a), len(a))
	}
	if _, err := assets.Read("no/such.txt"); err == nil {
		t.Fatal("a missing file read without an error")
	}
}
