package termrt

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// render is m's frame as rows, rendered on a renderer with j.
func render(j *renderJob, m tea.Model) (rows []string) {
	j.run = func() { rows = rowsOf(m) }
	onRenderer(j)
	return rows
}

// faulty is a model whose frame panics.
type faulty struct{ shown }

func (faulty) Frame() []string { panic("boom in a frame") }

// A frame's panic is raised again on the session's goroutine, where its recovery ends
// that session only, with the renderer's stack; the renderers go on rendering.
func TestRenderPanicReachesItsSessionOnly(t *testing.T) {
	var j renderJob
	got := func() (r any) {
		defer func() { r = recover() }()
		render(&j, &faulty{})
		return nil
	}()
	if s := fmt.Sprint(got); !strings.Contains(s, "boom in a frame") || !strings.Contains(s, "render_test.go") {
		t.Fatalf("the session's panic %q does not carry the frame's and the renderer's stack", s)
	}
	if rows := render(&j, &framed{rows: []string{"after"}}); len(rows) != 1 || rows[0] != "after" {
		t.Fatalf("after a panic the same job rendered %q", rows)
	}
}

// Many sessions render at once, each with its own job, and each gets its own frame
// (the race detector watches the hand-over).
func TestRenderersServeManySessionsAtOnce(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan string, 32)
	for i := range 32 {
		wg.Go(func() {
			var j renderJob
			for n := range 50 {
				want := fmt.Sprintf("session %d frame %d", i, n)
				if rows := render(&j, &framed{rows: []string{want}}); len(rows) != 1 || rows[0] != want {
					errs <- fmt.Sprintf("rendered %q, want %q", rows, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
