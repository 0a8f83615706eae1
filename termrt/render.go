package termrt

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// Frames are rendered on a few long-lived goroutines (one per processor), not on each
// session's own, and so are the updates that come with them from the table (a model's
// quick messages, paint.go).
//
// Why: rendering goes deep (lipgloss passes its large Style by value down long call
// chains), and a goroutine's stack starts at 8 KB and grows by copying itself into a
// new one twice the size. The collector halves the stack of every goroutine it finds
// using less than a quarter of it, and a session's goroutine spends its life waiting
// shallow in its loop: so every session grew its stack again on its first frame after
// each collection, and on its first frame of all. That copying was 15 % of the
// server's CPU at login and 5 % under load (docs/performance.md). A renderer's stack
// grows once and is used by every session, and the sessions' stacks stay small, which
// also leaves the collector less to scan.
//
// And while the collector marks, every goroutine that allocates is made to help it,
// with at least 64 KB of scanning however little it allocated (the runtime's
// gcOverAssistWork), paid again in each collection. Seven sessions drawing an action
// each on their own goroutines were seven such payments, and at 5,000 players they
// crowded a mark into a burst that took both cores (docs/performance.md); a renderer
// pays once for many frames.
//
// The cost is two hand-overs per frame, and that work which never finished would hold
// a renderer for every session: what runs here must not block (it reads the session's
// model and its table's shared drawings).
type renderJob struct {
	run   func()        // the work; its owner sets it before each hand-over
	fault *commandPanic // what it panicked with, with the renderer's stack
	done  chan struct{}
}

var (
	renderQueue    = make(chan *renderJob)
	startRenderers sync.Once
)

// onRenderer runs j.run on a renderer and returns once it has; one at a time per job.
// A panic in it is raised again here, on the caller's goroutine, so it ends that
// session only.
func onRenderer(j *renderJob) {
	startRenderers.Do(func() {
		for range runtime.GOMAXPROCS(0) {
			go renderer()
		}
	})
	if j.done == nil {
		j.done = make(chan struct{}, 1)
	}
	renderQueue <- j
	<-j.done
	fault := j.fault
	j.fault = nil
	if fault != nil {
		panic(fmt.Sprintf("%v\n\nrenderer's stack:\n%s", fault.value, fault.stack))
	}
}

func renderer() {
	for j := range renderQueue {
		runJob(j)
	}
}

func runJob(j *renderJob) {
	defer func() {
		if r := recover(); r != nil {
			j.fault = &commandPanic{r, debug.Stack()}
		}
		j.done <- struct{}{}
	}()
	j.run()
}
