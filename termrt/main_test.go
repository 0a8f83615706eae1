package termrt

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("parlor/termrt.renderer"),       // the renderers live as long as the process (render.go)
		goleak.IgnoreAnyFunction("parlor/termrt.discardReplies")) // the emulators' reply readers (paint_test.go)
}
